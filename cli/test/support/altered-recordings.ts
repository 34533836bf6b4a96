// Faults planted in the project's own recordings, one per check of check-traffic: which recording,
// which exchange (the first that `pick` accepts), what to change in it, and the clause the change
// breaks. Each row is judged on a small slice of its recording (the exchange, the one before it on
// the same origin, and every token endpoint and JWKS exchange, which tell whose tokens these are),
// first as recorded (nothing may fail) and then altered (the clause must).
import type { RecordedExchange } from '../../../harness/exchange-record.ts';
import { endpointOf } from '../../../traffic/endpoints.ts';
import type { Recorded } from '../../../traffic/recording.ts';

export type Source = 'sdk' | 'sdk-limited' | 'suite';

export interface Alteration {
  clause: string;
  /** What the altered exchange now shows. */
  fault: string;
  source: Source;
  pick: (r: Recorded, previous: Recorded | undefined) => boolean;
  alter: (e: RecordedExchange, previous: RecordedExchange | undefined) => void;
  hints?: { globalClients?: string[]; nonGlobalClients?: string[] };
}

const pathOf = (r: Recorded) => new URL(r.exchange.request.url).pathname;
const endpoint = (r: Recorded) => endpointOf(r.exchange.request.method, r.exchange.request.url);
const op = (r: Recorded, key: string, status?: number) => {
  const e = endpoint(r);
  return e.kind === 'operation' && e.operation === key && (status === undefined || r.exchange.response.status === status);
};
const token = (r: Recorded, status: number) => endpoint(r).kind === 'token' && r.exchange.response.status === status;
const bodyOf = (e: RecordedExchange) => JSON.parse(e.response.body ?? 'null');
const requestBody = (r: Recorded) => r.exchange.request.body ?? '';
/** A pick of the first token 401 whose client got a 200 earlier in the recording, with another secret. */
function secretRefusedAfterIssue(): (r: Recorded) => boolean {
  const issued = new Set<string>();
  return (r) => {
    const client = new URLSearchParams(requestBody(r)).get('client_id') ?? undefined;
    if (client !== undefined && token(r, 200)) issued.add(client);
    return client !== undefined && token(r, 401) && issued.has(client) && r.exchange.digests?.clientSecret !== undefined;
  };
}

const message = (r: Recorded) => {
  const said = (JSON.parse(r.exchange.response.body ?? '{}') as { message?: unknown }).message;
  return typeof said === 'string' ? said : '';
};
const claims = (r: Recorded) => r.exchange.tokens?.sent?.claims ?? {};
const answerSeconds = (e: RecordedExchange) => Math.floor(Date.parse(e.response.headers.date ?? e.startedAt) / 1000);

function respond(e: RecordedExchange, status: number, body: unknown): void {
  e.response.status = status;
  e.response.body = JSON.stringify(body);
}

const RECORD = {
  id: 'ac_NbWaizZTo4vfWnCwDq76Vj',
  app_id: 'SLACK',
  name: 'Team notifications',
  ready: true,
  created_at: '2024-09-12T12:52:16.553Z',
  updated_at: '2024-09-12T12:52:16.553Z',
  fingerprint: '0123456789abcdef0123456789abcdef',
};
const withRecord = (e: RecordedExchange) => respond(e, 200, { ...RECORD, id: new URL(e.request.url).pathname.split('/').pop() });
const ticket = (e: RecordedExchange) =>
  respond(e, 201, { ticket: 'https://tenant.example.com/self-service/connections-flow?ticket=[redacted]' });
const NON_GLOBAL = '7wAR1VvXkrHB52bjvpZ0EMo6a4mPgRS8';
const GLOBAL = '2nmc0Qf7UqGHv2NqccuxrVdKWEB2yK9H';

export const alterations: Alteration[] = [
  // Answers of the SDK's recording.
  {
    clause: 'vault.success.status',
    fault: 'a read answered 203',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 200),
    alter: (e) => void (e.response.status = 203),
  },
  {
    clause: 'redeliver.success.202',
    fault: 'a redelivery answered 200',
    source: 'sdk',
    pick: (r) => op(r, 'redeliver', 202),
    alter: (e) => void (e.response.status = 200),
  },
  {
    clause: 'redeliver.response.body',
    fault: 'a 202 with a body',
    source: 'sdk',
    pick: (r) => op(r, 'redeliver', 202),
    alter: (e) => void (e.response.body = '{"queued":true}'),
  },
  {
    clause: 'vault.record.name',
    fault: 'a name of 151 characters',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 200),
    alter: (e) => respond(e, 200, { ...bodyOf(e), name: 'n'.repeat(151) }),
  },
  {
    clause: 'vault.response.shape',
    fault: 'a field beyond section 2.1',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 200),
    alter: (e) => respond(e, 200, { ...bodyOf(e), extra: 1 }),
  },
  {
    clause: 'vault.response.record',
    fault: 'another connection than the path names',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 200),
    alter: (e) => respond(e, 200, { ...bodyOf(e), id: 'ac_AkoqqjxmLJhPJThFBi7J1v' }),
  },
  {
    clause: 'vault.response.content-type',
    fault: 'a record as text/plain',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 200),
    alter: (e) => void (e.response.headers['content-type'] = 'text/plain'),
  },
  {
    clause: 'sso-ticket.response.ticket',
    fault: 'a ticket that is a number',
    source: 'sdk',
    pick: (r) => op(r, 'sso-ticket', 201),
    alter: (e) => respond(e, 201, { ticket: 42 }),
  },
  {
    clause: 'sso-ticket.response.shape',
    fault: 'a ticket code of 3 characters',
    source: 'sdk',
    pick: (r) => op(r, 'sso-ticket', 201),
    alter: (e) => respond(e, 201, { ticket: 'https://tenant.example.com/self-service/connections-flow?ticket=abc' }),
  },
  {
    clause: 'sso-ticket.response.content-type',
    fault: 'a ticket as text/html',
    source: 'sdk',
    pick: (r) => op(r, 'sso-ticket', 201),
    alter: (e) => void (e.response.headers['content-type'] = 'text/html'),
  },
  {
    clause: 'errors.body.shape',
    fault: 'an error without statusCode',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 404),
    alter: (e) => respond(e, 404, { error: 'Not Found', message: 'Connection not found' }),
  },
  {
    clause: 'errors.body.content-type',
    fault: 'an error without its charset',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 404),
    alter: (e) => void (e.response.headers['content-type'] = 'application/json'),
  },
  {
    clause: 'errors.404.vault',
    fault: 'a 404 of another wording',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 404),
    alter: (e) => respond(e, 404, { ...bodyOf(e), message: 'No such connection' }),
  },
  {
    clause: 'errors.401.message',
    fault: 'a 401 that names no cause',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 401),
    alter: (e) => respond(e, 401, { ...bodyOf(e), message: 'Nope' }),
  },
  {
    clause: 'errors.403.scope-named',
    fault: 'a 403 that names no scope',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 403),
    alter: (e) => respond(e, 403, { ...bodyOf(e), message: 'Forbidden' }),
  },
  {
    clause: 'errors.400.body',
    fault: 'a 400 without invalid_body',
    source: 'sdk',
    pick: (r) => op(r, 'sso-ticket', 400),
    alter: (e) => respond(e, 400, { ...bodyOf(e), errorCode: undefined }),
  },
  {
    clause: 'sso-ticket.body.ttl_sec.range',
    fault: 'ttl_sec 432001 accepted',
    source: 'sdk',
    pick: (r) => op(r, 'sso-ticket', 400),
    alter: ticket,
  },
  {
    clause: 'vault.scope',
    fault: 'a token without the scope accepted',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 403),
    alter: withRecord,
  },
  {
    clause: 'vault.scope',
    fault: 'a token with the scope refused for insufficient scope',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 200),
    alter: (e) =>
      respond(e, 403, {
        statusCode: 403,
        error: 'Forbidden',
        message: 'Insufficient scope, expected any of: read:flows_vault_connections',
        errorCode: 'insufficient_scope',
      }),
  },
  {
    clause: 'errors.401.all-operations',
    fault: 'a bearer value that is not a JWT accepted',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 401),
    alter: withRecord,
  },
  {
    clause: 'auth.bearer.required',
    fault: 'a bearer value that is not a JWT accepted',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 401),
    alter: withRecord,
  },
  {
    clause: 'auth.schemes',
    fault: 'an issued token refused',
    source: 'sdk',
    pick: (r) => op(r, 'vault', 200),
    alter: (e) => respond(e, 401, { statusCode: 401, error: 'Unauthorized', message: 'Invalid token' }),
  },
  // The token endpoint in the SDK's recording.
  {
    clause: 'token.endpoint',
    fault: 'an access token that is not a JWT',
    source: 'sdk',
    pick: (r) => token(r, 200),
    alter: (e) => {
      delete e.tokens;
      respond(e, 200, { ...bodyOf(e), access_token: 'opaque' });
    },
  },
  {
    clause: 'token.scopes',
    fault: 'a token without its scope claim',
    source: 'sdk',
    pick: (r) => token(r, 200),
    alter: (e) => void delete e.tokens!.issued!.claims.scope,
  },
  {
    clause: 'scopes.catalogue',
    fault: 'a scope outside the catalogue',
    source: 'sdk',
    pick: (r) => token(r, 200),
    alter: (e) => void (e.tokens!.issued!.claims.scope = `${String(e.tokens!.issued!.claims.scope)} fly:rockets`),
  },
  {
    clause: 'token.lifetime',
    fault: 'expires_in 3600',
    source: 'sdk',
    pick: (r) => token(r, 200),
    alter: (e) => respond(e, 200, { ...bodyOf(e), expires_in: 3600 }),
  },
  {
    clause: 'token.observed.claims',
    fault: 'a token signed HS256',
    source: 'sdk',
    pick: (r) => token(r, 200),
    alter: (e) => void (e.tokens!.issued!.header.alg = 'HS256'),
  },
  {
    clause: 'token.observed.response',
    fault: 'an answer without token_type',
    source: 'sdk',
    pick: (r) => token(r, 200),
    alter: (e) => respond(e, 200, { ...bodyOf(e), token_type: undefined }),
  },
  // The rate limit, in the SDK's recording of the limited mock.
  {
    clause: 'errors.429.body',
    fault: 'a 429 of another wording',
    source: 'sdk-limited',
    pick: (r) => op(r, 'vault', 429),
    alter: (e) => respond(e, 429, { ...bodyOf(e), message: 'Slow down' }),
  },
  {
    clause: 'rate-limit.429.headers',
    fault: 'a 429 without X-RateLimit-Reset',
    source: 'sdk-limited',
    pick: (r) => op(r, 'vault', 429),
    alter: (e) => void delete e.response.headers['x-ratelimit-reset'],
  },
  {
    clause: 'rate-limit.headers.on-success',
    fault: 'a success without X-RateLimit-Limit',
    source: 'sdk-limited',
    pick: (r) => op(r, 'vault', 200),
    alter: (e) => void delete e.response.headers['x-ratelimit-limit'],
  },
  {
    clause: 'rate-limit.headers.consistent',
    fault: 'Remaining above Limit',
    source: 'sdk-limited',
    pick: (r) => op(r, 'vault', 200),
    alter: (e) => void (e.response.headers['x-ratelimit-remaining'] = '9'),
  },
  {
    clause: 'rate-limit.reset.unix-seconds',
    fault: 'Reset in milliseconds',
    source: 'sdk-limited',
    pick: (r) => op(r, 'vault', 200),
    alter: (e) => void (e.response.headers['x-ratelimit-reset'] = `${Number(e.response.headers['x-ratelimit-reset']) * 1000}`),
  },
  {
    clause: 'rate-limit.limit.constant',
    fault: 'Limit changing between answers',
    source: 'sdk-limited',
    pick: (r, p) => op(r, 'vault') && p !== undefined,
    alter: (e) => void (e.response.headers['x-ratelimit-limit'] = '7'),
  },
  {
    clause: 'rate-limit.remaining.falls',
    fault: 'Remaining not falling before the bucket refills',
    source: 'sdk-limited',
    pick: (r, p) => op(r, 'vault') && p !== undefined,
    alter: (e, p) => {
      p!.response.headers['x-ratelimit-remaining'] = '1';
      p!.response.headers['x-ratelimit-reset'] = String(answerSeconds(e) + 5);
      e.response.headers['x-ratelimit-remaining'] = '1';
    },
  },
  {
    clause: 'redeliver.errors.429',
    fault: 'a redelivery accepted while the bucket is empty',
    source: 'suite',
    pick: (r, p) => op(r, 'redeliver', 202) && p !== undefined,
    alter: (e, p) => {
      p!.response.headers['x-ratelimit-remaining'] = '0';
      p!.response.headers['x-ratelimit-reset'] = String(answerSeconds(e) + 5);
    },
  },
  // Refusals in the suite's recording, against what was sent.
  {
    clause: 'redeliver.errors.401.invalid-token',
    fault: 'an expired token accepted',
    source: 'suite',
    pick: (r) => op(r, 'redeliver', 401) && message(r).startsWith('Expired'),
    alter: (e) => respond(e, 202, {}),
  },
  {
    clause: 'redeliver.errors.401.signature',
    fault: 'an unsigned token accepted',
    source: 'suite',
    pick: (r) => op(r, 'redeliver', 401) && r.exchange.tokens?.sent?.header.alg === 'none',
    alter: (e) => respond(e, 202, {}),
  },
  {
    clause: 'errors.401.all-operations',
    fault: 'a token of another issuer accepted',
    source: 'suite',
    pick: (r) => op(r, 'vault', 401) && claims(r).iss === 'https://issuer.example.com/',
    alter: withRecord,
  },
  {
    clause: 'auth.order',
    fault: 'a malformed path decided before a missing scope',
    source: 'suite',
    // The two-causes test: a client without the scope, and a stream id of another resource's shape.
    pick: (r) => op(r, 'redeliver', 403) && /\/event-streams\/(?!est_)/.test(pathOf(r)),
    alter: (e) =>
      respond(e, 400, { statusCode: 400, error: 'Bad Request', message: 'Path validation error: id', errorCode: 'invalid_uri' }),
  },
  {
    clause: 'redeliver.scope',
    fault: 'a redelivery without its scope accepted',
    source: 'suite',
    pick: (r) => op(r, 'redeliver', 403),
    alter: (e) => respond(e, 202, {}),
  },
  {
    clause: 'redeliver.errors.403.scope',
    fault: 'a redelivery without its scope accepted',
    source: 'suite',
    pick: (r) => op(r, 'redeliver', 403),
    alter: (e) => respond(e, 202, {}),
  },
  {
    clause: 'sso-ticket.scope',
    fault: 'a ticket without its scope created',
    source: 'suite',
    pick: (r) => op(r, 'sso-ticket', 403),
    alter: ticket,
  },
  {
    clause: 'redeliver.global-client',
    fault: 'a redelivery of a client that is not global accepted',
    source: 'suite',
    pick: (r) => op(r, 'redeliver', 401) && message(r) === 'Client is not global',
    alter: (e) => respond(e, 202, {}),
    hints: { nonGlobalClients: [NON_GLOBAL] },
  },
  {
    clause: 'redeliver.errors.401.not-global',
    fault: 'a global client refused as not global',
    source: 'suite',
    pick: (r) => op(r, 'redeliver', 202),
    alter: (e) => respond(e, 401, { statusCode: 401, error: 'Unauthorized', message: 'Client is not global' }),
    hints: { globalClients: [GLOBAL] },
  },
  {
    clause: 'redeliver.path.id.length',
    fault: 'a 25-character stream id accepted',
    source: 'suite',
    pick: (r) => op(r, 'redeliver', 400) && /est_\w{21}\//.test(pathOf(r)),
    alter: (e) => respond(e, 202, {}),
  },
  {
    clause: 'vault.path.id.length',
    fault: 'a 31-character id accepted',
    source: 'suite',
    pick: (r) => op(r, 'vault', 400) && pathOf(r).split('/').pop()!.length === 31,
    alter: withRecord,
  },
  {
    clause: 'errors.400.path',
    fault: 'a malformed id refused without invalid_uri',
    source: 'suite',
    pick: (r) => op(r, 'vault', 400),
    alter: (e) => respond(e, 400, { ...bodyOf(e), errorCode: undefined }),
  },
  {
    clause: 'sso-ticket.header.custom-domain.length',
    fault: 'a custom domain of 2 characters accepted',
    source: 'suite',
    pick: (r) => op(r, 'sso-ticket', 400) && (r.exchange.request.headers['tenant-custom-domain'] ?? 'xxx').length < 3,
    alter: ticket,
  },
  {
    clause: 'sso-ticket.custom-domain.host',
    fault: 'a ticket on the tenant host despite the custom domain',
    source: 'suite',
    pick: (r) => op(r, 'sso-ticket', 201) && r.exchange.request.headers['tenant-custom-domain'] !== undefined,
    alter: (e) => respond(e, 201, { ticket: 'https://elsewhere.example.com/self-service/connections-flow?ticket=[redacted]' }),
  },
  {
    clause: 'sso-ticket.body.nested-rules',
    fault: 'an unknown nested property accepted',
    source: 'suite',
    pick: (r) =>
      op(r, 'sso-ticket', 400) && message(r).includes('Additional properties not allowed') && message(r).includes(' on property '),
    alter: ticket,
  },
  {
    clause: 'sso-ticket.body.ttl_sec.type',
    fault: 'a ttl_sec with a fraction accepted',
    source: 'suite',
    pick: (r) => op(r, 'sso-ticket', 400) && /"ttl_sec":\d+\.\d/.test(requestBody(r)),
    alter: ticket,
  },
  {
    clause: 'sso-ticket.body.object',
    fault: 'a body that is not an object accepted',
    source: 'suite',
    pick: (r) => op(r, 'sso-ticket', 400) && /^(null|\[)/.test(requestBody(r)),
    alter: ticket,
  },
  {
    clause: 'sso-ticket.body.optional',
    fault: 'a body with no fields refused',
    source: 'suite',
    pick: (r) => op(r, 'sso-ticket', 201) && requestBody(r) === '{}' && r.exchange.request.headers['tenant-custom-domain'] === undefined,
    alter: (e) =>
      respond(e, 400, { statusCode: 400, error: 'Bad Request', message: 'Payload validation error: body', errorCode: 'invalid_body' }),
  },
  // The token endpoint in the suite's recording.
  {
    clause: 'token.endpoint.wrong-secret',
    fault: 'a token for a wrong secret',
    source: 'suite',
    // A 401 to a client that got a token earlier, for another secret (not a client id off by a character).
    pick: secretRefusedAfterIssue(),
    alter: (e) => respond(e, 200, { access_token: 'opaque', token_type: 'Bearer', expires_in: 86400, scope: '' }),
  },
  {
    clause: 'token.endpoint.audience',
    fault: 'a token for an audience off by its letter case',
    source: 'suite',
    pick: (r) => token(r, 403) && requestBody(r).includes('audience=HTTPS'),
    alter: (e) => respond(e, 200, { access_token: 'opaque', token_type: 'Bearer', expires_in: 86400, scope: '' }),
  },
  {
    clause: 'token.observed.errors',
    fault: 'a token error of another shape',
    source: 'suite',
    pick: (r) => token(r, 401),
    alter: (e) => respond(e, 401, { message: 'no' }),
  },
  {
    clause: 'token.observed.json-request',
    fault: 'a JSON token request refused as such',
    source: 'suite',
    pick: (r) => token(r, 200) && requestBody(r).startsWith('{'),
    alter: (e) => {
      delete e.tokens;
      respond(e, 415, { error: 'invalid_request', error_description: 'unsupported content type' });
    },
  },
  {
    clause: 'token.observed.jwks',
    fault: 'a JWKS without the issued tokens key',
    source: 'suite',
    pick: (r) => endpoint(r).kind === 'jwks',
    alter: (e) => respond(e, 200, { keys: [{ kid: 'another-key', kty: 'RSA' }] }),
  },
];
