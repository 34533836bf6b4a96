// The operation's header parameters and the content type of its body. A header parameter's
// variations are judged by its schema: the length the contract states is refused outside it and
// accepted at it. The content type obliges the client (spec 4.2: "application/json"); how the
// service answers another one is not stated, so its variations have no expectation.
import type { OperationCard, RequestTemplate } from '../../cards/card.ts';
import { clauses } from '../../clauses.ts';
import { observed } from '../../observed.ts';
import { createAjv } from '../../schemas.ts';
import { accepted, refused } from '../checks.ts';
import type { Element } from '../elements.ts';
import type { Expectation, Variant } from '../row.ts';
import { A_HEADER_VALUE, SPEC_CUSTOM_DOMAIN, canonicalContext, headerNamed, type RequestContext } from '../template.ts';

import { hostNameOfLength, punycodeHostNameOfLength } from '../values.ts';

type Made = Variant & { expect: Expectation };

const ajv = createAjv({ level: 'contract' });

/** A plausible custom domain, for the variations that are not about length. */
const A_DOMAIN = A_HEADER_VALUE;

function headerNameOf(element: Element, context: RequestContext): string {
  return headerNamed(element.name!, context);
}

function withHeader(element: Element, values: string[]): (template: RequestTemplate, context: RequestContext) => RequestTemplate {
  return (template, context) => ({ ...template, headers: { ...template.headers, [headerNameOf(element, context)]: values } });
}

/** The clause of a header parameter's length limit. */
function limitClause(card: OperationCard, element: Element): string | undefined {
  return clauses.find(
    (c) => c.limit?.location.operation === card.key && c.limit.location.in === 'header' && c.limit.location.name === element.name,
  )?.id;
}

/** Long: one entry per variation of a header parameter, read top to bottom as `--list` prints them. */
export function headerParamVariants(card: OperationCard, element: Element): Made[] {
  const clause = limitClause(card, element);
  const contract = element.schemas!.contract!;
  const judge = (varied: RequestTemplate, context: RequestContext): Expectation => {
    const values = varied.headers[headerNameOf(element, context)] ?? [];
    if (clause === undefined || values.length === 0) return { none: 'the spec bounds nothing else of it' };
    const outside = values.some((value) => !ajv.validate(contract, value));
    if (values.length > 1) {
      // A singleton header given twice (RFC 9110 5.3): no reading of it is a value within the bounds
      // that the client sent alone. Taking one line drops the other; the lines combined ("a, b")
      // name no domain.
      return outside
        ? {
            checks: [{ clause, outcome: refused }],
            source:
              'one of its field lines is outside the length the spec states; the header is a singleton, so neither line can be taken alone',
          }
        : { none: 'which of two values the service takes is not known' };
    }
    return outside
      ? { checks: [{ clause, outcome: refused }], source: 'outside the length the spec states' }
      : { checks: [{ clause, outcome: accepted }], source: 'within the length the spec states' };
  };
  const made = (operator: Made['operator'], key: string, says: string, values: string[], extra: Partial<Made> = {}): Made => {
    const apply = withHeader(element, values);
    return { operator, key, says, apply, judge, expect: judge(apply(emptyTemplate(), canonicalContext), canonicalContext), ...extra };
  };
  const bounds = [contract.minLength, contract.maxLength].filter((b): b is number => typeof b === 'number');
  const lengths = [...new Set(bounds.flatMap((b) => [b - 1, b, b + 1]))].filter((n) => n >= 1).sort((a, b) => a - b);
  const outside = lengths.filter((length) => !ajv.validate(contract, hostNameOfLength(length)));
  const none = {
    none: 'HTTP strips whitespace around a header value and host names are case-insensitive; the service answer is not known',
  };
  return [
    ...lengths.map((length) => made('bounds', String(length), `of ${length} characters`, [hostNameOfLength(length)])),
    made('empty', 'empty', 'present with no value', ['']),
    // One over the maximum with a root dot at the end: a host name with and without its final dot is
    // one name (RFC 1034 3.1), but the header's value is the one the spec bounds.
    ...(typeof contract.maxLength === 'number'
      ? [
          made('extra-part', 'root-dot', `of ${contract.maxLength + 1} characters, the last a root dot`, [
            `${hostNameOfLength(contract.maxLength)}.`,
          ]),
          // One over the maximum starting with "www.": a helper that canonicalises host names for
          // display takes it off, but the header's value is the one the spec bounds.
          made('extra-part', 'www-prefix', `of ${contract.maxLength + 1} characters, starting with "www."`, [
            `www.${hostNameOfLength(contract.maxLength + 1 - 'www.'.length)}`,
          ]),
          // One over the maximum ending in a port: a host:port parser gives back the name alone,
          // but the header's value, port and all, is the one the spec bounds.
          made('extra-part', 'port-suffix', `of ${contract.maxLength + 1} characters, ending in a port (:8443)`, [
            `${hostNameOfLength(contract.maxLength + 1 - ':8443'.length)}:8443`,
          ]),
          // One over the maximum made of punycode labels ("xn--mnchen-3ya", münchen): its Unicode
          // form is shorter, but the header's value, as sent, is the one the spec bounds.
          made(
            'extra-part',
            'punycode-labels',
            `of ${contract.maxLength + 1} characters, made of punycode labels (xn--)`,
            [punycodeHostNameOfLength(contract.maxLength + 1)],
            { extended: true },
          ),
        ]
      : []),
    // Within the bounds but of another form than the other rows' (one label longer than DNS's 63
    // characters): the spec bounds only the length, so a host-name library's label limit is not the
    // contract's. Test doubles only: a real tenant may hold the header to its configured domains.
    ...(typeof contract.maxLength === 'number' && typeof contract.minLength === 'number' && contract.maxLength >= LONG_LABEL + 3
      ? [
          made(
            'bounds',
            'long-label',
            `of ${LONG_LABEL + 3} characters, one label of ${LONG_LABEL} (over DNS's 63)`,
            [longLabelHostName()],
            { extended: true },
          ),
        ]
      : []),
    ...besideOtherName(element, outside, made),
    ...underscoredName(clause, element, contract.maxLength),
    // The header twice, one line outside the bounds and the other a valid domain, in both orders: a
    // reader that takes the first or the last line checks only one of them.
    ...outside.flatMap((length) => [
      made(
        'duplicate',
        `${length}-then-valid`,
        `twice: of ${length} characters, then a valid domain`,
        [hostNameOfLength(length), A_DOMAIN],
        {
          extended: true,
        },
      ),
      made(
        'duplicate',
        `valid-then-${length}`,
        `twice: a valid domain, then of ${length} characters`,
        [A_DOMAIN, hostNameOfLength(length)],
        {
          extended: true,
        },
      ),
    ]),
    unjudged(made('whitespace', 'leading-space', 'with a space before it', [` ${A_DOMAIN}`]), none),
    unjudged(made('case', 'capitals', 'in capitals', [A_DOMAIN.toUpperCase()]), none),
    unjudged(made('duplicate', 'twice', 'twice, with two domains', [A_DOMAIN, `other.${A_DOMAIN}`]), {
      none: 'which of two values the service takes is not known',
    }),
  ];
}

/**
 * The custom-domain header at each length outside its bounds, with a valid domain beside it under
 * the header's other name (the spec's tenant-custom-domain, the service's auth0-custom-domain): the
 * header the target reads is still out of bounds, whatever else the request carries, so a check
 * that reads the other name first lets it through.
 */
function besideOtherName(
  element: Element,
  lengths: number[],
  made: (operator: Made['operator'], key: string, says: string, values: string[]) => Made,
): Made[] {
  if (element.name !== SPEC_CUSTOM_DOMAIN) return [];
  const otherName = (context: RequestContext) =>
    context.customDomainHeader.toLowerCase() === SPEC_CUSTOM_DOMAIN ? observed.custom_domain_header.value : SPEC_CUSTOM_DOMAIN;
  return lengths.map((length) => {
    const variant = made(
      'duplicate',
      `${length}-beside-other-name`,
      `of ${length} characters, with a valid domain under the header's other name beside it`,
      [hostNameOfLength(length)],
    );
    return {
      ...variant,
      apply: (template, context) => {
        const varied = variant.apply(template, context);
        return { ...varied, headers: { ...varied.headers, [otherName(context)]: [A_DOMAIN] } };
      },
    };
  });
}

/**
 * The header under its name with each "-" written "_" (tenant_custom_domain), holding a value one
 * over its maximum: a header the interface does not have, which a recipient ignores (RFC 9110
 * 5.1), so the request is the valid one, which the length bound does not refuse. A server that
 * reads headers CGI-style (HTTP_TENANT_CUSTOM_DOMAIN, "-" and "_" alike) or matches their names
 * loosely takes it for the header and refuses its length. Against test doubles only.
 */
function underscoredName(clause: string | undefined, element: Element, maxLength: unknown): Made[] {
  if (clause === undefined || typeof maxLength !== 'number' || !element.name!.includes('-')) return [];
  const value = hostNameOfLength(maxLength + 1);
  return [
    {
      operator: 'near-value',
      key: 'name-underscores',
      says: `under its name with "_" for each "-", of ${maxLength + 1} characters`,
      apply: (template, context) => ({
        ...template,
        headers: { ...template.headers, [headerNameOf(element, context).replace(/-/g, '_')]: [value] },
      }),
      expect: {
        checks: [{ clause, outcome: accepted }],
        source: `spec 8 bounds the length of the header ${element.name!}; one of another name is not it, and a recipient ignores a header field it does not recognise (RFC 9110 5.1): the valid request, which the bound does not refuse`,
      },
      extended: true,
    },
  ];
}

/** A variation whose value the schema cannot judge (the protocol or the service decides): no expectation, and against test doubles only. */
function unjudged({ judge: _judge, ...variant }: Made, none: { none: string }): Made {
  return { ...variant, expect: none, extended: true };
}

/** The request with one header's field lines set to `values` (none: the header left out). */
function headerSetTo(name: string): (values: string[]) => (template: RequestTemplate) => RequestTemplate {
  return (values) => (template) => ({ ...template, headers: { ...template.headers, [name]: values } });
}

export function contentTypeVariants(card: OperationCard): Made[] {
  if (!card.body) return noBodyContentTypes(card);
  const none = { none: 'spec 4.2 obliges the client to send application/json; how the service answers another content type is not stated' };
  const set = headerSetTo('content-type');
  return [
    {
      operator: 'extra-part',
      key: 'charset',
      says: 'application/json; charset=utf-8',
      apply: set(['application/json; charset=utf-8']),
      expect: {
        checks: [{ clause: card.success.clause, outcome: accepted }],
        source: 'spec 4.2: application/json, of which a charset parameter is part (RFC 8259 8.1)',
      },
    },
    // Whitespace around the ";" of a parameter is allowed (RFC 9110 8.3.1: type "/" subtype *( OWS
    // ";" OWS parameter )): the media type is application/json all the same.
    {
      operator: 'whitespace',
      key: 'charset-spaced',
      says: 'application/json ; charset=utf-8 (a space before the ";")',
      apply: set(['application/json ; charset=utf-8']),
      expect: {
        checks: [{ clause: card.success.clause, outcome: accepted }],
        source:
          'spec 4.2: application/json, of which a charset parameter is part (RFC 8259 8.1), with optional whitespace around its ";" (RFC 9110 8.3.1)',
      },
      extended: true,
    },
    { operator: 'absent', key: 'absent', says: 'absent', apply: set([]), expect: none, extended: true },
    { operator: 'case', key: 'capitals', says: 'in capitals', apply: set(['APPLICATION/JSON']), expect: none, extended: true },
    { operator: 'near-value', key: 'text-plain', says: 'text/plain', apply: set(['text/plain']), expect: none, extended: true },
    {
      operator: 'encoding',
      key: 'form',
      says: 'form-encoded, the body with it',
      apply: (template) => ({
        ...template,
        headers: { ...template.headers, 'content-type': ['application/x-www-form-urlencoded'] },
        body: { raw: '' },
      }),
      expect: none,
      extended: true,
    },
  ];
}

/**
 * An operation without a body (redelivery, the vault read) sent with the Content-Type an SDK or
 * HTTP client puts on every request, over no content: the request is still the valid one (spec 4:
 * request bodies are JSON; this one has none), though a framework whose JSON parser refuses an
 * empty body under a JSON content type answers 400.
 */
function noBodyContentTypes(card: OperationCard): Made[] {
  const expect = {
    checks: [{ clause: card.success.clause, outcome: accepted }],
    source: 'spec 4: the operation takes no body; a Content-Type over no content changes nothing (RFC 9110 8.3)',
  };
  const set = headerSetTo('content-type');
  return [
    { operator: 'extra-part', key: 'json-without-body', says: 'application/json, with no body', apply: set(['application/json']), expect },
    {
      operator: 'extra-part',
      key: 'json-charset-without-body',
      says: 'application/json; charset=utf-8, with no body',
      apply: set(['application/json; charset=utf-8']),
      expect,
      extended: true,
    },
  ];
}

/**
 * The Accept header naming other media types besides JSON, as HTTP clients send it (axios:
 * "application/json, text/plain, * /*"): the spec answers JSON (section 4: "all request and
 * response bodies are JSON"), so the request is answered as the valid one is, with a JSON body.
 */
export function acceptVariants(card: OperationCard): Made[] {
  const clause = card.answer.body?.contentTypeClause ?? card.success.clause;
  const set = headerSetTo('accept');
  const expect = {
    checks: [{ clause, outcome: accepted }],
    source: 'spec 4: response bodies are JSON; the client takes JSON among the types it names',
  };
  return [
    {
      operator: 'extra-part',
      key: 'json-text-any',
      says: 'naming text/plain and any type besides JSON (application/json, text/plain, */*)',
      apply: set(['application/json, text/plain, */*']),
      expect,
    },
    { operator: 'near-value', key: 'any', says: 'naming any type (*/*)', apply: set(['*/*']), expect, extended: true },
    // Only HTML, as a browser's address bar asks: the service's answers are JSON whatever Accept
    // names; it answers as it does without one, not 406 (a framework's content negotiation with no
    // default answers 406).
    {
      operator: 'near-value',
      key: 'html-only',
      says: 'naming only text/html',
      apply: set(['text/html']),
      expect: {
        checks: [{ clause: card.answer.statusClause, outcome: accepted }],
        source:
          'spec 4: response bodies are JSON whatever Accept names (RFC 9110 12.5.1 lets a server disregard Accept), and the reference records no 406',
      },
      extended: card.writes === true,
    },
  ];
}

/** A label longer than DNS's 63 characters (RFC 1035 2.3.4), a limit the spec does not state. */
const LONG_LABEL = 97;

/** A host name of one label of LONG_LABEL letters and a top-level "io". */
function longLabelHostName(): string {
  return `${'abcdefghijklmnopqrstuvwxyz'.repeat(Math.ceil(LONG_LABEL / 26)).slice(0, LONG_LABEL)}.io`;
}

function emptyTemplate(): RequestTemplate {
  return { method: 'POST', path: [], query: [], headers: {}, credential: { kind: 'none' } };
}
