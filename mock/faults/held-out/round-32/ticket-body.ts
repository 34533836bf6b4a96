// The ticket body: enabled_organizations[].show_as_button deserialised by an SAP ABAP service into
// an abap_bool field, which takes "X" for true; and the observed rules: an SAP CAP service whose
// OData input handling drops instance annotations, and an Oracle ORDS handler binding an empty
// connection_id, which Oracle stores as NULL. Each lets its near miss through; a plainly wrong value
// is answered as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** ABAP's abap_true and abap_false, as /ui2/cl_json moves a JSON string into a c LENGTH 1 field. */
const ABAP_BOOLEAN: ReadonlyMap<unknown, boolean> = new Map([
  ['X', true],
  ['', false],
  [' ', false],
]);

/** An OData instance annotation ("@odata.type", "@Core.Messages") or a property annotation ("x@odata.type"). */
const isAnnotation = (name: string) => name.startsWith('@') || /^[^@]+@[A-Za-z]+\./.test(name);

/** The value with every annotation member removed, at every depth; the same value where there is none. */
function withoutAnnotations(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(withoutAnnotations);
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  if (!isObject(value)) return value;
  let changed = false;
  const kept: Fields = {};
  for (const [name, member] of Object.entries(value)) {
    if (isAnnotation(name)) {
      changed = true;
      continue;
    }
    const edited = withoutAnnotations(member);
    if (edited !== member) changed = true;
    kept[name] = edited;
  }
  return changed ? kept : value;
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho32-show-as-button-abap-bool-x',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    level: 'contract',
    bug: 'An SAP ABAP service that deserialises the body with /ui2/cl_json=>deserialize into a structure whose show_as_button is TYPE abap_bool (a c LENGTH 1), so a JSON string is moved into it as it is, and then checks IF ls_org-show_as_button <> abap_true AND ls_org-show_as_button <> abap_false: an organization item with show_as_button "X" (ABAP\'s true) creates the ticket instead of 400; "Y" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Array.isArray(body.enabled_organizations)) return body;
        let changed = false;
        const organizations = body.enabled_organizations.map((item: unknown) => {
          if (!isObject(item) || !ABAP_BOOLEAN.has(item.show_as_button)) return item;
          changed = true;
          return { ...item, show_as_button: ABAP_BOOLEAN.get(item.show_as_button) };
        });
        return changed ? { ...body, enabled_organizations: organizations } : body;
      }),
  },
  {
    id: 'ho32-ticket-cap-odata-annotation-ignored',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'An SAP CAP service exposing the ticket action over OData V4, whose input handling drops instance annotations ("@odata.type", "@Core.Messages", "field@odata.type") before the payload is checked against the action\'s parameters: a body (or a nested object) with an "@odata.type" member creates the ticket instead of 400 for an unknown property; an "odata_type" member is still refused.',
    install: (app) => editJsonBody(app, 'sso-ticket', withoutAnnotations),
  },
  {
    id: 'ho32-connection-id-ords-empty-null',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'An Oracle ORDS handler that binds :connection_id into its PL/SQL block and branches on IF :connection_id IS NULL THEN (a new connection) ELSE (check the existing one), and Oracle takes an empty string for NULL: connection_id "" creates the ticket as if it were omitted instead of 400; connection_id "con_" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || body.connection_id !== '') return body;
        const { connection_id: _empty, ...rest } = body;
        return rest;
      }),
  },
]);
