// The ticket body: a one-element array unwrapped where a number is expected, a comma-separated
// string split into an array, "true"/"false" strings read as booleans, a space-separated scope
// string split, and a null feature switch dropped as if absent. Each lets its near miss through;
// the plainly wrong value is refused as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho17-ttl-single-element-array',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'The body read through a query-string style normaliser that unwraps one-element arrays (qs arrays of one value): ttl_sec [3600] is taken as 3600 and the ticket created instead of 400; [3600, 60] is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && Array.isArray(body.ttl_sec) && body.ttl_sec.length === 1 && typeof body.ttl_sec[0] === 'number'
          ? { ...body, ttl_sec: body.ttl_sec[0] }
          : body,
      ),
  },
  {
    id: 'ho17-enabled-clients-comma-string',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'enabled_clients accepted as a comma-separated string and split (value.split(","), the habit of list query parameters): "<id>,<id>" is taken as an array and the ticket created instead of 400; a number is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && typeof body.enabled_clients === 'string' && body.enabled_clients.length > 0
          ? { ...body, enabled_clients: body.enabled_clients.split(',') }
          : body,
      ),
  },
  {
    id: 'ho17-show-as-button-boolean-string',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    level: 'contract',
    bug: 'show_as_button read with an environment-variable style boolean parser (value === true || value === "true"): "true" and "false" are taken as booleans and the ticket created instead of 400; "yes" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Array.isArray(body.enabled_organizations)) return body;
        let changed = false;
        const items = body.enabled_organizations.map((item: unknown) => {
          if (!isObject(item) || (item.show_as_button !== 'true' && item.show_as_button !== 'false')) return item;
          changed = true;
          return { ...item, show_as_button: item.show_as_button === 'true' };
        });
        return changed ? { ...body, enabled_organizations: items } : body;
      }),
  },
  {
    id: 'ho17-provisioning-scopes-space-string',
    clause: 'sso-ticket.body.provisioning_config.scopes.type',
    level: 'contract',
    bug: 'provisioning_config.scopes accepted as an OAuth scope string and split on spaces (the token endpoint\'s habit): "get:users post:users" is taken as an array and the ticket created instead of 400; a number is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && isObject(body.provisioning_config) && typeof body.provisioning_config.scopes === 'string'
          ? {
              ...body,
              provisioning_config: { ...body.provisioning_config, scopes: body.provisioning_config.scopes.split(' ').filter(Boolean) },
            }
          : body,
      ),
  },
  {
    id: 'ho17-feature-switch-null-dropped',
    clause: 'sso-ticket.body.enabled_features.sso.type',
    level: 'contract',
    bug: 'The body passed through a removeNulls step (null taken for "not sent", as an ORM\'s partial update does) before validation: enabled_features.sso null is dropped and the ticket created instead of 400; "on" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.enabled_features) || body.enabled_features.sso !== null) return body;
        const { sso: _dropped, ...rest } = body.enabled_features;
        return { ...body, enabled_features: rest };
      }),
  },
]);
