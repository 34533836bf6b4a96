// Arbitraries of hostile HTTP/1.1 requests, as raw bytes: odd methods, paths built from real
// route templates with broken or strange segments (bad percent-encodings, NULs, long runs),
// odd headers, garbage and JWT-like bearer tokens, bodies of every kind and framing, and now
// and then bytes that are no HTTP at all. Test plumbing for the mock's robustness property.
import fc from 'fast-check';

export interface GarbageRequest {
  /** What is sent, as latin1 text (every byte 0..255 survives). */
  bytes: string;
  method: string;
  path: string;
  label: string;
}

const METHODS = ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'get', 'G ET', 'POSTX', ''];
/** The route's own method most often; GET, POST or an odd one otherwise. */
const method = fc.oneof(
  { weight: 7, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('GET', 'POST') },
  { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
);

const base64url = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
  maxLength: 60,
});
const segmentOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const oddSegment = fc.oneof(
  fc.constantFrom('%zz', '%', '%0', '%00', '%2F', '%2e%2e', '..', '.', '%E0%A4%A', '%ff%fe', '%C0%AF', '%25', '~', "'", ';x=1', '%20'),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: fc.constantFrom(...'abcXYZ019_-.~!$&()*+,;=:@'), minLength: 1, maxLength: 40 }),
  fc.integer({ min: 200, max: 3000 }).map((n) => 'a'.repeat(n)),
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'est_AQXiyfL3iDNFp5RV9YTEMv',
      'evt_wx3cBnTHxX2mVaYMaBVtL8',
      'evt_x7WnjtmQKy9VdWg4eUQg85',
      'ssp_9KgfU2kfX7fonvodDzoqxD',
      'ac_NbWaizZTo4vfWnCwDq76Vj',
      'ac_AkoqqjxmLJhPJThFBi7J1v',
    ),
  },
);

/** Templates with the method their route takes (GET for paths no route takes). */
const OPERATION_TEMPLATES = [
  ['/api/v2/event-streams/{}/redeliver/{}', 'POST'],
  ['/api/v2/self-service-profiles/{}/sso-ticket', 'POST'],
  ['/api/v2/flows/vault/connections/{}', 'GET'],
] as const;
const OTHER_TEMPLATES = [
  ['/oauth/token', 'POST'],
  ['/oauth/token/', 'POST'],
  ['/.well-known/jwks.json', 'GET'],
  ...['/api/v2', '/api/v2/', '/api/v2/{}', '/{}', '/', '*'].map((template) => [template, 'GET'] as const),
] as const;

const path = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...OPERATION_TEMPLATES) },
      { weight: 1, arbitrary: fc.constantFrom(...OTHER_TEMPLATES) },
    ),
    fc.array(oddSegment, { minLength: 2, maxLength: 2 }),
    fc.option(fc.string({ maxLength: 30 }).map(encodeURIComponent), { nil: undefined }),
  )
  .map(([[template, routeMethod], [a, b], query]) => {
    let i = 0;
    const filled = template.replace(/\{\}/g, () => (i++ === 0 ? a! : b!));
    return { target: query === undefined ? filled : `${filled}?${query}`, routeMethod };
  });

function authorization(validToken: string) {
  return fc.oneof(
    fc.constant(undefined),
    { weight: 6, arbitrary: fc.constant(`Bearer ${validToken}`) },
    fc.string({ maxLength: 80 }).map((s) => s.replace(/[\r\n]/g, ' ')),
    fc.tuple(base64url, base64url, base64url).map(([a, b, c]) => `Bearer ${a}.${b}.${c}`),
    fc
      .record({ alg: fc.constantFrom('none', 'RS256', 'HS256', 'ES256', '', 42), kid: fc.option(fc.string({ maxLength: 10 })) })
      .chain((header) =>
        fc.jsonValue().map((payload) => `Bearer ${segmentOf(header)}.${segmentOf(payload)}.${Buffer.from('sig').toString('base64url')}`),
      ),
    fc.constantFrom(
      'Bearer',
      'Bearer  ',
      'bearer x.y.z',
      'Basic Og==',
      'Basic !!!',
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      'Negotiate abc',
    ),
  );
}

const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/x-www-form-urlencoded',
    'text/plain',
    'application/octet-stream',
    'multipart/form-data; boundary=x',
    'application/merge-patch+json',
    ';;;',
    'application/json; charset=latin1',
  ),
  { nil: undefined },
);

function body(maxBodyBytes: number) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '{',
        '{"ttl_sec":',
        '[1,2',
        '{"a":1}}',
        'null',
        'true',
        '"x"',
        '{"ttl_sec": 1e400}',
        '{"__proto__": {"x": 1}}',
        'grant_type=client_credentials&grant_type=x',
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: Math.floor(maxBodyBytes / 2), max: maxBodyBytes * 2 })
        .map((n) => `{"enabled_clients":["${'c'.repeat(n)}"]}`),
    },
  );
}

const extraHeader = fc.oneof(
  fc.tuple(
    fc.constantFrom('tenant-custom-domain', 'x-forwarded-for', 'accept', 'x-odd', 'expect', 'cookie', 'accept-encoding'),
    fc.string({ maxLength: 300 }).map((s) => s.replace(/[\r\n\0]/g, '')),
  ),
  fc.tuple(
    fc.string({ unit: fc.constantFrom(...'abcxyz-_0123'), minLength: 1, maxLength: 20 }),
    fc.string({ maxLength: 50 }).map((s) => s.replace(/[\r\n\0]/g, '')),
  ),
);

/** Shown by fast-check for a failing case: the request's first bytes, replayable with the seed. */
function withPreview(request: Omit<GarbageRequest, typeof fc.toStringMethod>): GarbageRequest {
  const preview = JSON.stringify(request.bytes.length > 400 ? `${request.bytes.slice(0, 400)}...` : request.bytes);
  return Object.assign(request, { [fc.toStringMethod]: () => `${preview} (${request.bytes.length} bytes)` });
}

/** A request with correct framing (so every one can be answered at once), or raw garbage. */
export function garbageRequest(validToken: string, maxBodyBytes: number): fc.Arbitrary<GarbageRequest> {
  const framed = fc
    .record({
      method,
      path,
      authorization: authorization(validToken),
      contentType,
      body: body(maxBodyBytes),
      chunked: fc.boolean(),
      extra: fc.array(extraHeader, { maxLength: 3 }),
    })
    .map(({ method: chosen, path: { target, routeMethod }, authorization: auth, contentType: type, body: payload, chunked, extra }) => {
      const method = chosen ?? routeMethod;
      const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
      if (auth !== undefined) lines.push(`Authorization: ${auth}`);
      if (type !== undefined) lines.push(`Content-Type: ${type}`);
      for (const [name, value] of extra) lines.push(`${name}: ${value}`);
      const length = Buffer.byteLength(payload, 'latin1');
      let framedBody = payload;
      if (chunked && length > 0) {
        lines.push('Transfer-Encoding: chunked');
        framedBody = `${length.toString(16)}\r\n${payload}\r\n0\r\n\r\n`;
      } else if (length > 0 || method === 'POST') {
        lines.push(`Content-Length: ${length}`);
      }
      return withPreview({
        bytes: `${lines.join('\r\n')}\r\n\r\n${framedBody}`,
        method,
        path: target,
        label: `${method} ${target.slice(0, 120)}`,
      });
    });
  const raw = fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) =>
    withPreview({
      bytes: `${Buffer.from(bytes).toString('latin1')}\r\n\r\n`,
      method: '',
      path: '',
      label: `raw bytes ${Buffer.from(bytes).toString('hex').slice(0, 60)}`,
    }),
  );
  return fc.oneof({ weight: 9, arbitrary: framed }, { weight: 1, arbitrary: raw });
}
