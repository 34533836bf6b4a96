// OpenID Connect discovery, as a tenant publishes it: the recorded lists, and URLs on the host
// the request reached, that lead to the mock's own token endpoint and JWKS.
import { expect, test } from 'vitest';
import { observed } from '../../specs/index.ts';
import { call } from './support/http.ts';
import { sharedMock } from './support/mock.ts';

const mock = sharedMock();

test('names the issuer, the token endpoint and the JWKS on the origin the mock is reached at', async () => {
  const answer = await call(mock(), 'GET', observed.discovery.path);
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe(observed.content_type);
  expect(answer.json).toMatchObject({
    issuer: `${mock().url}/`,
    token_endpoint: `${mock().url}${observed.tokens.path}`,
    jwks_uri: `${mock().url}${observed.tokens.jwks_path}`,
  });
});

test('publishes the recorded lists, private_key_jwt and its algorithms among them', async () => {
  const document = (await call(mock(), 'GET', observed.discovery.path)).json as Record<string, unknown>;
  expect(document.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post', 'private_key_jwt']);
  expect(document.token_endpoint_auth_signing_alg_values_supported).toEqual(observed.tokens.client_assertion.algorithms.value);
  expect(document.scopes_supported).toEqual(observed.discovery.scopes_supported);
  expect(Object.keys(document)).not.toContain('path');
});

test('its URLs follow the Host a proxy in front of the mock forwards', async () => {
  const answer = await call(mock(), 'GET', observed.discovery.path, { headers: { host: 'mock.dev.example:8443' } });
  expect((answer.json as { issuer: string }).issuer).toBe('http://mock.dev.example:8443/');
});

test('its URLs lead somewhere: the token endpoint takes a POST and the JWKS answers', async () => {
  const document = (await call(mock(), 'GET', observed.discovery.path)).json as { token_endpoint: string; jwks_uri: string };
  expect((await call(mock(), 'GET', new URL(document.jwks_uri).pathname)).status).toBe(200);
  expect((await call(mock(), 'GET', new URL(document.token_endpoint).pathname)).status).toBe(405);
});
