// How the preflight says a token endpoint's redirect: to the same endpoint without the trailing
// slash (the spec's /oauth/token/ redirected to /oauth/token) it names the clause the target
// breaks; to anywhere else it asks for another auth_url.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../http.ts';
import { accessTokenUnderAnotherName, sameEndpointWithoutSlash, tokenEndpointBreach, tokenEndpointProblem } from '../preflight.ts';

const TOKEN_URL = 'https://tenant.example.com/oauth/token/';
const redirect = (location: string): Exchange => ({
  request: { method: 'POST', url: TOKEN_URL, headers: {}, label: 'token' },
  status: 308,
  headers: { location },
  text: '',
  json: undefined,
  ms: 1,
  at: 0,
  attempts: 1,
});

describe('sameEndpointWithoutSlash', () => {
  it('is the token URL without its trailing slash, relative or absolute', () => {
    expect(sameEndpointWithoutSlash('/oauth/token', TOKEN_URL)).toBe(true);
    expect(sameEndpointWithoutSlash('https://tenant.example.com/oauth/token', TOKEN_URL)).toBe(true);
  });
  it('is not another path, another origin, or the URL itself', () => {
    expect(sameEndpointWithoutSlash('/oauth/token/', TOKEN_URL)).toBe(false);
    expect(sameEndpointWithoutSlash('https://login.example.com/oauth/token', TOKEN_URL)).toBe(false);
    expect(sameEndpointWithoutSlash('/login', TOKEN_URL)).toBe(false);
  });
});

describe('tokenEndpointProblem of a redirect', () => {
  it('names token.endpoint when the redirect drops the trailing slash', () => {
    const problem = tokenEndpointProblem(redirect('/oauth/token'), TOKEN_URL);
    expect(problem).toContain('the same endpoint without the trailing slash');
    expect(problem).toContain('the target breaks token.endpoint');
    expect(problem).not.toContain('set auth_url');
  });
  it('asks for another auth_url when the redirect goes elsewhere', () => {
    const problem = tokenEndpointProblem(redirect('https://login.example.com/oauth/token/'), TOKEN_URL);
    expect(problem).toContain('set auth_url');
  });
});

describe('a 200 with the token under another name', () => {
  const answered = (json: unknown): Exchange => ({ ...redirect(''), status: 200, headers: {}, json, text: JSON.stringify(json) });
  it('finds access_token written in camelCase, Pascal case or capitals, or with a hyphen', () => {
    for (const name of ['accessToken', 'AccessToken', 'ACCESS_TOKEN', 'access-token'])
      expect(accessTokenUnderAnotherName({ [name]: 'eyJ.x.y', tokenType: 'Bearer' })).toBe(name);
  });
  it('finds none beside access_token, in another member, or holding no string', () => {
    expect(accessTokenUnderAnotherName({ access_token: 'eyJ.x.y', accessToken: 'eyJ.x.y' })).toBeUndefined();
    expect(accessTokenUnderAnotherName({ token: 'eyJ.x.y' })).toBeUndefined();
    expect(accessTokenUnderAnotherName({ accessToken: 1 })).toBeUndefined();
    expect(accessTokenUnderAnotherName(['accessToken'])).toBeUndefined();
  });
  it('is a breach of token.endpoint, said in the problem too, where a 200 without it asks for another auth_url', () => {
    const breach = tokenEndpointBreach(answered({ accessToken: 'eyJ.x.y', expiresIn: 86400 }), TOKEN_URL);
    expect(breach?.title).toContain('[§5 token.endpoint]');
    expect(breach?.actual).toContain('"accessToken"');
    expect(tokenEndpointProblem(answered({ accessToken: 'eyJ.x.y' }), TOKEN_URL)).toContain('the target breaks token.endpoint');
    expect(tokenEndpointBreach(answered({ hello: 'world' }), TOKEN_URL)).toBeUndefined();
    expect(tokenEndpointProblem(answered({ hello: 'world' }), TOKEN_URL)).toContain('check auth_url');
  });
});
