// The ticket body: Jackson's JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS and a reader without
// FAIL_ON_TRAILING_TOKENS, READ_UNKNOWN_ENUM_VALUES_AS_NULL over an enum list, a coercion config
// that fails strings for integers but leaves the empty string's own shape as null, and a .NET
// regular expression whose \d is any Unicode digit. Other bodies are judged as before.
import { editJsonBody, editRequests } from '../../support/route-edits.ts';
import type { Exchange } from '../../../exchange.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** The ten provisioning scopes the reference publishes. */
const PROVISIONING_SCOPE = /^(get|post|put|patch|delete):(users|groups)$/;
/** A decimal digit of another script than ASCII (Unicode category Nd). */
const OTHER_DIGIT = /(?![0-9])\p{Nd}/u;
const OTHER_DIGITS = /(?![0-9])\p{Nd}/gu;

/** Numbers written with leading zeros (outside strings), as Jackson reads them with the feature on. */
function withoutLeadingZeros(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    const startsNumber = c === '0' && !/[0-9.eE+-]/.test(text[i - 1] ?? '') && /[0-9]/.test(text[i + 1] ?? '');
    if (startsNumber) {
      while (text[i] === '0' && /[0-9]/.test(text[i + 1] ?? '')) i += 1;
      out += text[i]!;
      continue;
    }
    out += c;
  }
  return out;
}

/** Where the first JSON object of the text ends (just after its closing brace), strings respected. */
function endOfFirstObject(text: string): number | undefined {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '{') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

/** Edits the raw text of a JSON ticket body that does not parse as it is. */
const editUnparsedText = (edit: (text: string) => string | undefined) => (exchange: Exchange) => {
  if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
  const text = exchange.body.toString('utf8');
  if (parses(text)) return exchange;
  const edited = edit(text);
  return edited === undefined || !parses(edited) ? exchange : { ...exchange, body: Buffer.from(edited, 'utf8') };
};

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho35-ttl-jackson-leading-zeros',
    clause: 'errors.400.body',
    level: 'observed',
    bug: 'A Spring Boot service whose ObjectMapper was built with JsonMapper.builder().enable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS) (added for a partner that sends zero-padded numbers elsewhere), so a number with leading zeros, which is not JSON, is read as its value: the body {"ttl_sec": 03600} gets a ticket instead of 400 invalid_body; {"ttl_sec": 0x10} is still refused.',
    install: (app) => editRequests(app, 'sso-ticket', editUnparsedText(withoutLeadingZeros)),
  },
  {
    id: 'ho35-body-jackson-trailing-tokens',
    clause: 'errors.400.body',
    level: 'observed',
    bug: 'A Spring MVC service whose MappingJackson2HttpMessageConverter reads the body with objectMapper.readValue(stream, TicketRequest.class), and DeserializationFeature.FAIL_ON_TRAILING_TOKENS is off by default, so Jackson stops after the first complete value: a body {"ttl_sec": 3600} followed by anything ({"ttl_sec": -1}, or text) gets a ticket instead of 400 invalid_body; a body cut short, {"ttl_sec": 3600, is still refused.',
    install: (app) =>
      editRequests(
        app,
        'sso-ticket',
        editUnparsedText((text) => {
          const end = endOfFirstObject(text);
          return end === undefined || text.slice(end).trim() === '' ? undefined : text.slice(0, end);
        }),
      ),
  },
  {
    id: 'ho35-provisioning-scopes-jackson-unknown-enum-null',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'A Spring Boot service that binds provisioning_config.scopes to List<ProvisioningScope> (an enum with @JsonValue "get:users" ...) with spring.jackson.deserialization.read-unknown-enum-values-as-null=true, then drops the nulls with scopes.removeIf(Objects::isNull) before @NotEmpty is checked: scopes ["get:users", "get:widgets"] gets a ticket instead of 400; ["get:widgets"] alone (empty once the null is dropped) is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.provisioning_config) || !Array.isArray(body.provisioning_config.scopes)) return body;
        const scopes = body.provisioning_config.scopes as unknown[];
        if (!scopes.every((s) => typeof s === 'string')) return body;
        const known = scopes.filter((s) => PROVISIONING_SCOPE.test(s));
        if (known.length === 0 || known.length === scopes.length) return body;
        return { ...body, provisioning_config: { ...body.provisioning_config, scopes: known } };
      }),
  },
  {
    id: 'ho35-token-lifetime-jackson-empty-string-null',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'A Spring Boot service that turned off scalar coercion with mapper.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.String, CoercionAction.Fail), and Jackson keeps the empty string as a shape of its own (CoercionInputShape.EmptyString), whose default for an Integer wrapper is null: provisioning_config.token_lifetime "" is read as null (tokens that never expire) and a ticket is created instead of 400; token_lifetime "3600" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && isObject(body.provisioning_config) && body.provisioning_config.token_lifetime === ''
          ? { ...body, provisioning_config: { ...body.provisioning_config, token_lifetime: null } }
          : body,
      ),
  },
  {
    id: 'ho35-connection-name-dotnet-unicode-digit',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'An ASP.NET Core service whose FluentValidation rule for connection_config.name is Matches(@"^[A-Za-z\\d]+(-[A-Za-z\\d]+)*$") without RegexOptions.ECMAScript, and .NET\'s \\d matches every Unicode decimal digit: connection_config.name "conn-\u0663" (an Arabic-Indic three) gets a ticket instead of 400; "conn_3" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) &&
        isObject(body.connection_config) &&
        typeof body.connection_config.name === 'string' &&
        OTHER_DIGIT.test(body.connection_config.name)
          ? { ...body, connection_config: { ...body.connection_config, name: body.connection_config.name.replace(OTHER_DIGITS, '3') } }
          : body,
      ),
  },
]);
