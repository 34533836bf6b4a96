// The token endpoint: a C service on libmicrohttpd that looks the client up with
// strncmp(sent, stored, strlen(sent)), so a prefix of a client id names that client; a Lambda
// behind an ALB taking an http audience for https; and the observed rule: a token answer shaped
// like Cognito's, without scope. Other requests are judged as before.
import { capture } from '../../support/captured.ts';
import { editReplies, withoutBodyField } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho34-client-id-libmicrohttpd-strncmp-prefix',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'A C token service on libmicrohttpd that finds the client with strncmp(sent, client->id, strlen(sent)) == 0, which compares only as many characters as were sent: the client id without its last character (with the right secret) is issued a token instead of refused; the client id with its last character changed is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const sent = params.client_id;
        if (sent === undefined || sent.length === 0) return params;
        const clients = store().clients();
        if (clients.some((c) => c.clientId === sent)) return params;
        const named = clients.find((c) => c.clientId.startsWith(sent));
        return named ? { ...params, client_id: named.clientId } : params;
      });
    },
  },
  {
    id: 'ho34-audience-lambda-alb-http-scheme',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'An AWS Lambda (Serverless Framework) token function behind an ALB that ends TLS, which normalises the audience with audience.replace(/^http:\\/\\//, \'https://\') so that the scheme the ALB forwards does not matter: audience "http://<host>/api/v2/" is issued a token for the management interface instead of refused; "ftp://<host>/api/v2/" is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) =>
        typeof params.audience === 'string' && params.audience.startsWith('http://')
          ? { ...params, audience: `https://${params.audience.slice('http://'.length)}` }
          : params,
      ),
  },
  {
    id: 'ho34-token-response-cognito-no-scope',
    clause: 'token.observed.response',
    level: 'observed',
    bug: "An AWS Amplify token function whose answer mirrors Amazon Cognito's /oauth2/token response, which has access_token, expires_in and token_type and no scope: the token response has no scope field (the token itself still carries its scopes); the other fields are as before.",
    install: (app) =>
      editReplies(app, ['token'], (reply) => (reply.status === 200 && isObject(reply.body) ? withoutBodyField(reply, 'scope') : reply)),
  },
]);
