// The token endpoint: a tenant setting that fills in a default audience where the request names
// none; and the observed rule: a Node issuer on moment-timezone that adds the lifetime as one
// calendar day of the server's zone. Other requests are answered as before.
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { captureAll } from '../../support/captured.ts';
import { parametersOf, withParameters } from '../../support/parameter-edits.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const ZONE = 'Europe/Berlin';
const DAY_SECONDS = 86_400;
const zoneClock = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** The zone's offset from UTC at this Unix time, in seconds. */
function offsetSeconds(unixSeconds: number): number {
  const parts = Object.fromEntries(zoneClock.formatToParts(new Date(unixSeconds * 1000)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!) / 1000;
  return wall - unixSeconds;
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho37-audience-tenant-default-audience',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'A token endpoint whose tenant settings carry a "default audience" (an authorization-server option for first-party SPAs), set to the management API and applied to every grant: a client-credentials request with no audience parameter at all is issued a management token (200) instead of refused; a request naming another audience than the management API is answered as before.',
    install: (app) => {
      const components = captureAll(app);
      editRequests(app, 'token', (exchange) => {
        const parameters = parametersOf(exchange);
        if (!parameters || parameters.audience !== undefined || parameters.grant_type !== 'client_credentials') return exchange;
        return withParameters(exchange, { ...parameters, audience: components().tenant.audience });
      });
    },
  },
  {
    id: 'ho37-token-lifetime-moment-local-day',
    clause: 'token.lifetime',
    level: 'observed',
    bug: `A Node issuer that works out exp as moment.tz(now, "${ZONE}").add(1, "day").unix() (the lifetime configured as "1 day") and expires_in as exp - iat, and moment adds a calendar day of the zone, keeping the wall-clock time: a token issued on the day before a daylight-saving change lives 23 hours (82800 s, in the spring) or 25 hours (in the autumn) and its answer says so; on any other day exp = iat + 86400 as before.`,
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          const claims = decodeJwt(issued.accessToken);
          if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') return issued;
          const exp = claims.iat + DAY_SECONDS + offsetSeconds(claims.iat) - offsetSeconds(claims.iat + DAY_SECONDS);
          if (exp === claims.exp) return issued;
          const accessToken = await new SignJWT({ ...claims, exp })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken, expiresIn: exp - claims.iat };
        },
      })),
  },
]);
