// State and the errors: a redelivery written as one Prisma update whose where names the failed
// state, and the P2025 it throws for any other state mapped to 404 by the service's error filter.
// It changes the answer to its near miss; the common answers are as before.
import { heldOutFamily } from '../held-out-fault.ts';
import { editReplies, withStatus } from '../../support/route-edits.ts';

/** Prisma's message for P2025 (RecordNotFound) on update. */
const P2025 = 'Record to update not found.';

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho33-redeliver-prisma-p2025-not-found',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: `A NestJS redelivery service written as one prisma.event.update({ where: { id, streamId, status: 'FAILED' }, data: { status: 'PENDING' } }) (an "atomic" check and change), whose PrismaClientKnownRequestError P2025 the app's exception filter maps to 404 with its message: a delivered or pending event is answered 404 "${P2025}" instead of 409; a failed event is still 202 and an unknown stream still 404.`,
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) => {
        if (reply.status !== 409) return reply;
        const moved = withStatus(reply, 404);
        return moved.body !== null && typeof moved.body === 'object' ? { ...moved, body: { ...moved.body, message: P2025 } } : moved;
      }),
  },
]);
