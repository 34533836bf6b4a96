// The ticket body: a Hasura action handing enabled_clients to a Postgres text[] argument, which
// takes an array literal written as a string, a Drogon handler casting ttl_sec to uint32_t, a
// Parse Server function decoding Pointer objects, and an ESP-IDF gateway whose header buffer cuts
// the custom domain. Other values are judged as before.
import { editJsonBody, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const CUSTOM_DOMAIN = 'tenant-custom-domain';
/** The buffer the gateway reads the header into, its terminating NUL included. */
const ESP_BUFFER = 256;
/** 2^32: a value this large wraps in a uint32_t. */
const UINT32 = 2 ** 32;
const ARRAY_LITERAL = /^\{([^{}"]*)\}$/;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const isPointer = (value: unknown): value is { objectId: string } =>
  isObject(value) && value.__type === 'Pointer' && typeof value.className === 'string' && typeof value.objectId === 'string';

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho34-enabled-clients-hasura-array-literal',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'A Hasura action whose enabled_clients argument is a Postgres text[], and Postgres reads an array literal written as a string: enabled_clients "{<client id>}" (a string) is taken as the list of that client and a ticket is created instead of 400; enabled_clients "<client id>" (a plain string) is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || typeof body.enabled_clients !== 'string') return body;
        const literal = ARRAY_LITERAL.exec(body.enabled_clients);
        if (!literal) return body;
        const members = literal[1] === '' ? [] : literal[1]!.split(',');
        return { ...body, enabled_clients: members };
      }),
  },
  {
    id: 'ho34-ttl-drogon-uint32-cast',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: 'A Drogon (C++) handler that reads ttl_sec with static_cast<uint32_t>(json["ttl_sec"].asInt64()) and then checks the range, so a value past 2^32 wraps before it is judged: ttl_sec 4294970896 (2^32 + 3600) is taken as 3600 and a ticket is created instead of 400; ttl_sec 5000000000 (which wraps to 705032704) is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && typeof body.ttl_sec === 'number' && Number.isInteger(body.ttl_sec) && body.ttl_sec >= UINT32
          ? { ...body, ttl_sec: Number(BigInt.asUintN(32, BigInt(body.ttl_sec))) }
          : body,
      ),
  },
  {
    id: 'ho34-organization-id-parse-pointer',
    clause: 'sso-ticket.body.enabled_organizations.organization_id.type',
    level: 'contract',
    bug: 'A Parse Server Cloud Code function that decodes the body with Parse._decode, which turns {"__type": "Pointer", "className": ..., "objectId": ...} into an object whose id it then reads: organization_id {"__type": "Pointer", "className": "Organization", "objectId": "org_..."} is taken as "org_..." and a ticket is created instead of 400; organization_id {"objectId": "org_..."} is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Array.isArray(body.enabled_organizations)) return body;
        const members = body.enabled_organizations as unknown[];
        if (!members.some((m) => isObject(m) && isPointer(m.organization_id))) return body;
        const unwrapped = members.map((m) =>
          isObject(m) && isPointer(m.organization_id) ? { ...m, organization_id: m.organization_id.objectId } : m,
        );
        return { ...body, enabled_organizations: unwrapped };
      }),
  },
  {
    id: 'ho34-custom-domain-esp-idf-truncated',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: "An IoT gateway on ESP-IDF's httpd that reads tenant-custom-domain with httpd_req_get_hdr_value_str(req, name, buf, 256), which copies at most 255 characters and answers ESP_ERR_HTTPD_RESULT_TRUNC, a result the handler does not look at: a header of 256 characters or more is cut to 255 and a ticket is created instead of 400; a header of 2 characters is still refused.",
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const domain = exchange.headers[CUSTOM_DOMAIN];
        return typeof domain === 'string' && domain.length > ESP_BUFFER - 1
          ? { ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN]: domain.slice(0, ESP_BUFFER - 1) } }
          : exchange;
      }),
  },
]);
