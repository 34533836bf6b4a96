// Path ids: a NestJS vault read whose pipe turns an over-long id into undefined, and TypeORM's
// findOneBy({ id: undefined }), which drops the condition and answers the first row; and the
// observed rule: a malformed path id answered by FastAPI's RequestValidationError handler (422
// with its "detail" list). Each changes the answer to its near miss; other ids are answered as
// before.
import { capture } from '../../support/captured.ts';
import { VAULT_RECORDS } from '../../support/store-view.ts';
import { editReplies, editRequests, isErrorBody, replacing } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};
/** The vault id's bound (spec section 8). */
const VAULT_ID_MAX = 30;
const OPERATIONS = ['redeliver', 'vault', 'sso-ticket'] as const;

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho31-vault-id-typeorm-undefined-first-row',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: `A NestJS vault read whose id goes through a pipe that answers undefined for an id over ${VAULT_ID_MAX} characters (meant to let the service answer 404 itself), then repository.findOneBy({ id }), and TypeORM drops a condition whose value is undefined and returns the first row: a vault id of ${VAULT_ID_MAX + 1} characters is answered 200 with the first connection's record instead of being refused; a well-formed unknown id is still 404.`,
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'vault', (exchange) => {
        const id = exchange.params.id === undefined ? undefined : decodedOnce(exchange.params.id);
        const first = store().records(VAULT_RECORDS)[0];
        if (id === undefined || id.length <= VAULT_ID_MAX || !first || typeof first.id !== 'string') return exchange;
        return { ...exchange, params: { ...exchange.params, id: encodeURIComponent(first.id) } };
      });
    },
  },
  {
    id: 'ho31-path-fastapi-422-detail',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'A FastAPI service whose path parameters are declared Path(min_length=..., max_length=..., pattern=...), so a malformed id raises RequestValidationError, answered by FastAPI\'s default handler: a malformed stream, event, profile or vault id is answered 422 {"detail": [{"type": "string_pattern_mismatch", "loc": ["path", "id"], ...}]} instead of 400 invalid_uri "Path validation error: ..."; a well-formed unknown id is still 404.',
    install: (app) =>
      editReplies(app, OPERATIONS, (reply, exchange) => {
        if (reply.status !== 400 || !isErrorBody(reply.body) || reply.body.errorCode !== 'invalid_uri') return reply;
        const name = typeof reply.body.message === 'string' && reply.body.message.includes('event_id') ? 'event_id' : 'id';
        const raw = exchange.params[name] ?? '';
        const detail = [
          { type: 'string_pattern_mismatch', loc: ['path', name], msg: 'String should match pattern', input: decodedOnce(raw) ?? raw },
        ];
        return replacing(reply, { status: 422, headers: { 'content-type': 'application/json' }, body: { detail } });
      }),
  },
]);
