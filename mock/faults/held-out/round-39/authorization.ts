// Authorization: the observed rule: ticket creation whose permission check, for a ticket that edits
// an existing connection (connection_id given), asks for the connection scope instead of the
// ticket's. Other requests are judged as before.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { cards } from '../../../../specs/cards/index.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import { capture } from '../../support/captured.ts';
import { parametersOf } from '../../support/parameter-edits.ts';
import { editRequests } from '../../support/route-edits.ts';
import { signedPayload } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const TICKET_SCOPE = cards['sso-ticket'].scope.value;
const EDIT_SCOPE = 'update:connections';

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho39-ticket-edit-asks-update-connections',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `A NestJS ticket controller whose guard picks the permission from the body, @RequirePermissions(body.connection_id ? "${EDIT_SCOPE}" : "${TICKET_SCOPE}") (an edit ticket being read as an edit of the connection): a token holding ${EDIT_SCOPE} but not ${TICKET_SCOPE}, asking for a ticket with a connection_id, gets one (201) instead of 403; the same token without connection_id is still refused 403, and a token holding neither is refused with connection_id.`,
    install: (app) => {
      const keys = capture(app, 'keys');
      editRequests(app, 'sso-ticket', async (exchange) => {
        const body = parametersOf(exchange);
        if (!body || typeof body.connection_id !== 'string') return exchange;
        const token = bearerToken(exchange.headers.authorization);
        const claims = token === undefined ? undefined : await signedPayload(token, keys());
        if (token === undefined || !claims || typeof claims.scope !== 'string') return exchange;
        const scopes = claims.scope.split(' ').filter((s) => s.length > 0);
        if (scopes.includes(TICKET_SCOPE) || !scopes.includes(EDIT_SCOPE)) return exchange;
        const resigned = await new SignJWT({ ...claims, scope: [...scopes, TICKET_SCOPE].join(' ') })
          .setProtectedHeader(decodeProtectedHeader(token) as JWTHeaderParameters)
          .sign(keys().privateKey);
        return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${resigned}` } };
      });
    },
  },
]);
