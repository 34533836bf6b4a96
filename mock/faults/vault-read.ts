// Where the interface is served (spec 9): the vault read under another prefix, and a router that
// serves every operation after a doubled slash, under the version spelled otherwise (v2.0, v02), a
// release channel's name ("stable") or the previous version (v1), or after a backslash written %5C.
// The vault read's status, content type and which record it answers break by the faults every card
// gets (operation-answers.ts); its record's fields are vault-record.ts's.
import { basePath, parameter } from '../../specs/index.ts';
import type { FaultHooks } from '../app.ts';
import type { Reply, RouteHandler } from '../exchange.ts';
import { mockOperations } from '../operations.ts';
import { Refusal } from '../refusal.ts';
import { createRouter } from '../router.ts';
import { faultFamily } from './fault.ts';
import { capture, captureAll } from './support/captured.ts';
import { decoded } from './support/parameter-edits.ts';
import { editReplies, replacing } from './support/route-edits.ts';

/**
 * A router that splits the path on "/" and drops the empty segments: a path the interface does not
 * serve is served as the operation it names once they are gone (whatever is not found stays so).
 */
function emptySegmentsDropped(app: FaultHooks): void {
  servedRewritten(
    app,
    (path) =>
      `/${path
        .split('/')
        .filter((segment) => segment !== '')
        .join('/')}`,
  );
}

/**
 * A router that reads the base path's version with parseInt and serves any spelling of the same
 * number: /api/v2.0/... and /api/v02/... are served as /api/v2/... (whatever is not found stays so).
 */
function versionParsedAsInteger(app: FaultHooks): void {
  const [, prefix, version] = /^(.*\/v)(\d+)$/.exec(basePath)!;
  servedRewritten(app, (path) => {
    if (!path.startsWith(prefix!)) return path;
    const rest = path.slice(prefix!.length);
    const segment = rest.split('/')[0]!;
    return parseInt(segment, 10) === Number(version) ? `${prefix}${version}${rest.slice(segment.length)}` : path;
  });
}

/** The release channel a gateway maps onto the current version (its "stable" stage). */
const STABLE_CHANNEL = 'stable';

/**
 * A gateway with release channels in front of the version router: /api/stable/... is served as
 * /api/v2/... (whatever is not found stays so).
 */
function stableChannelAliased(app: FaultHooks): void {
  const [, prefix] = /^(.*\/)v\d+$/.exec(basePath)!;
  const channel = `${prefix}${STABLE_CHANNEL}/`;
  servedRewritten(app, (path) => (path.startsWith(channel) ? `${basePath}/${path.slice(channel.length)}` : path));
}

/**
 * A compatibility shim left from the previous version's retirement that forwards its paths to the
 * current handlers: /api/v1/... is served as /api/v2/... (whatever is not found stays so).
 */
function previousVersionForwarded(app: FaultHooks): void {
  const [, prefix, version] = /^(.*\/v)(\d+)$/.exec(basePath)!;
  const previous = `${prefix}${Number(version) - 1}/`;
  servedRewritten(app, (path) => (path.startsWith(previous) ? `${basePath}/${path.slice(previous.length)}` : path));
}

/**
 * A router that percent-decodes the request target and parses it as a WHATWG URL, which reads "\"
 * as "/" in http(s) URLs: /api%5Cv2/... is served as /api/v2/... (whatever is not found stays so).
 */
function backslashReadAsSlash(app: FaultHooks): void {
  servedRewritten(app, (path) => path.replace(/%5C/gi, '/'));
}

/** Serves a path the interface does not serve as the operation its rewritten form names. */
function servedRewritten(app: FaultHooks, rewrite: (path: string) => string): void {
  const components = captureAll(app);
  const operations = Object.values(mockOperations);
  const route = createRouter(operations.map((operation) => operation.card));
  let handlers: Map<string, RouteHandler> | undefined;
  app.wrapRoute('not-found', (next) => async (exchange) => {
    const path = rewrite(exchange.path);
    const found = path === exchange.path ? undefined : route(exchange.method, path);
    handlers ??= new Map(operations.map((operation) => [operation.card.key, operation.route(components(), operation.card)]));
    const handler = found && handlers.get(found.key);
    if (!handler) return next(exchange);
    try {
      return await handler({ ...exchange, path, params: found.params });
    } catch (error) {
      if (error instanceof Refusal) return error.reply;
      throw error;
    }
  });
}

export const vaultReadFaults = faultFamily([
  {
    id: 'vault-id-length-checked-before-the-token',
    clause: 'auth.order',
    bug: "The vault read's route validates the connection id's length in its path matcher, outside the authentication: a request without a token (or with an invalid one) whose connection id is longer than 30 characters is answered 400 instead of 401; with an id of a valid length, 401 as before.",
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply, exchange) => {
        const id = decoded(exchange.params.id ?? '');
        return reply.status === 401 && id !== undefined && [...id].length > Number(parameter('vault', 'path', 'id').schema.maxLength)
          ? replacing(reply, errors().reply('invalid_uri'))
          : reply;
      });
    },
  },
  {
    id: 'vault-read-cached-by-url',
    clause: 'errors.401.all-operations',
    bug: 'A response cache in front of the vault read keyed by the URL alone (a CDN rule without Vary: Authorization): once a connection has been read, a read of the same URL is answered the cached 200 whoever asks, without a credential or with a token lacking the scope, instead of 401 or 403; a connection not read before is refused as before.',
    install: (app) => {
      const cached = new Map<string, Reply>();
      app.wrapRoute('vault', (next) => async (exchange) => {
        const hit = cached.get(exchange.path);
        if (hit) return hit;
        const reply = await next(exchange);
        if (reply.status === 200) cached.set(exchange.path, reply);
        return reply;
      });
    },
  },
  {
    id: 'vault-not-under-base-path',
    clause: 'versioning.base-path',
    bug: 'The vault read mounted under another prefix than /api/v2: every request there is answered 404 Not Found (so every vault test fails; the other operations are where the spec says).',
    install(app) {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply) => replacing(reply, errors().reply('route_not_found')));
    },
  },
  {
    id: 'empty-path-segments-dropped',
    clause: 'versioning.base-path',
    bug: 'A router that splits the path on "/" and drops empty segments: /api//v2/... (an empty segment anywhere) is served as the operation it names instead of 404.',
    install: emptySegmentsDropped,
  },
  {
    id: 'version-parsed-as-integer',
    clause: 'versioning.base-path',
    bug: 'A router that reads the version segment with parseInt: /api/v2.0/... and /api/v02/... (paths outside the base path /api/v2) are served as the operations instead of 404; /api/v3/... is still 404.',
    install: versionParsedAsInteger,
  },
  {
    id: 'version-channel-stable-aliased',
    clause: 'versioning.base-path',
    bug: `A gateway with release channels in front of the version router, its "${STABLE_CHANNEL}" channel mapped onto the current version: /api/${STABLE_CHANNEL}/... is served as the operations instead of 404; /api/v3/... and /api/latest/... are still 404.`,
    install: stableChannelAliased,
  },
  {
    id: 'previous-version-forwarded',
    clause: 'versioning.base-path',
    bug: 'A compatibility shim kept from the retirement of the previous version, forwarding its paths to the current handlers: /api/v1/... is served as the operations instead of 404; /api/v3/... is still 404.',
    install: previousVersionForwarded,
  },
  {
    id: 'backslash-read-as-slash',
    clause: 'versioning.base-path',
    bug: 'A router that percent-decodes the request target and parses it as a WHATWG URL, which reads "\\" as "/": /api%5Cv2/... (one segment, outside the base path /api/v2) is served as the operations instead of 404; /api%5Cv3/... is still 404.',
    install: backslashReadAsSlash,
  },
  {
    id: 'vault-read-negotiates-strictly',
    clause: 'vault.success.status',
    bug: 'The vault read answered through a strict content negotiation with JSON its only offer: a read whose Accept header names only text/html is answered 406 Not Acceptable instead of the record; Accept application/json, */* or none reads it as before.',
    install: (app) =>
      editReplies(app, ['vault'], (reply, exchange) => {
        const accept = (exchange.headers.accept ?? '*/*').toLowerCase();
        const takesJson = /application\/json|application\/\*|\*\/\*/.test(accept);
        return reply.status === 200 && !takesJson
          ? replacing(reply, {
              status: 406,
              headers: { 'content-type': 'application/json; charset=utf-8' },
              body: { statusCode: 406, error: 'Not Acceptable', message: 'Not Acceptable' },
            })
          : reply;
      }),
  },
  {
    id: 'vault-read-conditional-before-scope',
    clause: 'vault.scope',
    bug: "A caching layer in front of the vault read's handler, its permission check inside: a read with If-Modified-Since at or after the moment the record was last served is answered 304 Not Modified whoever asks, so a token without read:flows_vault_connections learns the record has not changed instead of being refused 403; a read without the header is refused as before.",
    install: (app) => {
      let servedAt: number | undefined;
      app.wrapRoute('vault', (next) => async (exchange) => {
        const since = Date.parse(String(exchange.headers['if-modified-since'] ?? ''));
        if (servedAt !== undefined && since >= Math.floor(servedAt / 1000) * 1000) return { status: 304, headers: {}, body: undefined };
        const reply = await next(exchange);
        if (reply.status === 200) servedAt = Date.now();
        return reply;
      });
    },
  },
]);
