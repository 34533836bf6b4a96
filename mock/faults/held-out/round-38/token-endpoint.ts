// The token endpoint: a lifetime table keyed by the kind of client with one row copied from the ID
// token's default; and an audience table that kept the retired version's identifier. Other
// requests are answered as before.
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { editTokenParameter } from '../../support/parameter-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** The lifetime the table gives clients that are not global: the ID token's default of ten hours. */
const ID_TOKEN_LIFETIME = 36_000;
const CURRENT_PATH = '/api/v2/';
const RETIRED_PATH = '/api/v1/';

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho38-lifetime-table-non-global-row',
    clause: 'token.lifetime',
    level: 'observed',
    bug: `A Go token service whose lifetimes come from a table keyed by the kind of client (map[ClientKind]time.Duration{Global: 24 * time.Hour, Regular: 10 * time.Hour}), the Regular row copied from the ID-token defaults next to it: a client that is not global is issued tokens with exp = iat + ${ID_TOKEN_LIFETIME} and expires_in ${ID_TOKEN_LIFETIME} instead of 86400; a global client's tokens live 86400 seconds as before.`,
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          if (client.global) return issued;
          const claims = decodeJwt(issued.accessToken);
          if (typeof claims.iat !== 'number') return issued;
          const accessToken = await new SignJWT({ ...claims, exp: claims.iat + ID_TOKEN_LIFETIME })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken, expiresIn: ID_TOKEN_LIFETIME };
        },
      })),
  },
  {
    id: 'ho38-audience-table-keeps-retired-version',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: `A token endpoint (Python, Flask) whose resource servers come from a table (identifier -> API) that the version migration extended with an alias row, the retired "https://<tenant host>${RETIRED_PATH}" pointing at the management API, so that old integrations kept getting tokens: a client-credentials request naming audience https://<tenant host>${RETIRED_PATH} is issued a management token (200) instead of refused; ${RETIRED_PATH.replace('1', '3')} is still refused.`,
    install: (app) =>
      editTokenParameter(app, 'audience', (value) =>
        value.endsWith(RETIRED_PATH) ? `${value.slice(0, -RETIRED_PATH.length)}${CURRENT_PATH}` : undefined,
      ),
  },
]);
