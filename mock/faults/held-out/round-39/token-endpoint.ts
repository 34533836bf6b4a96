// The token endpoint: a passport BasicStrategy that authenticates the client, and a handler that
// mints the token for the body's client_id. Other requests are answered as before.
import { captureAll } from '../../support/captured.ts';
import { parametersOf, withParameters } from '../../support/parameter-edits.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** The id and secret of an HTTP Basic Authorization value, if it is one. */
function basicOf(authorization: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const text = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 0 ? undefined : { id: decodeURIComponent(text.slice(0, colon)), secret: decodeURIComponent(text.slice(colon + 1)) };
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho39-basic-client-mints-for-body-client-id',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: "An Express token endpoint on passport's BasicStrategy (client_secret_basic) whose handler, shared with the client_secret_post path, mints for req.body.client_id ?? req.user.clientId: a request authenticated with one client's correct Basic credentials whose body names another client_id is issued a token of that other client (200) instead of refused 400; the Basic credentials alone get the authenticated client's token, and the other client_id with a wrong secret in the body is still refused 401.",
    install: (app) => {
      const components = captureAll(app);
      editRequests(app, 'token', (exchange) => {
        const basic = basicOf(exchange.headers.authorization);
        const parameters = parametersOf(exchange);
        if (!basic || !parameters || typeof parameters.client_id !== 'string' || parameters.client_id === basic.id) return exchange;
        const { store } = components();
        const authenticated = store.client(basic.id);
        const named = store.client(parameters.client_id);
        if (authenticated?.secret === undefined || authenticated.secret !== basic.secret || named?.secret === undefined) return exchange;
        const { authorization: _basic, ...headers } = exchange.headers;
        return withParameters({ ...exchange, headers }, { ...parameters, client_secret: named.secret });
      });
    },
  },
]);
