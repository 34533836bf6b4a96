// What a request's credential was, read from the request alone.
import { expect, test } from 'vitest';
import type { DecodedToken } from '../../harness/exchange-record.ts';
import { CLEARLY_OUTSIDE_SECONDS, credentialOf } from '../credential.ts';

const NOW = 1_800_000_000;
const tenant = [{ issuer: 'https://tenant.example.com/', audience: 'https://tenant.example.com/api/v2/' }];
const token = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'RS256' }): DecodedToken => ({
  header,
  claims: {
    iss: tenant[0]!.issuer,
    aud: tenant[0]!.audience,
    iat: NOW - 60,
    exp: NOW + 3600,
    scope: 'read:flows_vault_connections',
    ...claims,
  },
  signed: true,
});
const kind = (sent: DecodedToken | undefined, authorization = 'Bearer [redacted]') =>
  credentialOf({ authorization }, sent ? { sent } : undefined, NOW, tenant).kind;

test.for([
  ['a valid token', token({}), 'plausible'],
  ['a token expired just within the margin', token({ exp: NOW - CLEARLY_OUTSIDE_SECONDS + 1 }), 'plausible'],
  ['a token expired past the margin', token({ exp: NOW - CLEARLY_OUTSIDE_SECONDS - 1 }), 'invalid'],
  ['a token not valid until past the margin', token({ iat: NOW + CLEARLY_OUTSIDE_SECONDS + 1 }), 'invalid'],
  ['a token for the audience without its slash', token({ aud: 'https://tenant.example.com/api/v2' }), 'invalid'],
  ['a token of another issuer', token({ iss: 'https://other.example.com/' }), 'invalid'],
  ['an unsigned token', token({}, { alg: 'none' }), 'invalid'],
] as const)('%s is %s', ([, sent, expected]) => {
  expect(kind(sent)).toBe(expected);
});

test('a redacted token that was not kept decoded is unknown, never judged', () => {
  expect(kind(undefined)).toBe('unknown');
});

test('a raw bearer value that is not a JWT is invalid', () => {
  expect(kind(undefined, 'Bearer not-a-token')).toBe('invalid');
});

test('no Authorization header is missing; another scheme is unreadable', () => {
  expect([credentialOf({}, undefined, NOW, tenant).kind, kind(undefined, 'Digest x')]).toEqual(['missing', 'unreadable']);
});
