// Token verification: an Oracle PL/SQL verifier whose audience check an empty string (NULL in
// Oracle) passes, a Classic ASP include that cuts the credential out of the header with Mid(auth, 7)
// and no separator check; and the observed rules: a MuleSoft DataWeave transform that takes a time
// above ten digits for milliseconds, and an SAP ABAP handler that holds the subject in a CHAR 40
// field. Each changes the verdict on its near miss; other tokens are judged as before.
import { operationKeys } from '../../../../specs/index.ts';
import { editRequests } from '../../support/route-edits.ts';
import { forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** The first digit count DataWeave's mapping reads as milliseconds (after 2286-11-20 in seconds). */
const SECONDS_CEILING = 9_999_999_999;
/** The length of the ABAP field the subject is moved into: a 32-character client id and "@clients". */
const SUBJECT_FIELD = 40;
/** "Bearer" followed at once by the token, with no space: what Mid(auth, 7) reads past. */
const BEARER_GLUED = /^bearer([A-Za-z0-9_-][^ ]*)$/i;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho32-aud-plsql-empty-string-null',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'An Oracle PL/SQL verifier (an APEX REST handler) that reads the audience with apex_json.get_varchar2(\'aud\') and refuses with IF l_aud <> c_audience THEN raise_application_error(...), and Oracle stores an empty string as NULL, for which <> is not true: a correctly signed token whose aud is "" is accepted by every operation instead of 401; aud "https://other.example/api/v2/" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (claims.aud !== '' || typeof claims.iss !== 'string') return claims;
        const identity = tenant.identityForIssuer(claims.iss);
        return identity ? { ...claims, aud: identity.audience } : claims;
      }),
  },
  {
    id: 'ho32-bearer-classic-asp-mid-no-space',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'A Classic ASP include that reads the credential with If UCase(Left(auth, 6)) = "BEARER" Then token = Trim(Mid(auth, 7)), never checking that a space follows the scheme: "Bearer<valid token>" (no space, not a Bearer credential) is accepted by every operation instead of 401; "Bearerx<valid token>" is still refused.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const credential = exchange.headers.authorization;
          const token = typeof credential === 'string' ? BEARER_GLUED.exec(credential)?.[1] : undefined;
          return token === undefined ? exchange : { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${token}` } };
        });
      }
    },
  },
  {
    id: 'ho32-iat-dataweave-millis-heuristic',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `A MuleSoft API whose DataWeave claim mapping reads each time as if (t > ${SECONDS_CEILING}) t as DateTime {unit: "milliseconds"} else t as DateTime (written for a partner whose tokens count in milliseconds): a correctly signed token whose iat (or nbf) is the present time in milliseconds, far in the future as seconds, is accepted instead of 401; an iat an hour ahead in seconds is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const fixed = { ...claims };
        let changed = false;
        for (const name of ['iat', 'nbf'] as const) {
          const value = claims[name];
          if (typeof value === 'number' && value > SECONDS_CEILING) {
            fixed[name] = Math.floor(value / 1000);
            changed = true;
          }
        }
        return changed ? fixed : claims;
      }),
  },
  {
    id: 'ho32-sub-abap-char40-truncated',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `An SAP ABAP (ICF) handler that moves the subject into DATA lv_sub TYPE c LENGTH ${SUBJECT_FIELD} (sized for a 32-character client id and "@clients") before comparing it with lv_azp && '@clients', and ABAP cuts a longer string to the field without a word: a correctly signed token whose sub is "<azp>@clients" followed by anything is accepted instead of 401; "<azp>@client" is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.sub === 'string' && claims.sub.length > SUBJECT_FIELD
          ? { ...claims, sub: claims.sub.slice(0, SUBJECT_FIELD) }
          : claims,
      ),
  },
]);
