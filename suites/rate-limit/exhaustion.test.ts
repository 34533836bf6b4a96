// Spec section 7: redelivery answers 429 to too many requests, and section 8: a 429 carries the
// three X-RateLimit headers. Observed: Remaining falls to exactly 0 as the limit is spent, and the
// 429 body. All read one exhaustion of the rate limit per run: against a tenant, only with
// --allow-rate-limit-exhaustion. Those that look at the bucket some time after the exhaustion spend
// it again first, to a 429 of their own, so what they see does not hang on how long other tests took.
import { decodeJwt } from 'jose';
import {
  conformance,
  exhaustion,
  expectClause,
  expectNoProblems,
  expectObservedError,
  expectObservedErrorBody,
  role,
  shown,
  shownHeader,
  type Exchange,
  type Need,
  type Credential,
  type PlanContext,
  type RoleName,
  type TargetSession,
  type TestPlan,
} from '../../harness/index.ts';
import type { RequestTemplate } from '../../specs/cards/card.ts';
import { cards } from '../../specs/cards/index.ts';
import { observed, operation } from '../../specs/index.ts';
import { hostCaseSpellings, validTemplate, withCharacterEscapedAt } from '../../specs/matrix/index.ts';
import { exhaustRateLimit } from '../../harness/suite/exhaust.ts';
import { extendedOnly } from '../../harness/suite/matrix.ts';
import { exampleOf, keyClientTokenOf, sharedRequest } from '../../harness/suite/requests.ts';
import { eventId, selfServiceProfileId, streamId, vaultConnectionId } from '../../generators/index.ts';
import {
  answerSecondsOf,
  rateLimitConsistencyProblems,
  rateLimitHeader,
  rateLimitHeaderNames,
  rateLimitOf,
  rateLimitProblems,
  resetProblems,
} from '../../harness/suite/rate-limit.ts';

const names = observed.rate_limit.headers;
/** The refill assumed where the target file states none, requests a second (the embedded mock's). */
const DEFAULT_REFILL = 10;
/** After Reset, time for the request to reach the target. */
const RESET_MARGIN_MS = 20;
/** The longest this test waits for a Reset: a bucket refills a token within a second or two. */
const MOST_WAIT_MS = 3000;
/** Refused requests of the burst: more than two seconds of refill. */
const burstOf = (refillPerSecond: number) => Math.ceil(refillPerSecond * 2) + 5;
const refillOf = (target: { rateLimit?: { refillPerSecond?: number } }) => target.rateLimit?.refillPerSecond ?? DEFAULT_REFILL;

const plan = { operation: 'redeliver' as const, needs: [exhaustion], requests: 0 };

/** The refill rate stated in the target file or measured; the test cannot run on an assumed one (it may be slower than the target's own). */
function knownRefill(target: TargetSession): number {
  const estimate = target.runtime.pacer.estimate();
  target.needs(
    estimate.refillSource === 'declared' || estimate.refillSource === 'measured',
    "the refill rate is neither stated in the target file nor measured: the rate assumed may be slower than the target's own",
    'not-applicable',
  );
  return estimate.refillPerSecond;
}

/** Requests sent at most to meet the 429 again: the bucket the target file states, else the default refill's worth. */
const bucketBound = (target: { rateLimit?: { limit?: number } }) => target.rateLimit?.limit ?? DEFAULT_REFILL;
/** Requests a test spends for a 429 of its own right before it looks: a bucket's worth, and more for what refills meanwhile. */
const OWN_LIMIT_MARGIN = 5;
const ownLimitBound = (target: { rateLimit?: { limit?: number } }) => bucketBound(target) + OWN_LIMIT_MARGIN;

/**
 * A 429 of the test's own: the exhaustion's request sent again, one at a time, until it is answered
 * 429 or `most` were sent (the bucket refills from the exhaustion's 429 while other tests run).
 * Every answer, in order; the last is the 429 if one came.
 */
async function spendTheBucket(send: () => Promise<Exchange>, most: number): Promise<Exchange[]> {
  const answers: Exchange[] = [];
  while (answers.length < most && answers.at(-1)?.status !== 429) answers.push(await send());
  return answers;
}

/**
 * The start of a test that spends the bucket itself after the exhaustion: the exhaustion's 429, the
 * refill stated or measured, and a sender of the exhaustion's request (unpaced, a 429 not retried).
 */
async function afterTheExhaustion(target: TargetSession): Promise<{ rate: number; send: () => Promise<Exchange> }> {
  const { last, why } = await exhaustRateLimit(target);
  target.needs(last.status === 429, `${why}, so the limit was never spent (see redeliver.errors.429)`);
  const rate = knownRefill(target);
  const params = { id: exampleOf(target, streamId()), event_id: exampleOf(target, eventId()) };
  return { rate, send: () => target.call('redeliver', { params, retryRateLimited: false, pace: false }) };
}

/**
 * A 429 of the test's own, whatever other tests left of the bucket: a bucket's worth of `send` and
 * five more, at once (so the test sends what it plans, a 429 or not). The answers, and those of them
 * that are 429.
 */
async function spendAtOnce(target: TargetSession, send: () => Promise<Exchange>): Promise<{ spent: Exchange[]; limited: Exchange[] }> {
  const bound = ownLimitBound(target.target);
  const spent = await Promise.all(Array.from({ length: bound }, () => send()));
  const limited = spent.filter((exchange) => exchange.status === 429);
  target.needs(
    limited.length > 0,
    `none of ${bound} requests sent at once after the exhaustion was answered 429: the bucket refilled faster than the test spent it`,
  );
  return { spent, limited };
}

conformance('[§7 redeliver.errors.429] redelivery answers 429 once the rate limit is spent', plan, async ({ target }) => {
  const { last, why } = await exhaustRateLimit(target);
  expectClause({
    pass: last.status === 429,
    expected: 'a 429 once the rate limit is spent',
    actual: why,
    exchange: last,
    headers: rateLimitHeaderNames,
  });
});

// The limit binds every caller (spec 7), whichever client it is: right after the 429, the
// exhaustion's request sent at once twice with each other client's token (every role but the
// global one, and the key client where the target file names one and its token holds the
// operation's scope) is served only as far as the bucket refilled meanwhile, and one more. A
// limiter with a table of exempt clients (a deploy pipeline's) serves that client's two. A client
// refused for its credential (401 or 403: not global, short of the scope) shows nothing of the
// limit, which may come after those checks, and is not counted.
const EACH_CLIENT = 2;
/** The scopes a token's claim names; none where it is no JWT. */
function scopesOf(token: string | undefined): string[] {
  try {
    const scope = token === undefined ? undefined : decodeJwt(token).scope;
    return typeof scope === 'string' ? scope.split(' ') : [];
  } catch {
    return [];
  }
}
const otherRoles = (context: { target: PlanContext['target'] }) =>
  (Object.keys(context.target.roles) as RoleName[]).filter((name) => name !== 'global');
const otherClients = (context: PlanContext) => otherRoles(context).length + (context.target.tokenAlternatives.keyClient ? 1 : 0);
conformance(
  "[§7 redeliver.errors.429] right after the 429, every other client's requests are limited too (each role's, the key client's)",
  {
    ...plan,
    needs: (context) => [exhaustion, ...otherRoles(context).map((name) => role(name))],
    requests: (context) => EACH_CLIENT * otherClients(context),
    shared: (context) => (context.target.tokenAlternatives.keyClient ? [sharedRequest.keyClientToken] : []),
  },
  async ({ target }) => {
    const { last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so the limit was never spent (see redeliver.errors.429)`);
    const credentials: Array<{ who: string; as: Credential }> = otherRoles(target).map((name) => ({
      who: `role ${name}`,
      as: { role: name },
    }));
    if (target.target.tokenAlternatives.keyClient) {
      const { token } = await keyClientTokenOf(target);
      const scopes = scopesOf(token);
      if (token && operation('redeliver').contractScopes.every((scope) => scopes.includes(scope)))
        credentials.push({ who: 'the key client', as: { token } });
    }
    const params = { id: exampleOf(target, streamId()), event_id: exampleOf(target, eventId()) };
    const burst = await Promise.all(
      credentials.flatMap(({ who, as }) =>
        Array.from({ length: EACH_CLIENT }, async () => ({
          who,
          exchange: await target.call('redeliver', { params, as, retryRateLimited: false, pace: false }),
        })),
      ),
    );
    // A client refused for its credential shows nothing of the limit: where every one is, no request
    // of the burst could have been served, and the test says so instead of passing.
    const judged = burst.filter(({ exchange }) => ![401, 403].includes(exchange.status));
    target.needs(
      judged.length > 0,
      `every other client was refused for its credential (${burst.map(({ who, exchange }) => `${who} ${exchange.status}`).join(', ')}): none shows the limit`,
      'not-applicable',
    );
    const served = judged.filter(({ exchange }) => exchange.status !== 429);
    const end = Math.max(...burst.map(({ exchange }) => exchange.at));
    const refilled = Math.floor(target.runtime.pacer.estimate().refillPerSecond * ((end - last.at) / 1000)) + 1;
    expectClause({
      pass: served.length <= refilled,
      expected: `at most ${refilled} of ${burst.length} requests served (what the bucket refilled since the 429), whichever client sent them`,
      actual: `${served.length} served: ${burst.map(({ who, exchange }) => `${who} ${exchange.status}`).join(', ')}`,
      exchange: served[0]?.exchange ?? burst.at(-1)!.exchange,
      headers: rateLimitHeaderNames,
    });
  },
);

// The limit is the tenant's, not a credential's (observed: one token bucket per tenant): right after
// the 429, another client's request finds the bucket spent too. Its Remaining may only have grown by
// what refilled meanwhile; a bucket of its own would say nearly the whole Limit.
const otherClient = cards.redeliver.roleWithoutScope;
conformance(
  "[§8 rate-limit.remaining.falls] right after the 429, another client's request finds the tenant's bucket spent too",
  { ...plan, needs: [exhaustion, role(otherClient)], requests: 1 },
  async ({ target }) => {
    const { last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so the limit was never spent (see redeliver.errors.429)`);
    // The exhaustion's own request (an unknown event of an unknown stream), with another client's token.
    const params = { id: exampleOf(target, streamId()), event_id: exampleOf(target, eventId()) };
    const after = await target.call('redeliver', {
      params,
      as: { role: otherClient },
      retryRateLimited: false,
      pace: false,
    });
    const limit = rateLimitOf(last).limit ?? rateLimitOf(after).limit;
    const remaining = rateLimitOf(after).remaining;
    target.needs(
      limit !== undefined && remaining !== undefined,
      `no ${names.limit} and ${names.remaining} to compare (see rate-limit.429.headers)`,
    );
    const refilled = Math.ceil(target.runtime.pacer.estimate().refillPerSecond * ((after.at - last.at) / 1000));
    const most = Math.floor(limit! / 2) + refilled;
    expectClause({
      pass: after.status === 429 || remaining! <= most,
      expected: `a 429, or ${names.remaining} at most ${most} (half the Limit ${limit}, and ${refilled} refilled since the 429)`,
      actual: `${after.status}, ${names.remaining} ${remaining}`,
      exchange: after,
      headers: rateLimitHeaderNames,
    });
  },
);

// The limit binds every caller (spec 7): a request that claims, in headers the client sets itself,
// to come from the service's own network is a request like any other. Right after the 429, a short
// burst of the exhaustion's request carrying such claims (a loopback or private address in each
// header a proxy writes) may be served only as far as the bucket refilled meanwhile; a limiter that
// exempts "internal" callers by a client-set header serves the whole burst.
const SPOOFED_BURST = 5;
const internalCaller = {
  'x-forwarded-for': '127.0.0.1',
  forwarded: 'for=127.0.0.1',
  'x-real-ip': '10.0.0.1',
  'x-client-ip': '127.0.0.1',
  'true-client-ip': '127.0.0.1',
};
conformance(
  '[§7 redeliver.errors.429] right after the 429, requests whose headers claim a loopback or private address are limited too',
  { ...plan, requests: SPOOFED_BURST },
  async ({ target }) => {
    const { last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so the limit was never spent (see redeliver.errors.429)`);
    const params = { id: exampleOf(target, streamId()), event_id: exampleOf(target, eventId()) };
    const burst = [];
    for (let i = 0; i < SPOOFED_BURST; i += 1) {
      burst.push(await target.call('redeliver', { params, headers: internalCaller, retryRateLimited: false, pace: false }));
    }
    const served = burst.filter((exchange) => exchange.status !== 429).length;
    // At most what refilled between the 429 and the burst's last answer, plus one for a token
    // that was about to land.
    const refilled = Math.floor(target.runtime.pacer.estimate().refillPerSecond * ((burst.at(-1)!.at - last.at) / 1000)) + 1;
    expectClause({
      pass: served <= refilled,
      expected: `at most ${refilled} of ${SPOOFED_BURST} requests served (what the bucket refilled since the 429), whatever X-Forwarded-For, Forwarded and X-Real-IP claim`,
      actual: `${served} served: ${burst.map((exchange) => exchange.status).join(', ')}`,
      exchange: burst.find((exchange) => exchange.status !== 429) ?? burst.at(-1)!,
      headers: rateLimitHeaderNames,
    });
  },
);

// The limit is the tenant's whatever its host name is written like, and the caller's whatever URL it
// asks with. A host name is case-insensitive (RFC 3986 3.2.2), so requests whose Host header names
// the tenant's host in other letter case (hostCaseSpellings: in capitals, each label capitalised)
// name the same tenant and its bucket; and a query string the operation does not define names the
// same operation and caller. The test spends the bucket itself right before it looks: a bucket's
// worth of the exhaustion's request and five more at once (so it sends what it plans, a 429 or
// not), then at once a burst of it, half with the Host in each other spelling and half each with a
// query string never sent before, of which at most what refilled since the last 429's request was
// sent, and one, may be served. A limiter that keys tenants' buckets by the Host as sent gives each
// spelling a fresh bucket (or finds none and lets it through); one that keys its buckets by the URL
// as sent (a cache-key habit: req.originalUrl) gives each new query string one. The burst carries
// a token the client was issued after the 429: the limit is the tenant's, not a token's, so a
// limiter that starts a fresh bucket when a token is issued (a login limiter's "new session, new
// quota") serves the whole burst. Each request carries an Idempotency-Key never sent before: a
// retry is one request, but a request that merely carries the header is not a retry, and a
// middleware that lets such requests past the limiter serves the whole burst too. Each also says,
// in headers a client may send, that it was sent an hour from now (X-Request-Start, the router's
// queue-time stamp, and Date): a bucket refilled by a clock the request supplies serves the burst
// from an hour of refill. Every third request names the event with a letter of its id
// percent-encoded ("%77" for "w"): the same id to a server that decodes its path (RFC 3986 2.3,
// 6.2.2.2), though a limiter attached to routes matched on the raw path lets it past. A target
// addressed by a loopback address is named "localhost";
// another address has no letters to change, and then the whole burst carries query strings.
// Served: not 429, and answered as the same request was before the limit was spent (a target that
// refuses a query it does not define is not served). It runs right after the test above, whose
// burst left the bucket spent.
const URL_BURST = 8;
const AN_HOUR_MS = 3_600_000;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\])$/;
/** The id with its first letter past its prefix percent-encoded ("%77" for "w"), or undefined for an id without one. */
function withLetterEncoded(id: string): string | undefined {
  const from = id.indexOf('_') + 1;
  const at = id.slice(from).search(/[A-Za-z]/);
  if (at < 0) return undefined;
  return withCharacterEscapedAt(id, from + at);
}
/** The Host header's spellings in other letter case, with the port as the base URL has it. */
function hostSpellings(baseUrl: string): string[] {
  const url = new URL(baseUrl);
  const name = LOOPBACK.test(url.hostname) ? 'localhost' : url.hostname;
  const port = url.port === '' ? '' : `:${url.port}`;
  return [...new Set(hostCaseSpellings.map(({ spell }) => `${spell(name)}${port}`))].filter(
    (host) => host !== url.host && /[A-Z]/.test(host),
  );
}
conformance(
  "[§7 redeliver.errors.429] right after a 429 of its own, requests with a token issued since, naming the tenant's host in other letter case or each with a query string not sent before, each with a new Idempotency-Key, are limited too",
  { ...plan, requests: (context) => ownLimitBound(context.target) + 1 + URL_BURST },
  async ({ target }) => {
    const { exchanges, last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so the limit was never spent (see redeliver.errors.429)`);
    const hosts = hostSpellings(target.target.baseUrl);
    const params = { id: exampleOf(target, streamId()), event_id: exampleOf(target, eventId()) };
    const encoded = withLetterEncoded(params.event_id);
    const send = (
      change: { host?: string; query?: string; encoded?: string; token?: string; idempotencyKey?: string; sentAt?: number } = {},
    ) =>
      target.call('redeliver', {
        params,
        ...(change.encoded === undefined ? {} : { encodedParams: { event_id: change.encoded } }),
        ...(change.token === undefined ? {} : { as: { token: change.token } }),
        headers: {
          ...(change.host === undefined ? {} : { host: change.host }),
          ...(change.idempotencyKey === undefined ? {} : { 'idempotency-key': change.idempotencyKey }),
          ...(change.sentAt === undefined ? {} : { 'x-request-start': `t=${change.sentAt}`, date: new Date(change.sentAt).toUTCString() }),
        },
        ...(change.query === undefined ? {} : { query: change.query }),
        retryRateLimited: false,
        pace: false,
      });
    const { spent, limited } = await spendAtOnce(target, () => send());
    // A token issued since the 429; where none comes, the burst goes with the run's token (the Host and query halves still say something).
    const { token } = await target.tokenRequest('global');
    const changes = Array.from(
      { length: URL_BURST },
      (_, i): { token?: string; host?: string; query?: string; encoded?: string; idempotencyKey?: string; sentAt: number } => ({
        ...(token === undefined ? {} : { token }),
        idempotencyKey: `conformance-suite-${last.at.toString(36)}-${i}`,
        sentAt: Date.now() + AN_HOUR_MS,
        ...(encoded !== undefined && i % 3 === 2
          ? { encoded }
          : hosts.length > 0 && i % 2 === 0
            ? { host: hosts[(i / 2) % hosts.length]! }
            : { query: `page=${i}&_=${last.at.toString(36)}.${i}` }),
      }),
    );
    const burst = await Promise.all(changes.map((change) => send(change)));
    // How the request is answered when the limit lets it through (a 404 of the unknown event), as seen before a 429.
    const before = new Set([...exchanges, ...spent].filter((exchange) => exchange.status !== 429).map((exchange) => exchange.status));
    const served = burst.filter((exchange) => exchange.status !== 429 && (before.size === 0 || before.has(exchange.status)));
    // The bucket held less than a token when the target took the last 429's request, sent no earlier than this.
    const from = Math.max(...limited.map((exchange) => exchange.at - exchange.ms));
    const ms = Math.max(...burst.map((exchange) => exchange.at)) - from;
    const refilled = Math.floor((target.runtime.pacer.estimate().refillPerSecond * ms) / 1000) + 1;
    const sent = changes.map(
      (change, i) =>
        `${change.encoded !== undefined ? `event id ${change.encoded}` : change.host === undefined ? `?${change.query}` : `Host ${change.host}`}: ${burst[i]!.status}`,
    );
    expectClause({
      pass: served.length <= refilled,
      expected: `at most ${refilled} of ${URL_BURST} requests sent at once, each with a new Idempotency-Key and X-Request-Start and Date an hour ahead, with ${token === undefined ? "the run's token (the token endpoint issued none after the 429)" : 'a token issued since the 429'} (${hosts.length > 0 ? `Host ${hosts.join(', ')}, ` : ''}each with a query string not sent before${encoded === undefined ? '' : `, or the event id written ${encoded}`}) served (what the bucket refilled in the ${ms} ms since the last 429's request was sent, and one)`,
      actual: `${served.length} answered ${[...before].join(' or ') || 'other than 429'} as before the limit was spent: ${sent.join('; ')}`,
      exchange: served[0] ?? burst.at(-1)!,
      headers: rateLimitHeaderNames,
    });
  },
);

// The limit binds redelivery whatever else the caller asks between its requests: right after a 429
// of its own (a bucket's worth of the exhaustion's request and five more, sent at once, as the Host
// test above), redeliveries alternated one at a time with vault reads of an unknown connection are
// served no more than the bucket refilled since the last 429's request was sent, and one. Only the
// redeliveries are counted: the observed reference has one bucket per tenant, but a reading with a
// bucket per operation would serve the vault reads from their own, and still refuse the
// redeliveries. A limiter that keeps its buckets where a request to another operation drops or
// rebuilds them (a cache of one entry, a memo of the last operation) serves every redelivery after
// a vault read from a full bucket. The refill must be stated in the target file or measured (the
// rate assumed may be slower than the target's own). It runs right after the Host test and leaves
// the bucket spent, as that test did, for the next.
const INTERLEAVED_PAIRS = 5;
conformance(
  '[§7 redeliver.errors.429] right after a 429 of its own, redeliveries alternated with vault reads are limited too',
  { ...plan, requests: (context) => ownLimitBound(context.target) + 2 * INTERLEAVED_PAIRS },
  async ({ target }) => {
    const { rate, send: redeliver } = await afterTheExhaustion(target);
    const read = () =>
      target.call('vault', { params: { id: exampleOf(target, vaultConnectionId()) }, retryRateLimited: false, pace: false });
    const { limited } = await spendAtOnce(target, redeliver);
    const answers: Array<{ operation: 'vault' | 'redeliver'; exchange: Exchange }> = [];
    for (let i = 0; i < INTERLEAVED_PAIRS; i += 1) {
      answers.push({ operation: 'vault', exchange: await read() });
      answers.push({ operation: 'redeliver', exchange: await redeliver() });
    }
    const redeliveries = answers.filter((answer) => answer.operation === 'redeliver').map((answer) => answer.exchange);
    const served = redeliveries.filter((exchange) => exchange.status !== 429);
    // The bucket held less than a token when the target took the last 429's request, sent no earlier than this.
    const from = Math.max(...limited.map((exchange) => exchange.at - exchange.ms));
    const ms = redeliveries.at(-1)!.at - from;
    const refilled = Math.floor((rate * ms) / 1000) + 1;
    // Where the refill allows every redelivery, serving them all is no sign of a bucket rebuilt: no verdict.
    target.needs(
      refilled < INTERLEAVED_PAIRS,
      `the bucket refilled ${refilled} tokens at ${rate}/s in the ${ms} ms of the test, enough for all ${INTERLEAVED_PAIRS} redeliveries: served or not, they say nothing of the bucket`,
      'not-applicable',
    );
    expectClause({
      pass: served.length <= refilled,
      expected: `at most ${refilled} of ${INTERLEAVED_PAIRS} redeliveries, each sent after a vault read, served (what the bucket refilled at ${rate}/s in the ${ms} ms since the last 429's request was sent, and one)`,
      actual: `${served.length} served; in order, vault read then redelivery: ${answers.map(({ exchange }) => exchange.status).join(', ')}`,
      exchange: served[0] ?? redeliveries.at(-1)!,
      headers: rateLimitHeaderNames,
    });
  },
);

/**
 * A 429 of the test's own: a bucket's worth of `send` and five more at once (spendAtOnce), always,
 * so that the test sends what `--list` said it would. When the bucket held less than a token: the
 * latest time a 429's request was sent.
 */
async function spentSince(target: TargetSession, send: () => Promise<Exchange>): Promise<number> {
  const { limited } = await spendAtOnce(target, send);
  return Math.max(...limited.map((exchange) => exchange.at - exchange.ms));
}

// The limit is the tenant's, whichever operation spends it (observed: the 429 says "Global limit has
// been reached", and the published limits are the management API's, per subscription): right after
// a 429 of its own to redeliveries, a vault read of an unknown connection and a ticket request with
// a body that is not an object (to an unknown profile: nothing is created) each find the bucket
// spent too: 429, or a Remaining no larger than what refilled since the 429's request was sent, and
// one. A limiter with a bucket per operation (or per route file, or reads apart from writes) answers
// them from a full bucket of their own, Remaining nearly the whole Limit. The refill must be stated
// in the target file or measured.
conformance(
  "[§8 rate-limit.remaining.falls] right after a 429 of its own to redeliveries, a request to each other operation finds the tenant's bucket spent too",
  { ...plan, requests: (context) => ownLimitBound(context.target) + 2 },
  async ({ target }) => {
    const { rate, send } = await afterTheExhaustion(target);
    const from = await spentSince(target, send);
    const others = [
      await target.call('vault', { params: { id: exampleOf(target, vaultConnectionId()) }, retryRateLimited: false, pace: false }),
      await target.call('sso-ticket', {
        params: { id: exampleOf(target, selfServiceProfileId()) },
        body: [],
        retryRateLimited: false,
        pace: false,
      }),
    ];
    const problems = others.flatMap((exchange) => {
      if (exchange.status === 429) return [];
      const { remaining } = rateLimitOf(exchange);
      const refilled = Math.floor((rate * (exchange.at - from)) / 1000) + 1;
      if (remaining === undefined)
        return [`${exchange.request.label} answered ${exchange.status} without a whole-number ${names.remaining}`];
      return remaining <= refilled
        ? []
        : [
            `${exchange.request.label} answered ${exchange.status} with ${names.remaining} ${remaining}, more than the ${refilled} refilled at ${rate}/s in the ${exchange.at - from} ms since the 429's request was sent, and one`,
          ];
    });
    expectNoProblems(
      problems,
      `each other operation answered 429, or with ${names.remaining} no more than the bucket refilled since the 429`,
      {
        exchange: others.find((exchange) => exchange.status !== 429) ?? others[0]!,
        headers: rateLimitHeaderNames,
      },
    );
  },
);

// A 429 is a request the bucket had no whole token for, so its Remaining is 0 (observed, the clause's
// "0 on a 429"), whatever fraction of a token has refilled: right after a 429 of its own, requests
// sent one at a time, paced four to a refill interval over two intervals, meet the bucket holding a
// quarter, half and three quarters of a token; each of them answered 429 must say Remaining 0. A
// Remaining rounded to the nearest request (where whole requests left are due) says 1 on the 429s
// that meet half a token or more, which a burst that meets the 429 with almost nothing refilled
// seldom shows. The refill must be stated in the target file or measured. Extended: it spends the
// bucket and waits two refill intervals.
const QUARTER_PACED = 8;
conformance(
  '[§8 rate-limit.headers.consistent] right after a 429 of its own, every 429 of requests paced four to a refill interval says X-RateLimit-Remaining 0',
  {
    ...plan,
    needs: [
      exhaustion,
      extendedOnly('it spends the bucket and waits two refill intervals', 'the 429 of the exhaustion is checked for Remaining 0'),
    ],
    requests: (context) => ownLimitBound(context.target) + QUARTER_PACED,
  },
  async ({ target }) => {
    const { rate, send } = await afterTheExhaustion(target);
    const from = await spentSince(target, send);
    const paced: Exchange[] = [];
    for (let i = 1; i <= QUARTER_PACED; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, from + (i * 1000) / (rate * 4) - Date.now())));
      paced.push(await send());
    }
    const limited = paced.filter((exchange) => exchange.status === 429);
    target.needs(
      limited.length > 0,
      `none of the ${QUARTER_PACED} paced requests was answered 429: the bucket refilled faster than ${rate}/s`,
    );
    const problems = limited.flatMap((exchange) => {
      const { remaining } = rateLimitOf(exchange);
      return remaining === 0
        ? []
        : [
            `a 429 ${exchange.at - from} ms after the last 429's request: ${names.remaining} ${shown(exchange.headers[rateLimitHeader.remaining])}`,
          ];
    });
    expectNoProblems(
      problems,
      `${names.remaining} 0 on each of the ${limited.length} 429s (in order: ${paced.map((e) => e.status).join(', ')})`,
      {
        exchange: limited.find((exchange) => rateLimitOf(exchange).remaining !== 0) ?? limited[0]!,
        headers: rateLimitHeaderNames,
      },
    );
  },
);

// Remaining counts the requests left, so the bucket serves no more than it said were left and what
// refilled since (a test of the exhaustion below checks the other way: no fewer). The test spends
// the bucket itself right before it looks: the exhaustion's request again until a 429 of its own,
// then a wait while the bucket refills a few tokens, one request whose Remaining says how many are
// left, and at once a burst a few larger. At most that Remaining, the refill since that request was
// sent, and one, may be served. A Remaining that counts something else (a percentage of the Limit,
// a count less a reserve) says less than the bucket serves. Other clients of a tenant only take
// tokens, so this holds against a tenant too; the refill must be stated in the target file or
// measured (the rate assumed may be too slow). Extended: it spends a bucket and waits for a refill.
// It runs right after the test of alternated operations, which left the bucket spent; its own burst leaves it
// spent for the paced test.
/** Tokens the test lets the bucket refill before it looks, where the bucket holds as many and the wait is short enough. */
const REFILL_AWAITED = 10;
/** The fewest tokens worth waiting for: fewer tell a Remaining that counts something else too seldom. */
const FEWEST_AWAITED = 3;
/** Requests of the burst past the tokens awaited, for what refills while it is sent. */
const BURST_MARGIN = 5;
const awaitedOf = (target: { rateLimit?: { limit?: number } }) => Math.min(REFILL_AWAITED, target.rateLimit?.limit ?? REFILL_AWAITED);
/**
 * From a 429 of its own (a bucket's worth of refused redeliveries and more), waits for the bucket
 * to refill some tokens, then sends one request and a burst at once: those redeliveries, or
 * `other`'s requests, whose first must be answered its `success` status (else the burst would not
 * be of requests that succeed): served no more than Remaining said were left and the bucket
 * refilled since, and one.
 */
async function burstAfterRefill(
  target: TargetSession,
  other?: { send: () => Promise<Exchange>; what: string; success: number },
): Promise<void> {
  const { last, why } = await exhaustRateLimit(target);
  target.needs(last.status === 429, `${why}, so there is no 429 to start from (see redeliver.errors.429)`);
  const rate = knownRefill(target);
  const awaited = Math.min(awaitedOf(target.target), Math.floor((rate * MOST_WAIT_MS) / 1000));
  target.needs(
    awaited >= FEWEST_AWAITED,
    `the bucket refills ${rate} requests a second: fewer than ${FEWEST_AWAITED} within the ${MOST_WAIT_MS / 1000} s this test waits`,
    'not-applicable',
  );
  const params = { id: exampleOf(target, streamId()), event_id: exampleOf(target, eventId()) };
  const send = () => target.call('redeliver', { params, retryRateLimited: false, pace: false });
  const bound = ownLimitBound(target.target);
  const start = (await spendTheBucket(send, bound)).at(-1)!;
  target.needs(
    start.status === 429,
    `no 429 within ${bound} requests after the exhaustion (${start.status}): the bucket refilled faster than the test spent it`,
  );
  // From the 429's answer, the bucket refills the tokens awaited (it held less than one then).
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, start.at + (awaited * 1000) / rate - Date.now())));
  const burst = other?.send ?? send;
  const first = await burst();
  const said = rateLimitOf(first).remaining;
  target.needs(first.status !== 429, `the request ${first.at - start.at} ms after the 429 was answered 429 too: nothing refilled`);
  if (other)
    target.needs(
      first.status === other.success,
      `the first of the ${other.what} was answered ${first.status}, not ${other.success}: the burst would not be of requests that succeed`,
    );
  target.needs(said !== undefined, `no whole-number ${names.remaining} on the answer (see rate-limit.headers.consistent)`);
  const burstAnswers = await Promise.all(Array.from({ length: awaited + BURST_MARGIN }, () => burst()));
  const served = burstAnswers.filter((exchange) => exchange.status !== 429).length;
  const ms = Math.max(...burstAnswers.map((exchange) => exchange.at)) - (first.at - first.ms);
  const refilled = Math.floor((rate * ms) / 1000);
  expectClause({
    pass: served <= said! + refilled + 1,
    expected: `at most ${said! + refilled + 1} of the ${burstAnswers.length} ${other?.what ?? 'redeliveries'} sent at once after ${names.remaining} ${said} served (${said} left, ${refilled} refilled at ${rate}/s in the ${ms} ms since that answer's request was sent, and one)`,
    actual: `${served} served, ${burstAnswers.length - served} answered 429; statuses: ${[...new Set(burstAnswers.map((e) => e.status))].join(', ')}`,
    exchange: first,
    headers: rateLimitHeaderNames,
  });
}

const burstPlan: TestPlan = {
  ...plan,
  needs: [exhaustion, extendedOnly('it spends a bucket and waits for a refill', 'a test of the exhaustion checks its lower bound')],
  // A bucket's worth and a margin to find the 429 again, the request that says Remaining, the burst.
  requests: (context) => ownLimitBound(context.target) + 1 + awaitedOf(context.target) + BURST_MARGIN,
};

conformance(
  '[§8 rate-limit.headers.consistent] after a 429 of its own and a refill, a burst serves no more requests than X-RateLimit-Remaining said were left and the bucket refilled since',
  burstPlan,
  async ({ target }) => burstAfterRefill(target),
);

// The same burst judged by the refill alone, at contract level (redelivery answers 429 to too many
// requests): from a 429 of its own (the bucket held less than a token when the target took it), a
// wait for a few tokens and a burst at once of a few more: at most what refilled since the 429's
// request was sent, and one, may be served, whatever the headers say. A limiter that counts
// requests arriving at the same instant once (a log keyed by the millisecond) serves the whole burst.
conformance(
  '[§7 redeliver.errors.429] after a 429 of its own and a wait for a few tokens, a burst at once is served no more than the bucket refilled since the 429',
  { ...burstPlan, requests: (context) => ownLimitBound(context.target) + awaitedOf(context.target) + BURST_MARGIN },
  async ({ target }) => {
    const { rate, send } = await afterTheExhaustion(target);
    const awaited = Math.min(awaitedOf(target.target), Math.floor((rate * MOST_WAIT_MS) / 1000));
    target.needs(
      awaited >= FEWEST_AWAITED,
      `the bucket refills ${rate} requests a second: fewer than ${FEWEST_AWAITED} within the ${MOST_WAIT_MS / 1000} s this test waits`,
      'not-applicable',
    );
    const start = (await spendTheBucket(send, ownLimitBound(target.target))).at(-1)!;
    target.needs(start.status === 429, `no 429 within a bucket's worth of requests after the exhaustion (${start.status})`);
    const from = start.at - start.ms;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start.at + (awaited * 1000) / rate - Date.now())));
    const burst = await Promise.all(Array.from({ length: awaited + BURST_MARGIN }, () => send()));
    const served = burst.filter((exchange) => exchange.status !== 429).length;
    const ms = Math.max(...burst.map((exchange) => exchange.at)) - from;
    const most = Math.floor((rate * ms) / 1000) + 1;
    expectClause({
      pass: served <= most,
      expected: `at most ${most} of the ${burst.length} redeliveries sent at once served (what refilled at ${rate}/s in the ${ms} ms since the 429's request was sent, and one)`,
      actual: `${served} served, ${burst.length - served} answered 429`,
      exchange: burst.find((exchange) => exchange.status !== 429) ?? burst.at(-1)!,
      headers: rateLimitHeaderNames,
    });
  },
);

// The same with requests that succeed (reads of an existing vault connection, 200): a served
// request costs its token as a refused one does. A limiter that gives a successful request's token
// back (express-rate-limit's skipSuccessfulRequests) serves the whole burst.
conformance(
  '[§8 rate-limit.headers.consistent] after a 429 of its own and a refill, a burst of successful vault reads serves no more requests than X-RateLimit-Remaining said were left and the bucket refilled since',
  burstPlan,
  async ({ target }) => {
    const id = target.target.fixtures.vaultConnections[0]!;
    await burstAfterRefill(target, {
      send: () => target.call('vault', { params: { id }, retryRateLimited: false, pace: false }),
      what: 'reads of an existing vault connection',
      success: cards.vault.success.status,
    });
  },
);

// Requests paced over several refill intervals right after a 429 are served no faster than the
// bucket refills: from a 429 (the bucket held less than a token when the target took it) to the
// last answer, at most the refill over that time and one. A bucket that refills faster than its
// rate (a timer that adds a second's tokens at each tick, one started twice) serves more; a short
// burst (the test above) ends before the difference shows. The rate must be declared in the target
// file or measured by the pacer: the slowest published tier assumed by default may be slower than
// the target's own. Extended: against test doubles, or with --matrix full.
const PACED_INTERVALS = 5;
const PACED_PER_INTERVAL = 4;
const PACED_REQUESTS = PACED_INTERVALS * PACED_PER_INTERVAL;
conformance(
  '[§7 redeliver.errors.429] right after a 429, requests paced over five refill intervals are served no more than the bucket refills meanwhile',
  {
    ...plan,
    needs: [exhaustion, extendedOnly('it spends five refill intervals of the rate limit', 'the 429 tests above check the clause here')],
    // A bucket's worth to find the 429 again, then the paced requests.
    requests: (context) => bucketBound(context.target) + PACED_REQUESTS,
  },
  async ({ target }) => {
    const { rate, send } = await afterTheExhaustion(target);
    // A 429 of its own to start from: the bucket refilled while other tests ran.
    const start = (await spendTheBucket(send, bucketBound(target.target))).at(-1)!;
    target.needs(start.status === 429, `no 429 within a bucket's worth of requests after the exhaustion (${start.status})`);
    // From when the 429's request was sent: the bucket held less than a token after that.
    const from = start.at - start.ms;
    const paced = [];
    for (let i = 1; i <= PACED_REQUESTS; i += 1) {
      const at = from + (i * 1000) / (rate * PACED_PER_INTERVAL);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
      paced.push(await send());
    }
    const served = paced.filter((exchange) => exchange.status !== 429).length;
    const refilled = Math.floor((rate * (paced.at(-1)!.at - from)) / 1000) + 1;
    expectClause({
      pass: served <= refilled,
      expected: `at most ${refilled} of ${PACED_REQUESTS} requests served (${rate}/s over the ${paced.at(-1)!.at - from} ms since the 429's request was sent, and one)`,
      actual: `${served} served: ${paced.map((exchange) => exchange.status).join(', ')}`,
      exchange: paced.find((exchange) => exchange.status !== 429) ?? paced.at(-1)!,
      headers: rateLimitHeaderNames,
    });
  },
);

conformance(
  '[§8 rate-limit.429.headers] a 429 carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
  plan,
  async ({ target }) => {
    const { last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so there is no 429 to check (see redeliver.errors.429)`);
    expectNoProblems(rateLimitProblems(last), `whole-number ${names.limit}, ${names.remaining} and ${names.reset}`, {
      exchange: last,
      headers: rateLimitHeaderNames,
    });
  },
);

/**
 * Right after the exhaustion's 429, sends each of the vault read's `templates` and checks that every
 * answer that is a 429 carries the three headers; `none` says why there is no 429 to read (and
 * under which skip category) where none was.
 */
async function each429CarriesTheHeaders(
  target: TargetSession,
  templates: (valid: RequestTemplate) => RequestTemplate[],
  none: (statuses: string) => { reason: string; category?: 'not-applicable' },
): Promise<void> {
  const { last, why } = await exhaustRateLimit(target);
  target.needs(last.status === 429, `${why}, so the limit was never spent (see redeliver.errors.429)`);
  const answers = [];
  for (const template of templates(validTemplate(cards.vault, target.context)))
    answers.push(await target.sendTemplate(template, { retryRateLimited: false, pace: false }));
  const limited = answers.filter((exchange) => exchange.status === 429);
  const { reason, category } = none(answers.map((exchange) => exchange.status).join(', '));
  if (category) target.needs(limited.length > 0, reason, category);
  else target.needs(limited.length > 0, reason);
  for (const exchange of limited) {
    expectNoProblems(rateLimitProblems(exchange), `whole-number ${names.limit}, ${names.remaining} and ${names.reset}`, {
      exchange,
      headers: rateLimitHeaderNames,
    });
  }
}

// Every 429 carries the headers (spec 8), that of a request no operation serves too: right after the
// exhaustion's 429, a path under the interface that names no operation, and an operation's path
// with a method it does not have, each answered 429 (the bucket still spent) carry all three.
const missing = ['an unknown path under the interface', "the vault read's path with a method it does not have"] as const;
conformance(
  '[§8 rate-limit.429.headers] a 429 to a request no operation serves (an unknown path, a method not allowed) carries the three X-RateLimit headers too',
  { ...plan, requests: missing.length },
  ({ target }) =>
    each429CarriesTheHeaders(
      target,
      (valid) => [
        { ...valid, path: [...valid.path.slice(0, 2), { literal: 'x-conformance-suite-unknown' }] },
        { ...valid, method: 'DELETE' },
      ],
      () => ({ reason: `neither ${missing.join(' nor ')} was answered 429 (the bucket refilled meanwhile)` }),
    ),
);

// Every 429 carries the headers (spec 8), whoever asked: right after the exhaustion's 429, the vault
// read without a token and with a token whose signature does not verify, each answered 429 (where
// the limit is checked before the credential), carry all three. A limiter kept apart for requests
// it cannot put to a client (a fallback copied from an older service, its headers off) answers them
// bare. Where the target refuses them 401 first, there is no 429 to read.
const uncredentialed = ['without a token', 'with a token whose signature does not verify'] as const;
conformance(
  '[§8 rate-limit.429.headers] a 429 to a request without a token, or with one that does not verify, carries the three X-RateLimit headers too',
  { ...plan, requests: uncredentialed.length },
  ({ target }) =>
    each429CarriesTheHeaders(
      target,
      (valid) => [
        { ...valid, credential: { kind: 'none' as const } },
        { ...valid, credential: { kind: 'role' as const, role: 'global', edit: { text: (token: string) => token.slice(0, -2) } } },
      ],
      (statuses) => ({
        reason: `neither request ${uncredentialed.join(' nor ')} was answered 429 (${statuses}): the credential is checked first, or the bucket refilled`,
        category: 'not-applicable',
      }),
    ),
);

// Reset is when requests are next added (observed), so a refused request takes no token: after a
// burst of requests refused for the limit (more than the bucket refills in two seconds), the same
// request made at the last 429's Reset is served. A bucket that a refusal also drains is still
// below empty then, and a client that waits out every Reset is refused while it retries. Only where
// the suite has the bucket to itself (a test double).
conformance(
  "[§8 rate-limit.headers.consistent] after a burst of refused requests, a request made at the last 429's X-RateLimit-Reset is served",
  { ...plan, requests: (context) => (context.target.testDouble ? burstOf(refillOf(context.target)) + 1 : 0) },
  async ({ target }) => {
    const { last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so the limit was never spent (see redeliver.errors.429)`);
    target.needs(target.target.testDouble, "other clients of a tenant take tokens between the suite's answers", 'not-applicable');
    const params = { id: exampleOf(target, streamId()), event_id: exampleOf(target, eventId()) };
    const send = () => target.call('redeliver', { params, retryRateLimited: false, pace: false });
    // Sent at once, so that what the bucket refills while the burst is answered does not depend on
    // how busy the machine is; the wait is to the latest Reset the burst's 429s name.
    const burst = await Promise.all(Array.from({ length: burstOf(refillOf(target.target)) }, () => send()));
    const refused = burst.filter((exchange) => exchange.status === 429);
    target.needs(
      refused.length > 0,
      `none of the burst's requests was answered 429 (${burst.map((exchange) => exchange.status).join(', ')}): the bucket refilled faster than the burst`,
    );
    const resets = refused.map((exchange) => rateLimitOf(exchange).reset);
    target.needs(
      resets.every((reset) => reset !== undefined),
      `no ${names.reset} on a 429 (see rate-limit.429.headers)`,
    );
    const reset = Math.max(...(resets as number[]));
    // A Reset far ahead is the Reset clauses' to judge; this test does not wait for it.
    const waitMs = Math.max(0, reset * 1000 - Date.now()) + RESET_MARGIN_MS;
    target.needs(
      waitMs <= MOST_WAIT_MS,
      `the 429's ${names.reset} is ${Math.round(waitMs / 1000)} s away, more than this test waits (see rate-limit.reset)`,
    );
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const after = await send();
    expectClause({
      pass: after.status !== 429,
      expected: `the request made at the latest ${names.reset} of the burst's 429s, ${reset}, served (not 429)`,
      actual: `${after.status} (${rateLimitOf(after).raw})`,
      exchange: after,
      headers: rateLimitHeaderNames,
    });
  },
);

/** How often a retrying client asks, as a fraction of the time the bucket takes to add one request. */
const RETRY_FRACTION = 0.25;
/** The most retries the test below sends: a second and a half of them at the embedded refill. */
const MOST_RETRIES = 60;

// Reset is when requests are next added (observed), and a token bucket adds them whether or not
// the client asked in between: a client that retries faster than the bucket refills (four times
// in a refill's time) is served by one refill after its first 429's Reset. A bucket that drops what
// it refilled at each refusal never fills for such a client. Only where the suite has the bucket to
// itself (a test double).
conformance(
  "[§8 rate-limit.headers.consistent] a client retrying faster than the bucket refills is served once its 429's X-RateLimit-Reset has passed",
  { ...plan, requests: (context) => (context.target.testDouble ? burstOf(refillOf(context.target)) + MOST_RETRIES : 0) },
  async ({ target }) => {
    const { last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so the limit was never spent (see redeliver.errors.429)`);
    target.needs(target.target.testDouble, "other clients of a tenant take tokens between the suite's answers", 'not-applicable');
    const refill = refillOf(target.target);
    const params = { id: exampleOf(target, streamId()), event_id: exampleOf(target, eventId()) };
    const send = () => target.call('redeliver', { params, retryRateLimited: false, pace: false });
    const burst = await Promise.all(Array.from({ length: burstOf(refill) }, () => send()));
    const first = burst.find((exchange) => exchange.status === 429);
    target.needs(first !== undefined, `none of the burst's requests was answered 429: the bucket refilled faster than the burst`);
    const reset = rateLimitOf(first!).reset;
    target.needs(reset !== undefined, `no ${names.reset} on a 429 (see rate-limit.429.headers)`);
    const deadline = Math.max(reset! * 1000, Date.now()) + 1000 / refill + RESET_MARGIN_MS;
    target.needs(
      deadline - Date.now() <= MOST_WAIT_MS,
      `the 429's ${names.reset} is ${Math.round((deadline - Date.now()) / 1000)} s away, more than this test retries for (see rate-limit.reset)`,
    );
    // Sent on a fixed cadence, each without waiting for the one before (an answer's time would
    // stretch the gaps), until one is served or the deadline passes.
    const every = (RETRY_FRACTION * 1000) / refill;
    const started = Date.now();
    const sent: Array<Promise<Exchange>> = [];
    let servedYet = false;
    for (let i = 1; i <= MOST_RETRIES && !servedYet && Date.now() <= deadline; i++) {
      const wait = started + i * every - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      sent.push(
        send().then((exchange) => {
          if (exchange.status !== 429) servedYet = true;
          return exchange;
        }),
      );
    }
    const retries = await Promise.all(sent);
    const served = retries.some((exchange) => exchange.status !== 429);
    expectClause({
      pass: served,
      expected: `a retry made every ${Math.round(every)} ms served by one refill after the first 429's ${names.reset} (${reset})`,
      actual: `${retries.length} retries, every one answered 429 (the last: ${rateLimitOf(retries.at(-1) ?? first!).raw})`,
      exchange: retries.at(-1) ?? first!,
      headers: rateLimitHeaderNames,
    });
  },
);

/** The longest a bucket may take to fill for the tests that wait on it (three fills: 30 s). */
const MOST_FILL_S = 10;
/** A bucket and its refill, where the target file states both and it fills within MOST_FILL_S. */
type SmallBucket = { why: string } | { bucket: number; rate: number };
function smallBucketOf(target: { rateLimit?: { limit?: number; startedBucket?: number; refillPerSecond?: number } }): SmallBucket {
  // The embedded mock's bucket is sized from the plan, so while planning it is 0 (cli/embedded.ts).
  if (target.rateLimit?.startedBucket === 0)
    return { why: "the embedded mock's bucket holds every request the run plans: at its refill it takes minutes to fill" };
  const bucket = target.rateLimit?.startedBucket ?? target.rateLimit?.limit;
  const rate = target.rateLimit?.refillPerSecond;
  if (!bucket || !rate) return { why: 'the target file states no bucket size (rate_limit limit or bucket_size) and refill' };
  if (bucket / rate > MOST_FILL_S)
    return {
      why: `the bucket of ${bucket} takes ${Math.round(bucket / rate)} s to fill at ${rate}/s, more than the ${MOST_FILL_S} s this test waits on`,
    };
  return { bucket, rate };
}
const smallBucket: Need = {
  check: (context) => {
    const sizing = smallBucketOf(context.target);
    return 'why' in sizing ? sizing.why : undefined;
  },
  category: 'not-applicable',
};
/** The requests a test on a small bucket plans: `of` the bucket, or none where it does not run. */
const onSmallBucket = (of: (bucket: number, rate: number, context: PlanContext) => number) => (context: PlanContext) => {
  const sizing = smallBucketOf(context.target);
  return 'why' in sizing ? 0 : of(sizing.bucket, sizing.rate, context);
};

// A bucket holds at most its size (observed: Limit is the bucket size), however long its client was
// idle: right after the exhaustion's 429 the test waits as long as the bucket takes to fill three
// times over, then sends at once twice the bucket (at least a bucket and two seconds of refill, and
// five more). At most the bucket, what refilled while the burst was answered, and one, may be
// served. A limiter whose refill is not capped at the bucket's size (a hand-written bucket without
// its Math.min) lets a client that idled send a burst of everything that refilled meanwhile. Other
// clients of a tenant only take tokens, so this holds against a tenant too. It runs where the target
// file states the bucket (a tier's `limit`, or a test double's `bucket_size`) and the refill, and the
// bucket fills within 10 s: a tenant of any published tier, and a small test double. The embedded
// mock's bucket holds the whole run's plan (minutes to fill): there it is not applicable.
const IDLE_FILLS = 3;
const idleBurstOf = (bucket: number, rate: number) => bucket + Math.max(bucket, burstOf(rate));
conformance(
  '[§7 redeliver.errors.429] after idling three times as long as the bucket takes to fill, a burst is served no more than the bucket and what refills meanwhile',
  { ...plan, needs: [exhaustion, smallBucket], requests: onSmallBucket(idleBurstOf) },
  async ({ target }) => {
    const sizing = smallBucketOf(target.target);
    if ('why' in sizing) return target.needs(false, sizing.why, 'not-applicable');
    const { bucket, rate } = sizing;
    const idleMs = Math.ceil((IDLE_FILLS * bucket * 1000) / rate);
    const burst = idleBurstOf(bucket, rate);
    const { send } = await afterTheExhaustion(target);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const from = Date.now();
    const answers = await Promise.all(Array.from({ length: burst }, () => send()));
    const served = answers.filter((exchange) => exchange.status !== 429);
    const ms = Math.max(...answers.map((exchange) => exchange.at)) - from;
    const most = bucket + Math.floor((rate * ms) / 1000) + 1;
    expectClause({
      pass: served.length <= most,
      expected: `at most ${most} of ${burst} requests sent at once after ${Math.round(idleMs / 1000)} s idle served (the bucket of ${bucket}, what refilled at ${rate}/s in the ${ms} ms the burst took, and one)`,
      actual: `${served.length} served, ${answers.length - served.length} answered 429`,
      exchange: served.at(-1) ?? answers.at(-1)!,
      headers: rateLimitHeaderNames,
    });
  },
);

// A bucket refills a token at a time (observed: a token bucket refilled every second), so the first
// request it serves again after a 429 leaves it nearly empty: right after a 429 of its own (a
// bucket's worth and five more at once), the test polls once a refill interval until a request is
// served, then sends a bucket's worth at once (and the polls it planned and did not need, so that
// it sends what --list says). Of that burst at most what refilled since the 429
// before the served poll was sent, and one, may be served. A fixed-window counter (a count per
// window of a bucket's length, reset at the window's end) serves nothing until the window ends and
// then a whole allowance at once, so nearly the whole burst. Where the bucket is small, as the test
// above (the polls last at most a fill and a second).
const pollsOf = (bucket: number, rate: number) => Math.ceil(rate * (bucket / rate + 1));
conformance(
  '[§7 redeliver.errors.429] after a 429 of its own, the first request served again is followed by no more than the refill: no whole allowance at once',
  {
    ...plan,
    needs: [exhaustion, smallBucket],
    requests: onSmallBucket((bucket, rate, context) => ownLimitBound(context.target) + pollsOf(bucket, rate) + bucket),
  },
  async ({ target }) => {
    const sizing = smallBucketOf(target.target);
    if ('why' in sizing) return target.needs(false, sizing.why, 'not-applicable');
    const { bucket, rate } = sizing;
    const { send } = await afterTheExhaustion(target);
    const { limited } = await spendAtOnce(target, send);
    // The latest send of a request answered 429: the bucket held less than a token when it was taken.
    let refusedAt = Math.max(...limited.map((exchange) => exchange.at - exchange.ms));
    const polls: Exchange[] = [];
    while (polls.length < pollsOf(bucket, rate) && (polls.length === 0 || polls.at(-1)!.status === 429)) {
      if (polls.length > 0) {
        refusedAt = Math.max(refusedAt, polls.at(-1)!.at - polls.at(-1)!.ms);
        await new Promise((resolve) => setTimeout(resolve, 1000 / rate));
      }
      polls.push(await send());
    }
    const first = polls.at(-1)!;
    target.needs(
      first.status !== 429,
      `none of ${polls.length} requests polled once a refill interval was served: the bucket did not refill at ${rate}/s (see the Reset clauses)`,
    );
    // A bucket's worth, and the polls the plan counted that were not needed: the test sends what --list said.
    const burst = await Promise.all(Array.from({ length: bucket + pollsOf(bucket, rate) - polls.length }, () => send()));
    const served = burst.filter((exchange) => exchange.status !== 429);
    const ms = Math.max(...burst.map((exchange) => exchange.at)) - refusedAt;
    const most = Math.floor((rate * ms) / 1000) + 1;
    expectClause({
      pass: served.length <= most,
      expected: `at most ${most} of ${burst.length} requests sent at once right after the first one served again (what refilled at ${rate}/s in the ${ms} ms since the last refused request was sent, and one)`,
      actual: `${served.length} served, after ${polls.length} polls (${polls.map((exchange) => exchange.status).join(', ')})`,
      exchange: served.at(-1) ?? first,
      headers: rateLimitHeaderNames,
    });
  },
);

conformance(
  "[§8 rate-limit.reset.unix-seconds] the 429's X-RateLimit-Reset is a Unix time in seconds, not before its Date",
  plan,
  async ({ target }) => {
    const { last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so there is no 429 to check (see redeliver.errors.429)`);
    // The 429 is when a client most needs Reset: a handler that does not know it (0, 1970) leaves
    // every client that waits for it retrying at once.
    expectNoProblems(resetProblems(last), `${names.reset} in Unix seconds, at or after the 429's Date (${answerSecondsOf(last)})`, {
      exchange: last,
      headers: [...rateLimitHeaderNames, 'date'],
    });
  },
);

conformance('[§8 rate-limit.headers.consistent] the 429 carries consistent X-RateLimit headers', plan, async ({ target }) => {
  const { last, why } = await exhaustRateLimit(target);
  target.needs(last.status === 429, `${why}, so there is no 429 to check (see redeliver.errors.429)`);
  expectNoProblems(rateLimitConsistencyProblems(last), 'the three X-RateLimit headers of the 429 agree with each other and its Date', {
    exchange: last,
    headers: [...rateLimitHeaderNames, 'date'],
  });
});

conformance(
  '[§8 rate-limit.remaining.falls] X-RateLimit-Remaining falls as the limit is spent, to exactly 0 on the 429',
  plan,
  async ({ target }) => {
    const { exchanges, last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so the limit was never spent (see redeliver.errors.429)`);
    const values = exchanges.map((e) => rateLimitOf(e));
    // A bucket already empty when the exhaustion began (other clients, or the suite's own floor of
    // 1 on a bucket of 2) falls from an earlier answer of the run; with none above 0, nothing shows
    // that Remaining ever moves.
    const startsEmpty = values[0]?.remaining === 0 && exchanges.length > 1;
    const earlier = target.answers
      .slice(0, Math.max(0, target.answers.length - exchanges.length))
      .map((e) => rateLimitOf(e).remaining ?? 0);
    target.needs(
      !startsEmpty || earlier.some((remaining) => remaining > 0),
      `the bucket was already empty when the exhaustion began (${names.remaining} 0) and no earlier answer of the run showed more`,
    );
    const outOfRange = values.flatMap((h, i) =>
      h.remaining !== undefined && h.limit !== undefined && h.remaining <= h.limit ? [] : [`answer ${i + 1}: ${h.raw}`],
    );
    const first = values[0]?.remaining;
    const problems = [
      ...outOfRange.slice(0, 3),
      ...(rateLimitOf(last).remaining === 0 ? [] : [`${names.remaining} ${shown(last.headers[rateLimitHeader.remaining])} on the 429`]),
      ...(exchanges.length === 1 || startsEmpty || (first !== undefined && first > 0)
        ? []
        : [`${names.remaining} ${shownHeader(exchanges[0]!.headers, 'remaining')} before the limit was spent`]),
    ];
    expectNoProblems(problems, `${names.remaining} a whole number within 0..Limit on every answer, falling to exactly 0 on the 429`, {
      exchange: last,
      headers: rateLimitHeaderNames,
    });
  },
);

// The bucket hands out every token Remaining announces: the batch that met the first 429 was sent
// after answers that said how many were left, and at least that many of it (or all, if fewer) are
// served. Only where the suite has the bucket to itself (a test double): a tenant's other clients
// take tokens between the suite's answers.
conformance(
  '[§8 rate-limit.headers.consistent] the limit refuses no request while X-RateLimit-Remaining said one was left',
  plan,
  async ({ target }) => {
    const { exchanges, batches, last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so there is no 429 to check (see redeliver.errors.429)`);
    target.needs(target.target.testDouble, "other clients of a tenant take tokens between the suite's answers", 'not-applicable');
    const starts = batches.map((_, i) => batches.slice(0, i).reduce((sum, n) => sum + n, 0));
    const at = batches.findIndex((size, i) => exchanges.slice(starts[i], starts[i]! + size).some((e) => e.status === 429));
    target.needs(at > 0, 'the first request of the exhaustion met the 429: no answer said what was left before it');
    const before = exchanges.slice(starts[at - 1], starts[at]).map((e) => rateLimitOf(e).remaining ?? 0);
    const left = Math.min(...before);
    const batch = exchanges.slice(starts[at], starts[at]! + batches[at]!);
    const served = batch.filter((e) => e.status !== 429).length;
    expectClause({
      pass: served >= Math.min(batch.length, left),
      expected: `at least ${Math.min(batch.length, left)} of the ${batch.length} requests sent after ${names.remaining} ${left} served`,
      actual: `${served} served, ${batch.length - served} answered 429`,
      exchange: last,
      headers: rateLimitHeaderNames,
    });
  },
);

// The 429's body is an error body like any other (errors.body.shape): its error field is the
// reason phrase the observed reference gives 429. The test of every error body (errors/) runs before
// the exhaustion, so it never reads a 429.
conformance(
  `[§7 errors.body.shape] the 429 has the error body shape, error "${observed.reason_phrases[429]!}"`,
  plan,
  async ({ target }) => {
    const { last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so there is no 429 to check (see redeliver.errors.429)`);
    expectObservedErrorBody(last);
  },
);

conformance(
  '[§7 errors.429.body] a 429 says "Global limit has been reached" with errorCode too_many_requests',
  plan,
  async ({ target }) => {
    const { last, why } = await exhaustRateLimit(target);
    target.needs(last.status === 429, `${why}, so there is no 429 to check (see redeliver.errors.429)`);
    expectObservedError(last, 'too_many_requests');
  },
);
