// The ticket body, at every depth: enabled_organizations[].assign_membership_on_login read by a
// Pydantic v2 model in lax mode (its boolean words taken), enabled_organizations[].organization_id a
// nullable String? of a Kotlin (Ktor) data class, enabled_features.domain_verification checked by
// Laravel's "boolean" rule ("1" and "0" taken), enabled_clients read by a Symfony controller from
// json_decode(..., true) (an object of strings is a PHP array too), ttl_sec turned into a Go
// time.Duration before its range is checked (the multiplication wraps past 2^63 nanoseconds). Each
// lets its near miss through; a plainly wrong value is answered as before.
import { editBodySchema, fieldNode } from '../../support/check-edits.ts';
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** Each member of body.enabled_organizations edited by `edit`. */
const editOrganizations = (body: unknown, edit: (organization: Fields) => Fields): unknown =>
  isObject(body) && Array.isArray(body.enabled_organizations)
    ? { ...body, enabled_organizations: body.enabled_organizations.map((o: unknown) => (isObject(o) ? edit(o) : o)) }
    : body;

/** The strings Pydantic v2 takes for a bool in lax mode (compared without case), and their values. */
const PYDANTIC_TRUE = ['1', 'on', 't', 'true', 'y', 'yes'];
const PYDANTIC_FALSE = ['0', 'off', 'f', 'false', 'n', 'no'];
function pydanticBool(value: unknown): boolean | undefined {
  if (value === 0 || value === 1) return value === 1;
  if (typeof value !== 'string') return undefined;
  const word = value.toLowerCase();
  return PYDANTIC_TRUE.includes(word) ? true : PYDANTIC_FALSE.includes(word) ? false : undefined;
}

/** What Laravel's "boolean" rule accepts besides the booleans: 1, 0, "1" and "0". */
const LARAVEL_BOOLEAN: ReadonlyMap<unknown, boolean> = new Map<unknown, boolean>([
  [1, true],
  [0, false],
  ['1', true],
  ['0', false],
]);

/** ttl_sec's maximum, in seconds and in the nanoseconds of a Go time.Duration. */
const TTL_MAX_SECONDS = 432000n;
const NANOSECONDS = 1_000_000_000n;

/** time.Duration(ttl) * time.Second, as Go computes it: an int64 product that wraps. */
function goDuration(ttlSec: number): bigint {
  return BigInt.asIntN(64, BigInt(ttlSec) * NANOSECONDS);
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho28-assign-membership-pydantic-lax-bool',
    clause: 'sso-ticket.body.enabled_organizations.assign_membership_on_login.type',
    level: 'contract',
    bug: 'A FastAPI service whose EnabledOrganization model is a Pydantic v2 model in its default lax mode, where a bool field takes "yes", "no", "on", "off", "y", "n", "t", "f", "1", "0" (any case) and the integers 0 and 1: assign_membership_on_login "yes" creates the ticket instead of 400; "maybe" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        let changed = false;
        const edited = editOrganizations(body, (o) => {
          if (typeof o.assign_membership_on_login === 'boolean') return o;
          const read = pydanticBool(o.assign_membership_on_login);
          if (read === undefined) return o;
          changed = true;
          return { ...o, assign_membership_on_login: read };
        });
        return changed ? edited : body;
      }),
  },
  {
    id: 'ho28-organization-id-kotlin-nullable',
    clause: 'sso-ticket.body.enabled_organizations.organization_id.type',
    level: 'contract',
    bug: 'A Kotlin (Ktor) service whose @Serializable EnabledOrganization declares val organization_id: String? (nullable, copied from the response class where an organization may be gone), which kotlinx.serialization then fills from a JSON null: an organization item {"organization_id": null} creates the ticket instead of 400; {"organization_id": 42} is still refused.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        fieldNode(body, 'enabled_organizations.organization_id').type = ['string', 'null'];
      }),
  },
  {
    id: 'ho28-domain-verification-laravel-boolean-rule',
    clause: 'sso-ticket.body.enabled_features.domain_verification.type',
    level: 'contract',
    bug: 'A Laravel controller validating with \'enabled_features.domain_verification\' => \'boolean\', a rule that accepts true, false, 1, 0, "1" and "0", and casting what passes with (bool): enabled_features.domain_verification "1" (a string) creates the ticket instead of 400; "true" (which the rule refuses) is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.enabled_features)) return body;
        const read = LARAVEL_BOOLEAN.get(body.enabled_features.domain_verification);
        return read === undefined ? body : { ...body, enabled_features: { ...body.enabled_features, domain_verification: read } };
      }),
  },
  {
    id: 'ho28-enabled-clients-symfony-assoc-array',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'A Symfony controller that decodes the body with json_decode($content, true), so a JSON object becomes a PHP array as a list does, and validates enabled_clients with Assert\\Type("array") and Assert\\All(Assert\\Type("string")) before array_values(): enabled_clients {"web": "<client id>"}, an object of strings, creates the ticket instead of 400; {"web": 5} is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.enabled_clients)) return body;
        const values = Object.values(body.enabled_clients);
        return values.length > 0 && values.every((v) => typeof v === 'string') ? { ...body, enabled_clients: values } : body;
      }),
  },
  {
    id: 'ho28-ttl-sec-go-duration-overflow',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: 'A Go handler that checks the range on d := time.Duration(req.TTLSec) * time.Second (if d < 0 || d > 120*time.Hour), a product in int64 nanoseconds that wraps past 2^63: ttl_sec 18446744074, whose nanoseconds wrap to 0.29 s, creates the ticket instead of 400; 432001 is still refused, and so is 9223372037, which wraps negative.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || typeof body.ttl_sec !== 'number' || !Number.isSafeInteger(body.ttl_sec) || body.ttl_sec <= 432000)
          return body;
        const wrapped = goDuration(body.ttl_sec);
        if (wrapped < 0n || wrapped > TTL_MAX_SECONDS * NANOSECONDS) return body;
        return { ...body, ttl_sec: Number(wrapped / NANOSECONDS) };
      }),
  },
]);
