// The token endpoint: an SAP ABAP token service comparing the secret in a character field, where
// trailing blanks do not count; and the observed rules: a ColdFusion endpoint whose serializeJSON
// writes the answer's keys in capitals, and an Oracle PL/SQL issuer counting exp from SYSDATE, the
// database server's local time. Each changes one thing; the rest is as before.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { secretMatching } from '../../support/parameter-edits.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The database server's offset from UTC (Central European Time), in seconds. */
const DATABASE_OFFSET = 3600;

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho32-secret-abap-char-trailing-blanks',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'An SAP ABAP token service that moves the client\'s secret into a TYPE c LENGTH 64 field and compares it with IF lv_secret = ls_client-secret, and ABAP compares character fields with their trailing blanks ignored: the client\'s secret followed by spaces gets a token instead of 401; the secret followed by "x" is still refused.',
    install: secretMatching(
      (sent, stored) => sent.length > stored.length && sent.startsWith(stored) && /^ +$/.test(sent.slice(stored.length)),
    ),
  },
  {
    id: 'ho32-token-answer-coldfusion-uppercase-keys',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'A ColdFusion token endpoint that builds its answer as a struct with dot notation (result.access_token = ...) and writes it with serializeJSON, which writes such keys in capitals: the answer is {"ACCESS_TOKEN", "TOKEN_TYPE", "EXPIRES_IN", "SCOPE"} instead of the lower-case members; the values, and the error answers, are as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status === 200 && isObject(reply.body)
          ? { ...reply, body: Object.fromEntries(Object.entries(reply.body).map(([name, value]) => [name.toUpperCase(), value])) }
          : reply,
      ),
  },
  {
    id: 'ho32-token-exp-oracle-sysdate-local',
    clause: 'token.lifetime',
    level: 'observed',
    bug: `An Oracle PL/SQL issuer that takes iat from the application (Unix time, UTC) and computes exp in the database as ROUND((SYSDATE + 1 - DATE '1970-01-01') * 86400), and SYSDATE is the server's local time (CET, UTC+1): every token's exp is iat + ${86400 + DATABASE_OFFSET} instead of iat + 86400; expires_in in the answer is still 86400.`,
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          const claims = jsonObjectOf(issued.accessToken.split('.')[1]);
          if (!claims || typeof claims.exp !== 'number') return issued;
          const accessToken = await new SignJWT({ ...claims, exp: claims.exp + DATABASE_OFFSET })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken };
        },
      })),
  },
]);
