// The limits of the ticket request (spec 8): ttl_sec's type and range, and the length of the
// tenant-custom-domain header, each checked with an off-by-one or another limit than the spec's,
// or past the edges of an implementation (a 32-bit integer, an empty header taken for none).
// A fault edits the one rule of the check it breaks; bounds are read from the clauses.
import type { ValidateFunction } from 'ajv';
import { closedLimit, type JsonObject } from '../../specs/index.ts';
import type { FaultHooks } from '../app.ts';
import type { Exchange } from '../exchange.ts';
import { HOST_NAME_PATTERN } from '../validators.ts';
import { faultFamily } from './fault.ts';
import { compileCheck, editBodySchema, fieldNode, replaceParameterCheck } from './support/check-edits.ts';
import { capture } from './support/captured.ts';
import { editJsonBody, editRequests } from './support/route-edits.ts';

const TTL_SEC = closedLimit('sso-ticket.body.ttl_sec.range');
const CUSTOM_DOMAIN = closedLimit('sso-ticket.header.custom-domain.length');
const CUSTOM_DOMAIN_HEADER = 'tenant-custom-domain';
/** The longest DNS name in its dotted text form (RFC 1035, RFC 1123): a limit of DNS, not of the spec. */
const DNS_NAME_MAX_LENGTH = 253;

/** Swaps the ticket body check for one whose ttl_sec schema has the keywords of `patch` (undefined: removed). */
function patchTtlSec(app: FaultHooks, patch: JsonObject): void {
  editBodySchema(app, 'sso-ticket', (body) => {
    const ttlSec = fieldNode(body, 'ttl_sec');
    for (const [keyword, value] of Object.entries(patch)) {
      if (value === undefined) delete ttlSec[keyword];
      else ttlSec[keyword] = value;
    }
  });
}

/** Swaps the custom-domain check for one with other length bounds, keeping the mock's host-name rule. */
function customDomainLength(app: FaultHooks, bounds: { min: number; max: number }): void {
  const check: ValidateFunction = compileCheck({
    allOf: [
      { type: 'string', minLength: bounds.min, maxLength: bounds.max },
      { type: 'string', pattern: HOST_NAME_PATTERN },
    ],
  });
  replaceParameterCheck(app, 'sso-ticket', 'headers', CUSTOM_DOMAIN_HEADER, () => check);
}

/**
 * The custom-domain check run on a view of the value: `view` takes a part off before the value is
 * checked (a leading "www.", a ":port"), so a value over the maximum by it shows as within it (the
 * ticket is still built on the value sent).
 */
function customDomainCheckedOn(view: (value: string) => string): (app: FaultHooks) => void {
  return (app) => replaceParameterCheck(app, 'sso-ticket', 'headers', CUSTOM_DOMAIN_HEADER, checkedOnView(view));
}

function checkedOnView(view: (value: string) => string) {
  return (current: ValidateFunction): ValidateFunction => {
    const check = (value: unknown): boolean => {
      const ok = current(typeof value === 'string' ? view(value) : value);
      check.errors = current.errors;
      return ok;
    };
    check.errors = null as ValidateFunction['errors'];
    return Object.assign(check, { schema: current.schema, schemaEnv: current.schemaEnv }) as unknown as ValidateFunction;
  };
}

/** DNS's host-name rule with its 63-character label limit (RFC 1035 2.3.4), which the spec does not state. */
const DNS_LABELS_PATTERN = '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$';

/** ttl_sec read into a 32-bit integer before the range check: values wrap modulo 2^32. */
function ttlSecIn32Bits(app: FaultHooks): void {
  editJsonBody(app, 'sso-ticket', (body) => {
    const ttlSec = (body as { ttl_sec?: unknown } | null)?.ttl_sec;
    // `| 0` is JavaScript's conversion to a signed 32-bit integer (ToInt32).
    return typeof ttlSec === 'number' && Number.isInteger(ttlSec) ? { ...(body as object), ttl_sec: ttlSec | 0 } : body;
  });
}

/** ttl_sec's integer test made with a tolerance (a multiple-of check with a precision): a number within 1e-9 of a whole one passes as it. */
function ttlSecIntegerWithinTolerance(app: FaultHooks): void {
  editJsonBody(app, 'sso-ticket', (body) => {
    const ttlSec = (body as { ttl_sec?: unknown } | null)?.ttl_sec;
    return typeof ttlSec === 'number' && Math.abs(ttlSec - Math.round(ttlSec)) < 1e-9
      ? { ...(body as object), ttl_sec: Math.round(ttlSec) }
      : body;
  });
}

/** A day in seconds: the unit of the CLI's --days option, a fact of the bug. */
const SECONDS_A_DAY = 86400;

/** ttl_sec given as a DynamoDB attribute value ({"N": "3600"}) read as its number before the checks, as the storage layer's unmarshall does. */
function ttlSecUnmarshalled(app: FaultHooks): void {
  editJsonBody(app, 'sso-ticket', (body) => {
    const ttlSec = (body as { ttl_sec?: unknown } | null)?.ttl_sec;
    if (ttlSec === null || typeof ttlSec !== 'object' || Array.isArray(ttlSec)) return body;
    const entries = Object.entries(ttlSec);
    const [name, text] = entries[0] ?? [];
    return entries.length === 1 && name === 'N' && typeof text === 'string' && /^-?\d+$/.test(text)
      ? { ...(body as object), ttl_sec: Number(text) }
      : body;
  });
}

/** ttl_sec compared with 0 through an isZero helper with a tolerance ("omitted or 0" means the default): a number within 1e-6 of 0 is read as 0. */
function ttlSecNearZeroAsZero(app: FaultHooks): void {
  editJsonBody(app, 'sso-ticket', (body) => {
    const ttlSec = (body as { ttl_sec?: unknown } | null)?.ttl_sec;
    return typeof ttlSec === 'number' && ttlSec !== 0 && Math.abs(ttlSec) < 1e-6 ? { ...(body as object), ttl_sec: 0 } : body;
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request with ttl_sec written as a string of its value, which the body's rules refuse as another type. */
function withTtlSecAsText(exchange: Exchange): Exchange {
  try {
    const value: unknown = JSON.parse(exchange.body.toString('utf8'));
    return isRecord(value)
      ? { ...exchange, body: Buffer.from(JSON.stringify({ ...value, ttl_sec: String(value.ttl_sec) }), 'utf8') }
      : exchange;
  } catch {
    return exchange;
  }
}

export const ticketBoundFaults = faultFamily([
  {
    id: 'accepts-fractional-ttl-sec',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: 'ttl_sec typed number instead of integer: ticket creation accepts a ttl_sec with a fraction such as 1.5; the range is still checked.',
    install: (app) => patchTtlSec(app, { type: 'number' }),
  },
  {
    id: 'ttl-sec-leading-zeros-read',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: "Ticket creation's JSON reader allows leading zeros in numbers (Jackson's ALLOW_LEADING_ZEROS_FOR_NUMBERS, turned on for another client's zero-padded numbers): {\"ttl_sec\": 03600}, which is not JSON, creates a ticket of 3600 s instead of 400; 3600 is read as before.",
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const text = exchange.body.toString('utf8');
        const read = text.replace(/("ttl_sec"\s*:\s*)0+(\d)/, '$1$2');
        return read === text ? exchange : { ...exchange, body: Buffer.from(read, 'utf8') };
      }),
  },
  {
    id: 'ttl-sec-decimal-text-refused',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: 'ttl_sec told whole from fractional by a "." in its JSON text (a decimal separator test written for form input): 3600.0, the whole number 3600, is refused 400 instead of creating the ticket; 3600 is accepted and 3600.5 refused as before.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) =>
        /"ttl_sec"\s*:\s*-?\d+\.\d/.test(exchange.body.toString('utf8')) ? withTtlSecAsText(exchange) : exchange,
      ),
  },
  {
    id: 'ttl-sec-negative-zero-refused',
    clause: 'sso-ticket.body.ttl_sec.range',
    bug: 'ttl_sec told negative by Object.is(value, -0) || value < 0 (a sign test copied from a formatter): -0, which is 0 and in range, is refused 400 instead of creating the ticket of the default lifetime; 0 is accepted as before.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (value) => (isRecord(value) && Object.is(value.ttl_sec, -0) ? { ...value, ttl_sec: -1 } : value)),
  },
  {
    id: 'ttl-sec-integer-within-tolerance',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: "ttl_sec's integer rule checked as a multiple of 1 with a precision of 1e-9 (ajv's multipleOfPrecision): 3600.0000000000005 gets a ticket instead of 400; 3600.5 is still refused.",
    install: ttlSecIntegerWithinTolerance,
  },
  {
    id: 'ttl-sec-near-zero-read-as-zero',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: 'ttl_sec compared with 0 by an isZero helper with a tolerance of 1e-6 before its checks (0 means the default), and read as 0 when it passes: ttl_sec 1e-7 gets a ticket of the default lifetime instead of 400; 0.5 and 3600.0000000000005 are still refused.',
    install: ttlSecNearZeroAsZero,
  },
  {
    id: 'accepts-ttl-sec-one-over-maximum',
    clause: 'sso-ticket.body.ttl_sec.range',
    bug: 'An off-by-one at the top of the range: ticket creation accepts ttl_sec 432001, one over the maximum (the observed 400 for it goes too).',
    install: (app) => patchTtlSec(app, { maximum: TTL_SEC.max + 1 }),
  },
  {
    id: 'ttl-sec-kept-to-six-digits',
    clause: 'sso-ticket.body.ttl_sec.range',
    bug: 'ttl_sec copied into a fixed-width field of six decimal digits before the range check (a mainframe record, PIC 9(6)), which keeps its low digits: 1432000 is taken as 432000 and the ticket created instead of 400; values under a million are checked as before.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (value) =>
        isRecord(value) && typeof value.ttl_sec === 'number' && Number.isInteger(value.ttl_sec) && value.ttl_sec >= 1_000_000
          ? { ...value, ttl_sec: value.ttl_sec % 1_000_000 }
          : value,
      ),
  },
  {
    id: 'accepts-negative-ttl-sec',
    clause: 'sso-ticket.body.ttl_sec.range',
    bug: 'A range check that only looks at the top: ticket creation accepts a negative ttl_sec such as -1.',
    install: (app) => patchTtlSec(app, { minimum: undefined }),
  },
  {
    id: 'refuses-ttl-sec-at-maximum',
    clause: 'sso-ticket.body.ttl_sec.range',
    bug: 'A range check written "ttl_sec < max": ticket creation refuses ttl_sec 432000, the maximum, with 400.',
    install: (app) => patchTtlSec(app, { maximum: undefined, exclusiveMaximum: TTL_SEC.max }),
  },
  {
    id: 'refuses-ttl-sec-zero',
    clause: 'sso-ticket.body.ttl_sec.range',
    bug: 'A validator that wants a positive lifetime and forgets that 0 means the default: ticket creation refuses ttl_sec 0 with 400.',
    install: (app) => patchTtlSec(app, { minimum: undefined, exclusiveMinimum: TTL_SEC.min }),
  },
  {
    id: 'ttl-sec-attribute-value-unmarshalled',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: 'The body\'s ttl_sec passed through the storage layer\'s DynamoDB unmarshall before the checks, which reads the attribute value {"N": "3600"} as the number 3600: that ttl_sec gets a ticket instead of 400; {"S": "3600"} and "3600" are still refused.',
    install: ttlSecUnmarshalled,
  },
  {
    id: 'ttl-sec-whole-days-skip-range',
    clause: 'sso-ticket.body.ttl_sec.range',
    bug: `ttl_sec's maximum waived for a whole number of days (anyOf [maximum, multipleOf ${SECONDS_A_DAY}]: the CLI's --days option, multiplied out, taken as checked): ${(Math.floor(TTL_SEC.max / SECONDS_A_DAY) + 1) * SECONDS_A_DAY} (6 days) gets a ticket instead of 400; ${TTL_SEC.max + 1} and ${TTL_SEC.max + 3600} are still refused, and so is -${SECONDS_A_DAY} (the minimum stays).`,
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        const ttlSec = fieldNode(body, 'ttl_sec');
        delete ttlSec.maximum;
        ttlSec.anyOf = [{ maximum: TTL_SEC.max }, { multipleOf: SECONDS_A_DAY }];
      }),
  },
  {
    id: 'ttl-sec-wraps-in-32-bits',
    clause: 'sso-ticket.body.ttl_sec.range',
    bug: 'ttl_sec read into a 32-bit integer before the range is checked: a value of the range plus or minus 2^32 wraps into it and is accepted (432001 and -1 are still refused).',
    install: ttlSecIn32Bits,
  },
  {
    id: 'ttl-sec-range-checked-in-int32-milliseconds',
    clause: 'sso-ticket.body.ttl_sec.range',
    bug: 'ttl_sec converted to milliseconds in a 32-bit integer (ttl_sec * 1000 | 0) before the range is checked, the check made on the milliseconds: 4294968 wraps to 704 ms, inside the range, and creates the ticket instead of 400; 432001 is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        const ttlSec = (body as { ttl_sec?: unknown } | null)?.ttl_sec;
        if (typeof ttlSec !== 'number' || !Number.isInteger(ttlSec) || ttlSec <= TTL_SEC.max) return body;
        const milliseconds = Number(BigInt.asIntN(32, BigInt(ttlSec) * 1000n));
        return milliseconds >= TTL_SEC.min * 1000 && milliseconds <= TTL_SEC.max * 1000
          ? { ...(body as object), ttl_sec: Math.max(TTL_SEC.min, Math.ceil(milliseconds / 1000)) }
          : body;
      }),
  },
  {
    id: 'empty-custom-domain-taken-as-absent',
    clause: 'sso-ticket.header.custom-domain.length',
    bug: "Headers read with `if (header)`, so an empty value counts as no header: ticket creation accepts a tenant-custom-domain header that is present but empty and builds the ticket on the tenant's domain.",
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (exchange.headers[CUSTOM_DOMAIN_HEADER] !== '') return exchange;
        const { [CUSTOM_DOMAIN_HEADER]: _empty, ...headers } = exchange.headers;
        return { ...exchange, headers };
      }),
  },
  {
    id: 'custom-domain-header-name-loosely-matched',
    clause: 'sso-ticket.header.custom-domain.length',
    bug: `Request headers looked up by their name without punctuation (a lookup meant to forgive clients' spellings): a header "tenant_custom_domain" is read as ${CUSTOM_DOMAIN_HEADER}, so one of ${CUSTOM_DOMAIN.max + 1} characters under that name, which the interface does not have, is refused 400 instead of ignored.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const loose = (name: string) => name.replace(/[^a-z0-9]/gi, '').toLowerCase();
        const alias = Object.keys(exchange.headers).find(
          (name) => name !== CUSTOM_DOMAIN_HEADER && loose(name) === loose(CUSTOM_DOMAIN_HEADER),
        );
        if (alias === undefined || exchange.headers[CUSTOM_DOMAIN_HEADER] !== undefined) return exchange;
        return { ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN_HEADER]: exchange.headers[alias] } };
      }),
  },
  {
    id: 'custom-domain-first-occurrence',
    clause: 'sso-ticket.header.custom-domain.length',
    bug: `${CUSTOM_DOMAIN_HEADER} read by its first occurrence (the comma-joined value split and its first item taken): a request that sends the header twice, first a valid domain and then one of ${CUSTOM_DOMAIN.min - 1} characters, gets a ticket on the valid one instead of 400; a single header of ${CUSTOM_DOMAIN.min - 1} characters is still refused.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const value = exchange.headers[CUSTOM_DOMAIN_HEADER];
        if (typeof value !== 'string' || !value.includes(',')) return exchange;
        return { ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN_HEADER]: value.split(',')[0]!.trim() } };
      }),
  },
  {
    id: 'custom-domain-length-without-ace-prefixes',
    clause: 'sso-ticket.header.custom-domain.length',
    bug: `The ${CUSTOM_DOMAIN_HEADER} length counted without each label's ACE prefix ("xn--", taken off by an IDN helper as no part of the name): a value of ${CUSTOM_DOMAIN.max + 1} characters made of punycode labels gets a ticket instead of 400; one of ${CUSTOM_DOMAIN.max + 1} characters without them is still refused.`,
    install: customDomainCheckedOn((value) => value.replace(/(^|\.)xn--/gi, '$1')),
  },
  {
    id: 'accepts-2-char-custom-domain',
    clause: 'sso-ticket.header.custom-domain.length',
    bug: 'An off-by-one in "at least 3": ticket creation accepts a tenant-custom-domain of 2 characters.',
    install: (app) => customDomainLength(app, { min: CUSTOM_DOMAIN.min - 1, max: CUSTOM_DOMAIN.max }),
  },
  {
    id: 'accepts-256-char-custom-domain',
    clause: 'sso-ticket.header.custom-domain.length',
    bug: 'An off-by-one in "at most 255": ticket creation accepts a tenant-custom-domain of 256 characters.',
    install: (app) => customDomainLength(app, { min: CUSTOM_DOMAIN.min, max: CUSTOM_DOMAIN.max + 1 }),
  },
  {
    id: 'custom-domain-length-of-apex',
    clause: 'sso-ticket.header.custom-domain.length',
    bug: `The ${CUSTOM_DOMAIN_HEADER} check run on the apex domain (a leading "www." taken off first): a value of ${CUSTOM_DOMAIN.max + 1} characters starting with "www." gets a ticket instead of 400; one of ${CUSTOM_DOMAIN.max + 1} characters without it is still refused.`,
    install: customDomainCheckedOn((value) => value.replace(/^www\./i, '')),
  },
  {
    id: 'ttl-sec-parsed-in-new-connection-flow',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: 'The flow that creates a connection (connection_config given) kept its older handler, which reads ttl_sec with Number.parseInt before the checks: with connection_config, a ttl_sec of "3600" or 3600.5 gets a ticket instead of 400; without it (connection_id, or no connection) both are still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (body === null || typeof body !== 'object' || Array.isArray(body) || !('connection_config' in body)) return body;
        const fields = body as JsonObject;
        const read =
          typeof fields.ttl_sec === 'string' || typeof fields.ttl_sec === 'number' ? Number.parseInt(String(fields.ttl_sec), 10) : NaN;
        return Number.isNaN(read) ? body : { ...fields, ttl_sec: read };
      }),
  },
  {
    id: 'ttl-sec-iso-duration-read',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: 'ttl_sec run through an ISO 8601 duration parser (a Duration.fromISO helper shared with the admin UI) before the checks: a ttl_sec of "PT3600S" or "PT1H" gets a ticket instead of 400; "3600" or "1h" (no duration) is still refused.',
    install: (app) =>
      editTtlSec(app, (value) => {
        const parts = typeof value === 'string' ? /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(value) : null;
        if (!parts || value === 'P' || value === 'PT') return undefined;
        const [days, hours, minutes, seconds] = parts.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number];
        return ((days * 24 + hours) * 60 + minutes) * 60 + seconds;
      }),
  },
  {
    id: 'ttl-sec-instant-read-as-seconds-left',
    clause: 'sso-ticket.body.ttl_sec.type',
    bug: 'ttl_sec also taken as the instant the ticket should expire (a date picker\'s ISO value), turned into the seconds left before the checks: a ttl_sec of "<a date-time a day ahead>" gets a ticket instead of 400; a date-time in the past (negative seconds) or "tomorrow" is still refused.',
    install(app) {
      const clock = capture(app, 'clock');
      editTtlSec(app, (value) => {
        if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2})$/.test(value)) return undefined;
        const seconds = Math.round((Date.parse(value) - clock().now()) / 1000);
        return Number.isFinite(seconds) ? seconds : undefined;
      });
    },
  },
  {
    id: 'custom-domain-length-without-port',
    clause: 'sso-ticket.header.custom-domain.length',
    bug: `The ${CUSTOM_DOMAIN_HEADER} value taken apart by a host:port parser and the host alone checked: a value of ${CUSTOM_DOMAIN.max + 1} characters ending in ":8443" gets a ticket instead of 400; one of ${CUSTOM_DOMAIN.max + 1} characters without a port is still refused.`,
    install: customDomainCheckedOn((value) => value.replace(/:\d+$/, '')),
  },
  {
    id: 'custom-domain-labels-limited',
    clause: 'sso-ticket.header.custom-domain.length',
    bug: `The ${CUSTOM_DOMAIN_HEADER} check written with DNS's label rule (each dot-separated label at most 63 characters): a value within ${CUSTOM_DOMAIN.min}..${CUSTOM_DOMAIN.max} with a longer label is refused 400 instead of getting a ticket.`,
    install(app) {
      const check = compileCheck({
        type: 'string',
        minLength: CUSTOM_DOMAIN.min,
        maxLength: CUSTOM_DOMAIN.max,
        pattern: DNS_LABELS_PATTERN,
      });
      replaceParameterCheck(app, 'sso-ticket', 'headers', CUSTOM_DOMAIN_HEADER, () => check);
    },
  },
  {
    id: 'refuses-255-char-custom-domain',
    clause: 'sso-ticket.header.custom-domain.length',
    bug: 'The header validated as a DNS name, at most 253 characters: ticket creation refuses the longest tenant-custom-domain the spec allows (255).',
    install: (app) => customDomainLength(app, { min: CUSTOM_DOMAIN.min, max: DNS_NAME_MAX_LENGTH }),
  },
]);

/** A JSON ticket body's ttl_sec replaced by what `read` makes of it, where it makes a number (before the checks). */
function editTtlSec(app: FaultHooks, read: (value: unknown) => number | undefined): void {
  editJsonBody(app, 'sso-ticket', (body) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    const number = read((body as JsonObject).ttl_sec);
    return number === undefined ? body : { ...(body as JsonObject), ttl_sec: number };
  });
}
