// POST /event-streams/{id}/redeliver/{event_id} (spec 4.1): redeliver one failed event. Its scope,
// the global-client rule and its 401, 403, 404 and 409 are the spec's (sections 5 and 7).
import { observed } from '../observed.ts';
import { operation } from '../openapi.ts';
import type { OperationCard } from './card.ts';
import { scopeRule } from './scope.ts';

const status404 = { kind: 'status', status: 404 } as const;

declare module '../openapi.ts' {
  interface OperationKeys {
    redeliver: true;
  }
}

export const redeliverCard = {
  key: 'redeliver',
  spec: operation('redeliver'),
  success: { status: observed.operations['redeliver'].success.status, clause: 'redeliver.success.202' },
  name: 'redelivery',
  faultPrefix: 'redeliver',
  scope: scopeRule('redeliver', {
    clause: 'redeliver.scope',
    statusClauses: ['redeliver.errors.403.scope'],
    otherResource: 'update:event_streams',
  }),
  globalClient: { clause: 'redeliver.global-client', statusClause: 'redeliver.errors.401.not-global' },
  roleWithoutScope: 'without_redeliver_scope',
  fixtures: ['eventStream', 'failedEvent'],
  writes: true,
  params: {
    id: {
      fixture: 'eventStream',
      names: 'stream',
      unknown: [
        { clause: 'redeliver.errors.404.stream', outcome: status404 },
        { clause: 'errors.404.stream', outcome: { kind: 'observed-error', error: 'stream_not_found' } },
      ],
    },
    event_id: {
      fixture: 'failedEvent',
      names: 'event',
      unknown: [{ clause: 'redeliver.errors.404.event', outcome: status404 }],
      otherOwner: {
        fixture: 'eventOfAnotherStream',
        what: 'an event that exists in another stream',
        checks: [{ clause: 'redeliver.errors.404.event', outcome: status404 }],
      },
    },
  },
  unauthenticated: { clause: 'redeliver.errors.401.invalid-token', signatureClause: 'redeliver.errors.401.signature' },
  answer: { statusClause: 'redeliver.success.202', level: 'contract', emptyBodyClause: 'redeliver.response.body' },
} as const satisfies OperationCard<'redeliver', 'without_redeliver_scope'>;
