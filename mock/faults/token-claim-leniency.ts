// A verifier that checks every claim but compares one of them leniently, so that the closest
// wrong values pass (spec 5, 7): a clock skew of minutes on exp or nbf, an issuer or audience
// normalised (trailing slash, letter case), matched by its start, its end or its path. Some are the
// shared verifier's (every operation), some one route's own token check (forgiveClaimAt): those
// break the clause at that operation only, so only its row of the near-miss table catches them.
import { audiencePath, observed } from '../../specs/index.ts';
import { faultFamily } from './fault.ts';
import {
  endsWithItsHost,
  matchesAsUnescapedPattern,
  sameIgnoringCase,
  sameOnceHostMapped,
  samePercentDecoded,
  sameWithoutHostDot,
  sameWithoutStageSegment,
  sameWithoutTrailingSlash,
  sameWithoutUserinfo,
} from './support/near-misses.ts';
import { alsoAccept, forgiveClaim, forgiveClaimAt, signedPayload, type ForgivingParts } from './support/verifier-edits.ts';
import { parseKeepingFirst } from './support/first-member.ts';

type Claims = Record<string, unknown>;

/** The default clock skew of some JWT libraries: five minutes, where the mock allows 30 s. */
const LIBRARY_LEEWAY_SECONDS = 300;
/** A leeway of a minute: twice the tolerance the mock allows. */
const A_MINUTE_SECONDS = 60;
/** The longest lifetime a capped expiry allows: a day. */
const A_DAY_SECONDS = 86_400;
/** What a forgiven time claim is set to: far enough that the verifier's own check passes. */
const FAR_FUTURE_SECONDS = Number.MAX_SAFE_INTEGER;

/** An issuer on a loopback address: scheme, host name and port. */
const LOOPBACK_ISSUER = /^(https?):\/\/(127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})\/$/;

const nowSeconds = ({ clock }: ForgivingParts) => clock.now() / 1000;
const audienceOf = (claims: Claims) => String(Array.isArray(claims.aud) ? claims.aud[0] : claims.aud);

/** Sets `claim` to the tenant's own value where `matches(value, tenant's value)`. */
function issuerMatching(matches: (iss: string, issuer: string) => boolean) {
  return (claims: Claims, { tenant }: ForgivingParts): Claims =>
    typeof claims.iss === 'string' && matches(claims.iss, tenant.issuer) ? { ...claims, iss: tenant.issuer } : claims;
}

function audienceMatching(matches: (aud: string, audience: string) => boolean) {
  return (claims: Claims, { tenant }: ForgivingParts): Claims =>
    matches(audienceOf(claims), tenant.audience) ? { ...claims, aud: tenant.audience } : claims;
}

/** The URL's origin as written, followed by the rest as a URL parser resolves it (dot segments removed); none for a URL with white space. */
function withPathResolved(url: string): string | undefined {
  const slash = url.indexOf('/', url.indexOf('://') + 3);
  return slash < 0 || /\s/.test(url) || !URL.canParse(url)
    ? undefined
    : `${url.slice(0, slash)}${new URL(url).href.slice(new URL(url).origin.length)}`;
}

function pathOf(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).pathname : undefined;
}

/** .NET's ClaimTypes.NameIdentifier, the claim type its inbound map gives sub. */
const NAME_IDENTIFIER = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier';

export const tokenClaimLeniencyFaults = faultFamily([
  {
    id: 'vault-subject-url-decoded',
    clause: 'auth.token.claims',
    bug: 'The vault read URL-decodes the subject before it compares it with "<azp>@clients" (its subjects also go into URL paths): a correctly signed token whose sub is "<azp>%40clients" reads a connection instead of 401; the other operations, and a sub of "<azp>%41clients", still refuse it.',
    install: (app) =>
      forgiveClaimAt(app, 'vault', (claims) => {
        if (typeof claims.sub !== 'string' || !claims.sub.includes('%40')) return claims;
        return { ...claims, sub: claims.sub.replaceAll('%40', '@') };
      }),
  },
  {
    id: 'subject-name-identifier-first',
    clause: 'auth.token.claims',
    bug: 'The verifier reads the caller\'s subject as ASP.NET Core does with MapInboundClaims left on: sub is mapped to the name-identifier claim type, and a token that already carries that claim has its own value found first: a correctly signed token whose sub names another client but whose name-identifier claim is "<azp>@clients" is accepted instead of 401; the same sub without that claim is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const identifier = claims[NAME_IDENTIFIER];
        return typeof identifier === 'string' ? { ...claims, sub: identifier } : claims;
      }),
  },
  {
    id: 'claim-names-matched-without-case',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The claims decoded into a record whose members are matched without regard to case, the last match winning (as Go\'s encoding/json does): a token whose nbf is an hour ahead but which carries "NBF" of a minute ago after it is accepted instead of 401; the same token without "NBF" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const twin = Object.keys(claims)
          .filter((name) => name !== 'nbf' && name.toLowerCase() === 'nbf')
          .pop();
        return twin === undefined ? claims : { ...claims, nbf: claims[twin] };
      }),
  },
  {
    id: 'claims-first-member-kept',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "The claims decoded by a parser that keeps the first member of a name given twice (a proplist, a streaming reader): a correctly signed token whose iss or aud is given twice, the tenant's value first and another last, is accepted by every operation instead of 401; a token whose only iss is another is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, parts) => {
        if ((await signedPayload(token, parts.keys)) === undefined) return undefined;
        const first = parseKeepingFirst(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
        return first !== null && typeof first === 'object' && !Array.isArray(first) ? (first as Record<string, unknown>) : undefined;
      }),
  },
  {
    id: 'accepts-token-without-exp',
    clause: 'auth.token.claims',
    bug: 'A verifier that checks exp only when it is there (exp is optional in RFC 7519): a token of the tenant without exp never expires.',
    install: (app) => forgiveClaim(app, (claims) => (claims.exp === undefined ? { ...claims, exp: FAR_FUTURE_SECONDS } : claims)),
  },
  {
    id: 'iat-null-taken-for-absent',
    clause: 'auth.token.claims',
    bug: 'iat checked only when it is not null (claims.iat != null, null taken for a claim not sent): a token with "iat": null is accepted instead of 401; an iat that is a string is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (claims.iat !== null) return claims;
        const { iat: _ignored, ...rest } = claims;
        return rest;
      }),
  },
  {
    id: 'iat-unchecked-beside-nbf',
    clause: 'auth.token.claims',
    bug: 'The start of validity checked once, on nbf where the token has one and on iat only otherwise (a validator that takes nbf for the more precise claim): a token with an nbf in the past and an iat in the future is accepted instead of 401; the same iat without nbf is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, parts) =>
        claims.nbf !== undefined && typeof claims.iat === 'number' && claims.iat > nowSeconds(parts)
          ? { ...claims, iat: Math.floor(nowSeconds(parts)) }
          : claims,
      ),
  },
  {
    id: 'accepts-iat-in-the-future',
    clause: 'auth.token.claims',
    bug: 'A verifier that does not look at iat: a token issued two minutes in the future is accepted.',
    install: (app) =>
      forgiveClaim(app, (claims, parts) =>
        typeof claims.iat === 'number' && claims.iat > nowSeconds(parts) ? { ...claims, iat: Math.floor(nowSeconds(parts)) } : claims,
      ),
  },
  {
    id: 'exp-with-five-minute-leeway',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "A verifier left at its library's default clock skew of five minutes on exp: a token that expired two minutes ago is accepted by every operation (one that expired an hour ago is still refused).",
    install: (app) =>
      forgiveClaim(app, (claims, parts) =>
        typeof claims.exp === 'number' && claims.exp + LIBRARY_LEEWAY_SECONDS > nowSeconds(parts)
          ? { ...claims, exp: FAR_FUTURE_SECONDS }
          : claims,
      ),
  },
  {
    id: 'exp-with-a-minute-of-leeway',
    clause: 'redeliver.errors.401.invalid-token',
    bug: `A verifier given a leeway of a minute on exp (a mobile backend's setting, where device clocks drift), where the service allows ${observed.tokens.clock_skew_seconds.value} s: a token that expired 45 seconds ago is accepted by every operation; one that expired two minutes ago is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims, parts) =>
        typeof claims.exp === 'number' && claims.exp + A_MINUTE_SECONDS > nowSeconds(parts)
          ? { ...claims, exp: FAR_FUTURE_SECONDS }
          : claims,
      ),
  },
  {
    id: 'exp-compared-as-bigint',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'exp compared in milliseconds as BigInt(exp) * 1000n (written for times past 2^53 ms) inside a try whose catch, meant for claims of the wrong type that a later schema check refuses, lets the claim pass; BigInt of a non-integer throws a RangeError, and no later check looks at a number: a correctly signed token that expired two minutes ago plus half a second (a NumericDate may have a fraction) is accepted by every operation instead of 401; the same token with a whole exp is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.exp === 'number' && !Number.isInteger(claims.exp) ? { ...claims, exp: FAR_FUTURE_SECONDS } : claims,
      ),
  },
  {
    id: 'vault-nbf-with-five-minute-leeway',
    clause: 'auth.bearer.required',
    bug: "The vault read's own token check allows five minutes for clients whose clocks run ahead: a token valid only two minutes from now (nbf and iat ahead) is accepted there (an hour ahead is still refused; the other operations refuse both).",
    install: (app) =>
      forgiveClaimAt(app, 'vault', (claims, parts) => {
        const ahead = Math.max(Number(claims.nbf ?? 0), Number(claims.iat ?? 0));
        if (ahead > nowSeconds(parts) + LIBRARY_LEEWAY_SECONDS) return claims;
        const { nbf: _nbf, ...rest } = claims;
        return { ...rest, iat: Math.floor(nowSeconds(parts)) };
      }),
  },
  {
    id: 'issuer-without-trailing-slash',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "Issuers normalised before they are compared, trailing slashes trimmed: a token whose iss is the tenant's issuer without its slash is accepted by every operation.",
    install: (app) => forgiveClaim(app, issuerMatching(sameWithoutTrailingSlash)),
  },
  {
    id: 'ticket-issuer-matched-by-prefix',
    clause: 'errors.401.all-operations',
    bug: "Ticket creation's own token check takes any issuer that starts with the tenant's (meant for paths under it): a token whose iss is the tenant's issuer with a path segment added is accepted there (401 elsewhere).",
    install: (app) =>
      forgiveClaimAt(
        app,
        'sso-ticket',
        issuerMatching((iss, issuer) => iss.startsWith(issuer)),
      ),
  },
  {
    id: 'issuer-matched-by-host-suffix',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "An issuer check that takes any host ending in the tenant's domain, meant for custom domains: a token whose iss is https://other-<tenant domain>/ is accepted by every operation.",
    install: (app) => forgiveClaim(app, issuerMatching(endsWithItsHost)),
  },
  {
    id: 'vault-issuer-case-insensitive',
    clause: 'auth.bearer.required',
    bug: "The vault read's own token check compares issuers as host names, ignoring case: a token whose iss is the tenant's issuer in capitals is accepted there (RFC 7519 compares them as they are; 401 elsewhere).",
    install: (app) => forgiveClaimAt(app, 'vault', issuerMatching(sameIgnoringCase)),
  },
  {
    id: 'issuer-path-resolved',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "The issuer's path tidied by a URL parser before it is compared (its origin kept as written, then new URL(iss).pathname): a token whose iss is the tenant's issuer with a dot segment in its path (https://<tenant>/./ or /a/../), which the parser resolves away, is accepted by every operation.",
    install: (app) =>
      forgiveClaim(
        app,
        issuerMatching((iss, issuer) => withPathResolved(iss) === issuer),
      ),
  },
  {
    id: 'iat-in-milliseconds-scaled',
    clause: 'auth.token.claims',
    bug: 'Time claims above 10^11 taken for milliseconds and divided by 1000 (a heuristic for issuers that write Date.now()): a token whose iat is the time now in milliseconds, some fifty thousand years ahead, is accepted.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.iat === 'number' && claims.iat > 1e11 ? { ...claims, iat: Math.floor(claims.iat / 1000) } : claims,
      ),
  },
  {
    id: 'nbf-in-milliseconds-scaled',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'nbf above 10^11 taken for milliseconds and divided by 1000 (the same heuristic, written into the not-before check alone): a token whose nbf is a minute ago in milliseconds, some fifty thousand years ahead, is accepted by every operation instead of 401.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.nbf === 'number' && claims.nbf > 1e11 ? { ...claims, nbf: Math.floor(claims.nbf / 1000) } : claims,
      ),
  },
  {
    id: 'subject-suffix-case-insensitive',
    clause: 'auth.token.claims',
    bug: `The subject's suffix compared ignoring case: a token whose sub is <client id>${observed.tokens.subject_suffix.toUpperCase()} is accepted.`,
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const suffix = observed.tokens.subject_suffix;
        const sub = claims.sub;
        return typeof sub === 'string' && sub.toLowerCase().endsWith(suffix) && !sub.endsWith(suffix)
          ? { ...claims, sub: `${sub.slice(0, -suffix.length)}${suffix}` }
          : claims;
      }),
  },
  {
    id: 'client-claim-width-folded',
    clause: 'auth.token.claims',
    bug: 'The azp claim normalised with NFKC before the client is looked up by it (the client table keys its ids so, for names typed on phones): a token whose azp is the client id with a letter written in its fullwidth form, sub naming the client as issued, is accepted instead of 401; azp in capitals is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.azp === 'string' && claims.azp.normalize('NFKC') !== claims.azp
          ? { ...claims, azp: claims.azp.normalize('NFKC') }
          : claims,
      ),
  },
  {
    id: 'issuer-www-optional',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The issuer matched by a pattern written to take the site with or without "www." (^https://(www\\.)?<host>/$): a token whose iss is the tenant\'s issuer with "www." before its host is accepted by every operation.',
    install: (app) =>
      forgiveClaim(
        app,
        issuerMatching((iss, issuer) => iss === issuer.replace(/^(\w+:\/\/)/, '$1www.')),
      ),
  },
  {
    id: 'audience-www-stripped',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The audience\'s host taken without a leading "www." before it is compared (a helper that folds a site\'s marketing host onto its apex): a token whose aud is the management audience with "www." before its host is accepted by every operation.',
    install: (app) =>
      forgiveClaim(
        app,
        audienceMatching((aud, audience) => aud.replace(/^(\w+:\/\/)www\./, '$1') === audience),
      ),
  },
  {
    id: 'audience-fragment-dropped',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The audience compared without its fragment (url.origin + url.pathname + url.search): a token whose aud is the management audience followed by "#x" is accepted by every operation.',
    install: (app) =>
      forgiveClaim(
        app,
        audienceMatching((aud, audience) => aud !== audience && aud.split('#')[0] === audience),
      ),
  },
  {
    id: 'audience-host-fully-qualified',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "Audiences compared after their host names are made canonical, a fully qualified name's trailing dot taken off: a token whose aud is the management audience with its host written tenant.example.com. is accepted by every operation.",
    install: (app) => forgiveClaim(app, audienceMatching(sameWithoutHostDot)),
  },
  {
    id: 'issuer-userinfo-dropped',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "The issuer compared as the URL parser's origin and path, which leave out a user name before the host: a token whose iss is https://someone@<tenant>/ is accepted by every operation.",
    install: (app) => forgiveClaim(app, issuerMatching(sameWithoutUserinfo)),
  },
  {
    id: 'audience-percent-decoded',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The audience percent-decoded before it is compared (a helper for URLs read from a query string): a token whose aud is the management audience with one character written %XX (/api/v%32/) is accepted by every operation.',
    install: (app) => forgiveClaim(app, audienceMatching(samePercentDecoded)),
  },
  {
    id: 'audience-host-idna-mapped',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "The audience's host mapped by IDNA (domainToASCII, for internationalised custom domains) before it is compared: a token whose aud is the management audience with the dots of its host written as ideographic full stops (U+3002) is accepted by every operation.",
    install: (app) => forgiveClaim(app, audienceMatching(sameOnceHostMapped)),
  },
  {
    id: 'issuer-pattern-dots-unescaped',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The issuer checked with a pattern made of the tenant\'s issuer without escaping it (new RegExp(`^${issuer}$`)), each "." matching any character: a token whose iss is https://tenant-example.com/ is accepted by every operation.',
    install: (app) => forgiveClaim(app, issuerMatching(matchesAsUnescapedPattern)),
  },
  {
    id: 'audience-read-as-text',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The audience read as String(aud[0]) where aud is a list, written for a string or a list of strings: a token whose aud is a list holding a list holding the management audience, which names no audience, reads as that audience and is accepted by every operation.',
    install: (app) =>
      forgiveClaim(app, (claims, parts) =>
        Array.isArray(claims.aud) && Array.isArray(claims.aud[0])
          ? audienceMatching((aud, audience) => aud === audience)(claims, parts)
          : claims,
      ),
  },
  {
    id: 'audience-without-trailing-slash',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'Audiences normalised before they are compared, trailing slashes trimmed: a token whose aud is the management audience without its slash is accepted by every operation.',
    install: (app) => forgiveClaim(app, audienceMatching(sameWithoutTrailingSlash)),
  },
  {
    id: 'audience-matched-by-prefix',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'An audience check by prefix, so that every path under /api/v2/ passes: a token whose aud is the management audience with a path segment added is accepted by every operation.',
    install: (app) =>
      forgiveClaim(
        app,
        audienceMatching((aud, audience) => aud.startsWith(audience)),
      ),
  },
  {
    id: 'expiry-capped-by-max-lifetime',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The expiry taken as Math.min(exp, iat + a maximum lifetime of a day), to refuse tokens minted for too long: without iat the sum is NaN, Math.min gives NaN and no comparison with the clock refuses it, so a correctly signed token that expired two minutes ago and has no iat is accepted by every operation instead of 401; the same token with its iat is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.exp === 'number' && Number.isNaN(Math.min(claims.exp, Number(claims.iat) + A_DAY_SECONDS))
          ? { ...claims, exp: FAR_FUTURE_SECONDS }
          : claims,
      ),
  },
  {
    id: 'validity-start-as-later-of-nbf-and-iat',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The start of validity taken as Math.max(nbf, iat), one check for both claims: without iat it is NaN, and NaN is never after the clock, so a correctly signed token whose nbf is two minutes ahead and that has no iat is accepted by every operation instead of 401; the same token with an iat of now is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const { nbf, iat } = claims;
        if (typeof nbf !== 'number' || !Number.isNaN(Math.max(nbf, Number(iat)))) return claims;
        const { nbf: _skipped, ...rest } = claims;
        return rest;
      }),
  },
  {
    id: 'nbf-list-read-as-audience',
    clause: 'auth.token.claims',
    bug: 'Every claim read through the helper written for aud, which may be a list and is read as its first item: a correctly signed token whose nbf is [<a minute ago>] is accepted by every operation instead of 401 (the real service refuses a time that is not a number); an nbf of "soon" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const { nbf } = claims;
        return Array.isArray(nbf) && typeof nbf[0] === 'number' ? { ...claims, nbf: nbf[0] } : claims;
      }),
  },
  {
    id: 'time-claims-taken-as-dates',
    clause: 'auth.token.claims',
    bug: 'Time claims passed through a helper that accepts a Date, a date string or seconds (new Date(value) for a string), as a scheduling library does: a correctly signed token whose exp is an ISO 8601 date an hour ahead, or whose iat is one in the past, is accepted instead of 401; a date already past is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const read = { ...claims };
        for (const name of ['exp', 'iat']) {
          const value = read[name];
          const ms = typeof value === 'string' && !/^\d+$/.test(value) ? new Date(value).getTime() : NaN;
          if (!Number.isNaN(ms)) read[name] = Math.floor(ms / 1000);
        }
        return read;
      }),
  },
  {
    id: 'client-claims-read-as-text',
    clause: 'auth.token.claims',
    bug: 'The client claims (azp, sub) read with String() before the client is looked up: a correctly signed token whose azp or sub is a list holding the right value (["<client id>"]) is accepted instead of 401; a list holding another value is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const read = { ...claims };
        for (const name of ['azp', 'sub']) if (Array.isArray(read[name])) read[name] = String(read[name]);
        return read;
      }),
  },
  {
    id: 'subject-checked-by-its-ends',
    clause: 'auth.token.claims',
    bug: `The subject checked as sub.startsWith(azp) && sub.endsWith("${observed.tokens.subject_suffix}"), its two ends apart: a correctly signed token whose sub is "<azp>${observed.tokens.subject_suffix}${observed.tokens.subject_suffix}" is accepted by every operation instead of 401; a sub naming another client is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const { sub, azp } = claims;
        const suffix = observed.tokens.subject_suffix;
        return typeof sub === 'string' && typeof azp === 'string' && sub.startsWith(azp) && sub.endsWith(suffix)
          ? { ...claims, sub: `${azp}${suffix}` }
          : claims;
      }),
  },
  {
    id: 'subject-rule-skipped-without-gty',
    clause: 'auth.token.claims',
    bug: `The subject rule (sub = <azp>${observed.tokens.subject_suffix}) kept behind a check for gty, so that tokens issued before gty existed would not fail it: a correctly signed token without gty whose sub is a user's ("auth0|someone") or the bare client id is accepted by every operation instead of 401; with gty present the rule holds.`,
    install: (app) =>
      forgiveClaim(app, (claims) =>
        claims.gty === undefined && typeof claims.azp === 'string'
          ? { ...claims, sub: `${claims.azp}${observed.tokens.subject_suffix}` }
          : claims,
      ),
  },
  {
    id: 'audience-stage-segment-stripped',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "Audiences compared after the API gateway's path mapping that strips the first segment of a path (a stage name, /prod/): a token whose aud is the management audience with a segment between its origin and its path (https://<tenant domain>/other/api/v2/) is accepted by every operation.",
    install: (app) => forgiveClaim(app, audienceMatching(sameWithoutStageSegment)),
  },
  {
    id: 'vault-audience-by-path-only',
    clause: 'errors.401.all-operations',
    bug: "The vault read's own token check, behind a proxy that rewrites hosts, compares only the audience's path /api/v2/: a token for https://other-<tenant domain>/api/v2/ is accepted there (401 elsewhere).",
    install: (app) =>
      forgiveClaimAt(
        app,
        'vault',
        audienceMatching((aud, audience) => pathOf(aud) !== undefined && pathOf(aud) === pathOf(audience)),
      ),
  },
  {
    id: 'audience-tenant-issuer-accepted',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "A token addressed to the tenant itself taken for one addressed to the interface (an audience list that holds the issuer, as an ID token's or a client assertion's aud names it): a correctly signed token whose aud is the tenant's issuer (its iss) is accepted by every operation instead of 401; another API's audience is still refused.",
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) =>
        audienceOf(claims) === tenant.issuer && claims.iss === tenant.issuer ? { ...claims, aud: tenant.audience } : claims,
      ),
  },
  {
    id: 'ticket-loopback-issuer-any-port',
    clause: 'errors.401.all-operations',
    bug: "Ticket creation's own token check matches issuers on a loopback address by scheme and host name, the port left out (a development convenience): a token whose iss is the tenant as the request reached it at another port, and aud that origin's /api/v2/, is accepted there (401 elsewhere).",
    install: (app) =>
      forgiveClaimAt(app, 'sso-ticket', (claims, { tenant }) => {
        const iss = typeof claims.iss === 'string' ? LOOPBACK_ISSUER.exec(claims.iss) : null;
        const { port } = new URL(tenant.identityReachedAt(undefined).issuer);
        if (!iss || iss[3] === port || audienceOf(claims) !== `${iss[1]}://${iss[2]}:${iss[3]}${audiencePath}`) return claims;
        const own = `${iss[1]}://${iss[2]}:${port}`;
        return { ...claims, iss: `${own}/`, aud: `${own}${audiencePath}` };
      }),
  },
  {
    id: 'audience-object-values-read',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The audience read as the list of an object\'s values where it is an object (a cast to an array, Object.values): a correctly signed token whose aud is {"value": <the management audience>} is accepted by every operation instead of 401; an object holding another API\'s audience is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.aud === 'object' && claims.aud !== null && !Array.isArray(claims.aud)
          ? { ...claims, aud: Object.values(claims.aud as Record<string, unknown>) }
          : claims,
      ),
  },
  {
    id: 'issuer-empty-components-dropped',
    clause: 'errors.401.all-operations',
    bug: 'The issuer parsed and written back before it is compared, which drops an empty query or fragment: a correctly signed token whose iss is the tenant\'s issuer followed by "?" or "#" is accepted by every operation instead of 401; "?x" is still refused.',
    install: (app) =>
      forgiveClaim(
        app,
        issuerMatching((iss, issuer) => iss !== issuer && /[?#]$/.test(iss) && iss.slice(0, -1) === issuer),
      ),
  },
  {
    id: 'ticket-audience-case-insensitive',
    clause: 'auth.bearer.required',
    bug: "Ticket creation's own token check compares audiences ignoring case: a token whose aud is the management audience in capitals is accepted there (401 elsewhere).",
    install: (app) => forgiveClaimAt(app, 'sso-ticket', audienceMatching(sameIgnoringCase)),
  },
]);
