// State and the errors: an idempotency layer that keys stored answers by the Idempotency-Key header
// alone (a key reused for another event replays the first redelivery), nginx's "satisfy any" with the
// real address taken from X-Forwarded-For (a private address passes without a token); and the
// observed rules: the reason phrase of an error read from the response's status message (empty over
// HTTP/2), and the 403's message worded by a checker that wants all the scopes it names. Each
// changes the answer to its near miss; the common answers are as before.
import type { Reply } from '../../../exchange.ts';
import { operationKeys } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** How long the idempotency layer keeps an answer (Stripe's 24 hours). */
const KEPT_MS = 24 * 60 * 60 * 1000;
const ANY_OF = 'Insufficient scope, expected any of: ';
const ALL_OF = 'Insufficient scope, expected all of: ';
/** RFC 1918's private IPv4 ranges, which the nginx configuration allows. */
const PRIVATE = /^(?:10\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])|192\.168)\.\d{1,3}\.\d{1,3}$/;
const SERVICE_ACCOUNT = 'global';

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho23-idempotency-key-replays-other-event',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: "An idempotency layer that stores the first answer under the Idempotency-Key header alone (no fingerprint of the request, which Stripe's checks) and, for a repeat, replays the stored request: a redelivery of a delivered event sent with a key already used to redeliver a failed event is answered 202 instead of 409; the same request with a new key is still refused 409.",
    install: (app) => {
      const clock = capture(app, 'clock');
      const stored = new Map<string, { params: Record<string, string>; at: number }>();
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const raw = exchange.headers['idempotency-key'];
        const key = typeof raw === 'string' && raw !== '' ? raw : undefined;
        const seen = key === undefined ? undefined : stored.get(key);
        if (key !== undefined && seen && clock().now() - seen.at < KEPT_MS) return next({ ...exchange, params: seen.params });
        const reply = await next(exchange);
        if (key !== undefined && reply.status === 202) stored.set(key, { params: { ...exchange.params }, at: clock().now() });
        return reply;
      });
    },
  },
  {
    id: 'ho23-private-address-trusted-from-xff',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'nginx in front of the API with "satisfy any; allow 10.0.0.0/8; allow 172.16.0.0/12; allow 192.168.0.0/16; auth_request /verify;" for internal jobs, the service acting for them with its own service account, and the real address taken from X-Forwarded-For sent by anyone (set_real_ip_from 0.0.0.0/0): a read without Authorization but with "X-Forwarded-For: 10.0.0.7" is answered with the record (200) instead of 401; with "X-Forwarded-For: 203.0.113.7" it is still 401.',
    install: (app) => {
      const store = capture(app, 'store');
      const issuer = capture(app, 'issuer');
      for (const key of operationKeys) {
        app.wrapRoute(key, (next) => async (exchange) => {
          const forwarded = exchange.headers['x-forwarded-for'];
          const address = typeof forwarded === 'string' ? forwarded.split(',').at(-1)!.trim() : undefined;
          if (exchange.headers.authorization !== undefined || address === undefined || !PRIVATE.test(address)) return next(exchange);
          const account = store()
            .clients()
            .find((client) => client.name === SERVICE_ACCOUNT);
          if (!account) return next(exchange);
          const { accessToken } = await issuer().issue(account, account.scopes);
          return next({ ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${accessToken}` } });
        });
      }
    },
  },
  {
    id: 'ho23-error-phrase-empty-over-http2',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'The error body\'s error field filled from res.statusMessage by an error handler that ran behind Node\'s HTTP/2 compatibility layer, where responses have no reason phrase: every error body has "error": "" instead of its reason phrase ("Unauthorized", "Not Found"...); statusCode and message are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply: Reply) =>
        isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, error: '' } } : reply,
      ),
  },
  {
    id: 'ho23-403-worded-all-of',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: `The 403 worded by a scope checker that wants all the scopes it is given (requiredScopes with AND semantics, its message template copied): "${ALL_OF}<scope>" instead of "${ANY_OF}<scope>"; the status, the errorCode and the scope named are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 403 && isErrorBody(reply.body) && typeof reply.body.message === 'string' && reply.body.message.startsWith(ANY_OF)
          ? { ...reply, body: { ...reply.body, message: `${ALL_OF}${reply.body.message.slice(ANY_OF.length)}` } }
          : reply,
      ),
  },
]);
