// The token endpoint: a repeated grant_type settled by the last one (PHP's $_POST), an audience whose
// path is compared without case (a Windows/IIS habit); and the observed rules: expires_in written as
// a string (proto3 JSON's int64), a JWKS modulus with Java's sign byte, and errors wrapped in
// OData's error envelope. Each changes the answer to one near miss; other requests are answered as
// before.
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParams } from '../round-17/support/token-params.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const FORM = 'application/x-www-form-urlencoded';
const splitUrl = (url: string) => /^(https?:\/\/[^/]+)(\/.*)?$/i.exec(url);

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho21-grant-type-last-duplicate-wins',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: 'The form read the way PHP fills $_POST, a repeated parameter settled by its last value: "grant_type=password&grant_type=client_credentials" is granted a token instead of being refused for a repeated parameter; "grant_type=client_credentials&grant_type=password" (last value password) is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const type = String(exchange.headers['content-type'] ?? '').toLowerCase();
        if (!type.startsWith(FORM)) return exchange;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        const values = form.getAll('grant_type');
        if (values.length < 2) return exchange;
        form.set('grant_type', values[values.length - 1]!);
        return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
      }),
  },
  {
    id: 'ho21-audience-path-case-folded',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience looked up in a table keyed by URL with a case-insensitive path (a Windows/IIS habit: paths are file names there): "https://<host>/API/V2/" is granted a management token instead of refused; "https://<host>/api/v3/" is still refused.',
    install: (app) => {
      const tenant = capture(app, 'tenant');
      editTokenParams(app, (params) => {
        const audience = tenant().audience;
        if (typeof params.audience !== 'string' || params.audience === audience) return params;
        const sent = splitUrl(params.audience);
        const right = splitUrl(audience);
        if (!sent || !right || sent[1] !== right[1] || (sent[2] ?? '').toLowerCase() !== (right[2] ?? '').toLowerCase()) return params;
        return { ...params, audience };
      });
    },
  },
  {
    id: 'ho21-expires-in-int64-string',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'The token answer produced by a gRPC-JSON transcoder from a message whose expires_in is an int64, which proto3\'s JSON mapping writes as a string: "expires_in": "86400" instead of 86400; access_token, token_type and scope are as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === 200 && isObject(reply.body) && typeof reply.body.expires_in === 'number'
          ? { ...reply, body: { ...reply.body, expires_in: String(reply.body.expires_in) } }
          : reply,
      ),
  },
  {
    id: 'ho21-jwks-modulus-sign-byte',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: 'The JWKS modulus encoded from Java\'s BigInteger.toByteArray(), which puts a 0x00 sign byte before a number whose top bit is set: "n" decodes to 257 bytes beginning with 0 instead of the 256 of the key (RFC 7518 forbids the leading zero); "e" and the other members are as before.',
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.keys)) return reply;
        const keys = reply.body.keys.map((key: unknown) => {
          if (!isObject(key) || typeof key.n !== 'string') return key;
          const bytes = Buffer.from(key.n, 'base64url');
          return bytes[0]! >= 0x80 ? { ...key, n: Buffer.concat([Buffer.from([0]), bytes]).toString('base64url') } : key;
        });
        return { ...reply, body: { ...reply.body, keys } };
      }),
  },
  {
    id: 'ho21-token-error-odata-envelope',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: 'Token errors written in OData\'s JSON error format by an ASP.NET OData stack: {"error": {"code": "invalid_client", "message": "<description>"}} instead of {"error": "invalid_client", "error_description": ...} (and the other errors the same); the status is as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status >= 400 && isObject(reply.body) && typeof reply.body.error === 'string'
          ? { ...reply, body: { error: { code: reply.body.error, message: reply.body.error_description ?? reply.body.error } } }
          : reply,
      ),
  },
]);
