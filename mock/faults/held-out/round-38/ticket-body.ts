// The ticket body: a class-validator DTO whose ValidateIf on show_as_button was copied from the
// member above it; and a Go ConnectionID type that still reads the numeric ids of the first
// version. Other values are judged as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
/** How the legacy branch writes a numeric id of the first version: con_ and sixteen digits. */
const legacyConnectionId = (n: number) => `con_${String(n).padStart(16, '0')}`;

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho38-show-as-button-validate-if-copied',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    level: 'contract',
    bug: 'A NestJS service whose organization item DTO marks its optional members with class-validator\'s @ValidateIf((o) => o.<member> !== undefined) and @IsBoolean(), and the pair on show_as_button was pasted from assign_membership_on_login without changing the member in the arrow: show_as_button is only checked when assign_membership_on_login is present, so an item {"organization_id": ..., "show_as_button": "yes"} creates a ticket instead of 400; the same item with "assign_membership_on_login": true beside it is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Array.isArray(body.enabled_organizations)) return body;
        let changed = false;
        const items = body.enabled_organizations.map((item: unknown) => {
          if (!isObject(item) || item.assign_membership_on_login !== undefined || !('show_as_button' in item)) return item;
          if (typeof item.show_as_button === 'boolean') return item;
          changed = true;
          const { show_as_button: _unchecked, ...rest } = item;
          return rest;
        });
        return changed ? { ...body, enabled_organizations: items } : body;
      }),
  },
  {
    id: 'ho38-connection-id-go-legacy-numeric',
    clause: 'sso-ticket.body.connection_id.type',
    level: 'contract',
    bug: 'A Go service whose ConnectionID type has an UnmarshalJSON that, besides a JSON string, accepts a JSON integer (the numeric ids of the first version of the API, which migrated connections still answer to) and renders it as con_ and sixteen digits: "connection_id": 42 creates a ticket instead of 400; true, 4.5 or an object are still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && typeof body.connection_id === 'number' && Number.isSafeInteger(body.connection_id) && body.connection_id >= 0
          ? { ...body, connection_id: legacyConnectionId(body.connection_id) }
          : body,
      ),
  },
]);
