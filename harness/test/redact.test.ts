import { describe, expect, it } from 'vitest';
import { toCurl } from '../curl.ts';
import { REDACTED, REDACTED_NOT_A_STRING, Redactor, redactor } from '../redact.ts';

describe('Redactor', () => {
  it('replaces a registered secret wherever it appears', () => {
    const r = new Redactor();
    r.add('s3cr3t-value-123');
    expect(r.redact('a s3cr3t-value-123 b s3cr3t-value-123')).toBe(`a ${REDACTED} b ${REDACTED}`);
  });

  it('replaces anything shaped like a JWT', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    expect(new Redactor().redact(`token ${jwt} end`)).toBe(`token ${REDACTED} end`);
  });

  it('replaces credential parameters in forms and JSON', () => {
    const r = new Redactor();
    expect(r.redact('grant_type=client_credentials&client_secret=abc123&audience=x')).toBe(
      `grant_type=client_credentials&client_secret=${REDACTED}&audience=x`,
    );
    expect(r.redact('{"client_secret":"abc123","client_id":"id"}')).toBe(`{"client_secret":"${REDACTED}","client_id":"id"}`);
    expect(r.redact('{"access_token":"opaque-token"}')).toBe(`{"access_token":"${REDACTED}"}`);
    // A JSON value that is not a string is replaced by a string: the text stays JSON.
    expect(JSON.parse(r.redact('{"password": 12345}'))).toEqual({ password: REDACTED_NOT_A_STRING });
    expect(JSON.parse(r.redact('{"client_secret": true}'))).toEqual({ client_secret: REDACTED_NOT_A_STRING });
  });

  it("leaves a longer name that ends in a credential parameter's alone, so JSON stays JSON", () => {
    const text = JSON.stringify({ 'token form.client_id near-value:as-username-and-password': 1, 'reset-password': 2 });
    expect(new Redactor().redact(text)).toBe(text);
  });

  it('replaces Authorization header values', () => {
    expect(new Redactor().redact('Authorization: Bearer opaque.token')).toBe(`Authorization: Bearer ${REDACTED}`);
  });

  it('leaves ordinary text alone', () => {
    const text = 'redelivery answers 404 for est_AQXiyfL3iDNFp5RV9YTEMv';
    expect(new Redactor().redact(text)).toBe(text);
  });

  it('ignores secrets too short to replace safely', () => {
    const r = new Redactor();
    r.add('abc');
    expect(r.redact('abc abc')).toBe('abc abc');
  });
});

describe('toCurl', () => {
  it('replays a request with the token left to the shell and secrets redacted', () => {
    redactor.add('the-client-secret-value');
    const line = toCurl({
      method: 'POST',
      url: 'http://127.0.0.1:4010/oauth/token/',
      headers: { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_id=a&client_secret=the-client-secret-value',
    });
    expect(line).toContain(`-H "authorization: Bearer $TOKEN"`);
    expect(line).toContain("-X POST 'http://127.0.0.1:4010/oauth/token/'");
    expect(line).not.toContain('the-client-secret-value');
    expect(line).not.toContain('eyJ');
  });

  it('sends an empty header as empty, Authorization included (curl drops "name:" with no value)', () => {
    const line = toCurl({ method: 'GET', url: 'http://127.0.0.1/a', headers: { authorization: '', 'tenant-custom-domain': '' } });
    expect(line).toContain("-H 'authorization;' -H 'tenant-custom-domain;'");
    expect(line).not.toContain('$TOKEN');
  });

  it('quotes single quotes for the shell', () => {
    expect(toCurl({ method: 'GET', url: "http://127.0.0.1/a'b", headers: {} })).toContain(`'http://127.0.0.1/a'\\''b'`);
  });
});

describe('SSO ticket URLs', () => {
  it('lose their ticket, a live credential, wherever they appear', () => {
    const redactor = new Redactor();
    const body = '{"ticket":"https://tenant.example.com/self-service/connections-flow?ticket=Xk3vQ9aLm2Pz8RtY0bNc4WdE6fGh1JuI"}';
    expect(redactor.redact(body)).toBe('{"ticket":"https://tenant.example.com/self-service/connections-flow?ticket=[redacted]"}');
    expect(redactor.redact('see https://x.example/flow?a=1&ticket=abc123&b=2 and &quot;')).toBe(
      'see https://x.example/flow?a=1&ticket=[redacted]&b=2 and &quot;',
    );
    expect(redactor.redact('?ticket=[redacted]')).toBe('?ticket=[redacted]');
  });
});
