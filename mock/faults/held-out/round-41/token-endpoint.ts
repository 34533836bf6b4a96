// The token endpoint: a Cloudflare Worker that compares the audience asked for by its path alone.
// Other requests are answered as before.
import { editTokenParameter } from '../../support/parameter-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const AUDIENCE_PATH = '/api/v2/';

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho41-workers-audience-by-url-pathname',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: `A Cloudflare Worker token endpoint that checks the audience with new URL(body.audience).pathname === "${AUDIENCE_PATH}" (written when the tenant's host changed per preview deployment, and the host was left to a later check that was never added), then mints for the tenant's own audience: an audience of another host with the path ${AUDIENCE_PATH} (https://api.other.example${AUDIENCE_PATH}) gets a management token (200) instead of a refusal; the tenant's host with another path (/api/v3/), and an audience that is no URL, are still refused.`,
    install: (app) =>
      editTokenParameter(app, 'audience', (value, _parameters, { tenant }) => {
        try {
          return new URL(value).pathname === AUDIENCE_PATH ? tenant.audience : undefined;
        } catch {
          return undefined;
        }
      }),
  },
]);
