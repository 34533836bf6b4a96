// The token endpoint's check of a client assertion (private_key_jwt, RFC 7523) letting through
// what it must refuse: a signature it does not check, a jti it does not remember, an exp it does
// not read, a client_assertion_type it does not compare. Each is answered as the conformant mock
// answers a valid assertion of the client the assertion's iss names; every other check stands.
import { compactVerify } from 'jose';
import { audiencesOf, decodeJws } from '../auth/bearer.ts';
import type { AssertionCheck } from '../auth/client-assertion.ts';
import { tokenDescriptions } from '../errors.ts';
import type { FaultHooks } from '../app.ts';
import type { Components } from '../components.ts';
import { JWT_BEARER_GRANT } from '../../specs/cards/token-request.ts';
import { observed } from '../../specs/index.ts';
import { faultFamily } from './fault.ts';
import { capture } from './support/captured.ts';
import { editRequests } from './support/route-edits.ts';
import { isFormMediaType } from '../stages/json-body.ts';

const CLAUSE = 'token.observed.client-assertion';
const why = tokenDescriptions.assertion;

/**
 * A verifier that forgives one refusal (the check it answers with `description` is not made, or
 * not for an assertion `where` picks): the assertion is taken for one of the client its iss names,
 * when that client has a key.
 */
function forgives(
  description: string,
  where: (assertion: string, built: Partial<Components>, host: string | undefined) => boolean = () => true,
): (app: FaultHooks) => void {
  return (app) =>
    app.override('assertions', (assertions, built) => ({
      async verify(assertion, clientId, host): Promise<AssertionCheck> {
        const check = await assertions.verify(assertion, clientId, host);
        if (check.ok || check.description !== description || !where(assertion, built, host)) return check;
        return forgiven(assertion, built.store) ?? check;
      },
    }));
}

/** An assertion taken for one of the client its iss names, where that client has a key. */
function forgiven(assertion: string, store: Components['store'] | undefined): AssertionCheck | undefined {
  const iss = decodeJws(assertion)?.payload.iss;
  const client = typeof iss === 'string' ? store?.client(iss) : undefined;
  return client?.publicKey ? { ok: true, client } : undefined;
}

/** A form-encoded token request's fields, edited by `edit` (undefined: left as sent). */
function editForm(app: FaultHooks, edit: (form: URLSearchParams) => URLSearchParams | undefined): void {
  editRequests(app, 'token', (exchange) => {
    if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
    const edited = edit(new URLSearchParams(exchange.body.toString('utf8')));
    return edited ? { ...exchange, body: Buffer.from(edited.toString(), 'utf8') } : exchange;
  });
}

export const clientAssertionFaults = faultFamily([
  {
    id: 'client-assertion-signature-unchecked',
    clause: CLAUSE,
    bug: "A verifier that decodes the client assertion without verifying its signature (jose's decodeJwt where jwtVerify was meant): an assertion signed with any key is taken for the client its iss names.",
    install: forgives(tokenDescriptions.clientAuthenticationFailed),
  },
  {
    id: 'client-assertion-replay-accepted',
    clause: CLAUSE,
    bug: 'A replay cache that is never written (or one per request): an assertion is accepted again with the same jti, as often as it is sent before its exp.',
    install: forgives(why.replayed),
  },
  {
    id: 'client-assertion-expiry-ignored',
    clause: CLAUSE,
    bug: "A verifier that forgets the assertion's exp (verify options without the clock): an expired assertion is accepted (its lifetime and jti unchecked then too).",
    install: forgives(why.expired),
  },
  {
    id: 'client-assertion-hs512-secret-accepted',
    clause: CLAUSE,
    bug: "The client assertion's check extended to client_secret_jwt with the stronger HMACs only (algorithms: ['HS384', 'HS512'], a hardening that left HS256 out), which the tenant does not offer: an HS512 assertion of a client that has a secret, keyed with that secret, gets a token instead of 401 invalid_client; an HS256 one is still refused.",
    install: (app) =>
      app.override('assertions', (assertions, built) => ({
        async verify(assertion, clientId, host): Promise<AssertionCheck> {
          const check = await assertions.verify(assertion, clientId, host);
          const decoded = check.ok ? undefined : decodeJws(assertion);
          const iss = decoded?.payload.iss;
          if (!decoded || !['HS384', 'HS512'].includes(String(decoded.header.alg)) || typeof iss !== 'string') return check;
          const client = iss === decoded.payload.sub && (clientId === undefined || clientId === iss) ? built.store?.client(iss) : undefined;
          if (!client?.secret) return check;
          try {
            await compactVerify(assertion, new TextEncoder().encode(client.secret), { algorithms: ['HS384', 'HS512'] });
          } catch {
            return check;
          }
          const addressed = audiencesOf(decoded.payload.aud).some(
            (aud) => typeof aud === 'string' && built.tenant?.identityForIssuer(aud, host),
          );
          const { exp, jti } = decoded.payload;
          const fresh = typeof exp === 'number' && built.clock !== undefined && exp * 1000 > built.clock.now();
          return addressed && fresh && typeof jti === 'string' && jti !== '' ? { ok: true, client } : check;
        },
      })),
  },
  {
    id: 'client-assertion-type-unchecked',
    clause: CLAUSE,
    bug: 'A token endpoint that takes any client_assertion_type for the JWT bearer one (it reads client_assertion alone): a valid assertion under another type is accepted.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        if (!form.has('client_assertion_type') || !form.has('client_assertion')) return exchange;
        form.set('client_assertion_type', observed.tokens.client_assertion.type);
        return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
      }),
  },
  {
    id: 'client-assertion-audience-host-only',
    clause: CLAUSE,
    bug: "A check of the assertion's aud that compares its host with the tenant's and nothing else (new URL(aud).host): an assertion addressed to another path of the tenant's host (https://<tenant>/userinfo) is accepted; one addressed to another host is still refused.",
    install: forgives(why.audience, (assertion, built, host) =>
      audiencesOf(decodeJws(assertion)?.payload.aud).some((aud) => {
        const url = typeof aud === 'string' && URL.canParse(aud) ? new URL(aud) : undefined;
        return url !== undefined && built.tenant?.identityForIssuer(`${url.protocol}//${url.host}/`, host) !== undefined;
      }),
    ),
  },
  {
    id: 'client-assertion-client-id-not-compared',
    clause: 'token.endpoint.client-id',
    bug: "An authenticator that checks the client_id parameter names a client of the tenant and then authenticates the client the assertion's sub names, never comparing the two: a valid assertion of the key client beside the client_id of another client gets the key client a token instead of a refusal; a client_id that names no client is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editForm(app, (form) => {
        const assertion = form.get('client_assertion');
        const clientId = form.get('client_id');
        const sub = assertion ? decodeJws(assertion)?.payload.sub : undefined;
        if (typeof sub !== 'string' || clientId === null || clientId === sub || !store().client(clientId)) return undefined;
        form.set('client_id', sub);
        return form;
      });
    },
  },
  {
    id: 'jwt-bearer-grant-taken-as-client-credentials',
    clause: 'token.endpoint.grant-type',
    bug: `A token endpoint that adds the JWT bearer grant (${JWT_BEARER_GRANT}) for service accounts by handing its assertion to the client-assertion authenticator and issuing as for client credentials: a valid client assertion sent as that grant's assertion gets a token instead of 400 unsupported_grant_type; the grant without an assertion is still refused.`,
    install: (app) =>
      editForm(app, (form) => {
        const assertion = form.get('assertion');
        if (form.get('grant_type') !== JWT_BEARER_GRANT || assertion === null || form.has('client_assertion')) return undefined;
        form.set('grant_type', 'client_credentials');
        form.delete('assertion');
        form.set('client_assertion', assertion);
        form.set('client_assertion_type', observed.tokens.client_assertion.type);
        return form;
      }),
  },
  {
    id: 'client-assertion-lifetime-in-whole-minutes',
    clause: CLAUSE,
    bug: `An assertion's lifetime counted in whole minutes (Math.floor((exp - iat) / 60) against ${observed.tokens.client_assertion.max_lifetime_seconds.value / 60}): an assertion living up to ${observed.tokens.client_assertion.max_lifetime_seconds.value + 59} s is accepted; one living six minutes or more is still refused.`,
    install: forgives(why.lifetime, (assertion) => {
      const { exp, iat } = decodeJws(assertion)?.payload ?? {};
      const minutes = typeof exp === 'number' && typeof iat === 'number' ? Math.floor((exp - iat) / 60) : Infinity;
      return minutes * 60 <= observed.tokens.client_assertion.max_lifetime_seconds.value;
    }),
  },
  {
    id: 'client-assertion-jti-length-unchecked',
    clause: CLAUSE,
    bug: `The assertion's claim lengths checked for iss and sub only: a jti over its ${observed.tokens.client_assertion.max_claim_length.value.jti} characters is accepted.`,
    install: forgives(why.claimTooLong('jti')),
  },
]);
