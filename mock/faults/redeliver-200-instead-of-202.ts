// Redelivery answers 200 where the spec says 202: a route wrapper that rewrites the status of
// the success reply and leaves every other reply alone.
import { observed } from '../../specs/index.ts';
import type { Fault } from './fault.ts';

const ACCEPTED = observed.operations.redeliver.success.status;

export const redeliver200InsteadOf202: Fault = {
  id: 'redeliver-200-instead-of-202',
  clause: 'redeliver.success.202',
  description: 'Redelivery of a failed event answers 200 instead of 202.',
  install(app) {
    app.wrapRoute('redeliver', (next) => async (exchange) => {
      const reply = await next(exchange);
      return reply.status === ACCEPTED ? { ...reply, status: 200 } : reply;
    });
  },
};
