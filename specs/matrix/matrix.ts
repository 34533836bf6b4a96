// The matrix: every element of every operation's request model (elements.ts) varied by every
// operator of the catalogue that applies to it (operators.ts, families/), each row with the outcome
// the spec or the observed reference expects and the clauses it bears on, or why there is none.
// Body fields are varied alone (in the smallest body that holds them) and among every other field.
// It is data: `--list` prints it, the suites run it (suites/matrix/), and a project test holds it to
// the model (no element without a row, no operator outside the catalogue).
import type { ClauseCheck, OperationCard, RequestTemplate } from '../cards/card.ts';
import { errorFact } from '../observed.ts';
import { cards } from '../cards/index.ts';
import type { OperationKey } from '../openapi.ts';
import { elementsOf, fieldName, type Element } from './elements.ts';
import { bodyVariants } from './families/body.ts';
import { credentialVariants } from './families/credential.ts';
import { acceptVariants, contentTypeVariants, headerParamVariants } from './families/headers.ts';
import { literalVariants, methodVariants, paramVariants } from './families/path.ts';
import { tokenRequestRows, type TokenMatrixRow } from './families/token-request.ts';
import { expectsRefusal, type Base, type Expectation, type MatrixRow, type Variant } from './row.ts';
import { createAjv, schema } from '../schemas.ts';
import type { ValidateFunction } from 'ajv';
import {
  aloneBody,
  bothGroupsBody,
  asFormTemplate,
  canonicalContext,
  everyBody,
  jsonBodyOf,
  otherGroupBody,
  otherGroupUnavailable,
  unusualTemplate,
  validTemplate,
  withLenientText,
  withUnusualParts,
  withUnusualText,
  lenientTemplate,
  type RequestContext,
} from './template.ts';

type Made = Variant & { expect: Expectation };

function variantsOf(card: OperationCard, element: Element): Made[] {
  switch (element.kind) {
    case 'method':
      return methodVariants(card, card.spec.method);
    case 'path-literal':
      return literalVariants(element);
    case 'path-param':
      return paramVariants(card, element);
    case 'header-param':
      return headerParamVariants(card, element);
    case 'content-type':
      return contentTypeVariants(card);
    case 'accept':
      return acceptVariants(card);
    case 'body':
    case 'body-field':
      return bodyVariants(card, element);
    default:
      return credentialVariants(card, element);
  }
}

/** The request a row varies, for a target. */
export function baseTemplate(card: OperationCard, base: Base, element: Element, context: RequestContext): RequestTemplate {
  if (base === 'valid') return validTemplate(card, context);
  // Beside the less common forms: the valid request's, or (for a body field) those of the body with every field.
  if (base === 'unusual')
    return element.kind === 'body-field'
      ? withUnusualParts(card, baseTemplate(card, 'every', element, context), context)
      : unusualTemplate(card, context);
  if (base === 'lenient') return lenientTemplate(card, element, () => baseTemplate(card, 'every', element, context), context);
  if (base === 'alone-form') return asFormTemplate(baseTemplate(card, 'alone', element, context));
  const body =
    base === 'alone'
      ? aloneBody(card, element.path!, context)
      : base === 'every-other-group'
        ? (otherGroupBody(card, element.path!, context) ?? everyBody(card, element.path!, context))
        : base === 'both-groups'
          ? (bothGroupsBody(card, element.path!, context) ?? everyBody(card, element.path!, context))
          : everyBody(card, element.path!, context);
  const template = validTemplate(card, context, body);
  return base === 'alone' ? template : withEveryMediaTypePart(template);
}

/**
 * A request with every field carries every optional part of its media type too: the JSON body
 * typed with its charset parameter (RFC 8259 8.1; spec 4.2 takes it). A validator bound to the
 * media type written exactly ("application/json" and nothing more) leaves such a body unchecked.
 */
function withEveryMediaTypePart(template: RequestTemplate): RequestTemplate {
  const [type] = template.headers['content-type'] ?? [];
  if (type !== 'application/json') return template;
  return { ...template, headers: { ...template.headers, 'content-type': ['application/json; charset=utf-8'] } };
}

/**
 * Whether an element's rows run on a real tenant by default: the spec's fields, and the observed
 * ones the reference names; the rest (the deep objects of the service's API description) are
 * varied against test doubles, or with --matrix full.
 */
function isCore(card: OperationCard, element: Element): boolean {
  if (element.kind !== 'body-field') return true;
  return element.schemas?.contract !== undefined || card.body!.observedCore.includes(fieldName(element.path!));
}

/** The operators whose variations are made beside the other exclusive group too: a field's type and bounds. */
const OTHER_GROUP_OPERATORS: ReadonlyArray<Variant['operator']> = ['other-type', 'bounds'];
/** The bases that swap or add an exclusive group: extended, and needing a target that can send the other group. */
const GROUP_BASES: readonly Base[] = ['every-other-group', 'both-groups'];

/** The operators whose refusals among every body field are made beside the less common and the open forms too: the closest wrong type, the bounds, absent and null. */
const TWINNED_BODY_OPERATORS: ReadonlyArray<Variant['operator']> = ['other-type', 'bounds', 'absent', 'null'];

/** Variations other than bounds that have a form twin: those a form converter may take for valid. */
const FORM_TWIN_KEYS = ['wraps-32-bit', 'checkbox-on'];

/** The contract's body schemas, converting form fields to their scalar types as leniently as ajv's coerceTypes (Number(text) for a number). */
const formCheck = new Map<string, ValidateFunction>();

/**
 * Whether a form-encoded body is refused even once its fields are converted to the schema's scalar
 * types by the most lenient of the usual conversions (a text is a number where Number() reads it
 * whole): "3600.5" and "3600s" stay refused for an integer, though parseInt reads 3600 from each;
 * "1e3" or "0x10", which Number() reads, are not judged.
 */
function formRefused(card: OperationCard, form: string): boolean {
  const name = card.body!.schema;
  let check = formCheck.get(name);
  if (!check) formCheck.set(name, (check = createAjv({ coerceTypes: 'array', level: 'contract' }).compile(schema(name, 'contract'))));
  return !check(Object.fromEntries(new URLSearchParams(form)));
}

/**
 * A refusal of a top-level scalar field sent form-encoded: the same value, the same expectation (a
 * form parser converts values to the schema's scalar types). Only refusals: the spec asks for JSON,
 * so a target may refuse a form-encoded body whatever it holds. The variation is made on the JSON
 * body, then encoded.
 */
function formTwin(card: OperationCard, element: Element, variant: Variant, expectation: Expectation): MatrixRow | undefined {
  const scalar = element.kind === 'body-field' && element.path!.length === 1 && card.body !== undefined;
  const refusal = 'checks' in expectation && expectation.checks.every((check) => check.outcome.kind !== 'accept');
  // Numbers only: how a converter reads "1" or "yes" for a boolean varies (some take them for true).
  const numeric = ['integer', 'number'].includes(String(element.schemas?.contract?.type ?? element.schemas?.observed?.type));
  const typed = variant.operator === 'other-type' && numeric;
  if (!scalar || !refusal || (variant.operator !== 'bounds' && !typed && !FORM_TWIN_KEYS.includes(variant.key))) return undefined;
  const json = (context: RequestContext) => baseTemplate(card, 'alone', element, context);
  const apply = (_template: RequestTemplate, context: RequestContext) => asFormTemplate(variant.apply(json(context), context));
  // Judged on the JSON body it encodes; one that does not encode flat is no form twin.
  const encoded = apply(json(canonicalContext), canonicalContext);
  if (jsonBodyOf(encoded) !== undefined) return undefined;
  // A value of another type is a form twin only where its text is no value of the field's type
  // either: "3600" is an integer once form-encoded, "3600.5" is not.
  if (typed && !formRefused(card, (encoded.body as { raw: string }).raw)) return undefined;
  return {
    id: `${card.key} ${element.id} ${variant.operator}:${variant.key} alone-form`,
    element,
    variant: { ...variant, apply, judge: (_varied, context) => variant.judge!(variant.apply(json(context), context), context) },
    base: 'alone-form',
    expectation,
  };
}

/** A check as an answer without a body says it: by its status; none where the body alone says it. */
function asReadFromStatus(check: ClauseCheck): ClauseCheck[] {
  const { outcome } = check;
  if (outcome.kind === 'refuse' || outcome.kind === 'status' || outcome.kind === 'either') return [check];
  if (outcome.kind === 'observed-error') return [{ ...check, outcome: { kind: 'status', status: errorFact(outcome.error).status } }];
  return [];
}

/** What a twin base changes once a variation is made on it (a credential's carriage, the body's text). */
const TWIN_TEXT = { unusual: withUnusualText, lenient: withLenientText } as const;

/**
 * A refusal of the valid request (or of a field among every body field) made again beside every
 * optional part in its less common valid form (`unusual`, unusualTemplate), or beside forms the
 * spec leaves open (`lenient`, lenientTemplate): the same defect, the same expectation. Extended: a
 * tenant's custom domains and its answers to such forms are its own; a run of the test doubles
 * checks them. Where the variant says how the token travels, that is kept.
 */
function twinOn(
  base: 'unusual' | 'lenient',
  card: OperationCard,
  element: Element,
  variant: Variant,
  expectation: Expectation,
): MatrixRow | undefined {
  if (!expectsRefusal(expectation)) return undefined;
  const apply: Variant['apply'] = (template, context) => TWIN_TEXT[base](variant.apply(template, context));
  // HEAD (the open form of a GET) has no body: what a check reads from its answer is the status
  // alone (an observed error's own status).
  const head = base === 'lenient' && card.spec.method === 'GET';
  const read = (made: Expectation): Expectation =>
    head && 'checks' in made ? { ...made, checks: made.checks.flatMap(asReadFromStatus) } : made;
  // Judged on the request before its text is finished: the finishing (an id's letter encoded, the
  // scheme's spelling, the body's white space) leaves its meaning as it was.
  const judge: Variant['judge'] = variant.judge
    ? (_varied, context) => read(variant.judge!(variant.apply(baseTemplate(card, base, element, context), context), context))
    : undefined;
  const judged = judge
    ? judge(apply(baseTemplate(card, base, element, canonicalContext), canonicalContext), canonicalContext)
    : read(expectation);
  if (!expectsRefusal(judged) || ('checks' in judged && judged.checks.length === 0)) return undefined;
  return {
    id: `${card.key} ${element.id} ${variant.operator}:${variant.key} ${base}`,
    element,
    variant: { ...variant, apply, ...(judge ? { judge } : {}), extended: true },
    base,
    expectation: judged,
  };
}

/** The rows of one operation. */
export function matrixOf(card: OperationCard): MatrixRow[] {
  const rows: MatrixRow[] = [];
  for (const element of elementsOf(card)) {
    const bases: Base[] = element.kind === 'body-field' ? ['alone', 'every'] : ['valid'];
    // A field in no exclusive group is also varied beside the other group (its type and bounds):
    // extended, a run of the test doubles checks it.
    const otherGroup = element.kind === 'body-field' && otherGroupBody(card, element.path!, canonicalContext) !== undefined;
    if (otherGroup) bases.push('every-other-group');
    // A field of an exclusive group is also varied with both groups in the body (its closest wrong
    // type only): extended, a run of the test doubles checks it.
    if (element.kind === 'body-field' && bothGroupsBody(card, element.path!, canonicalContext) !== undefined) bases.push('both-groups');
    const variants = variantsOf(card, element);
    const closest = variants.find((v) => v.operator === 'other-type');
    const core = isCore(card, element);
    for (const base of bases) {
      for (const { expect, ...variant } of variants) {
        if (variant.aloneOnly === true && base !== 'alone') continue;
        if (base === 'every-other-group' && !OTHER_GROUP_OPERATORS.includes(variant.operator)) continue;
        if (base === 'both-groups' && variant.key !== closest?.key) continue;
        // Among every other field, the closest wrong type of a top-level field runs everywhere; the rest against test doubles.
        const extended =
          !core || variant.extended === true || (base === 'every' && (variant.key !== closest?.key || element.path!.length > 1));
        const expectation = variant.judge
          ? variant.judge(variant.apply(baseTemplate(card, base, element, canonicalContext), canonicalContext), canonicalContext)
          : expect;
        const needs = GROUP_BASES.includes(base)
          ? [...(variant.needs ?? []), { context: (context: RequestContext) => otherGroupUnavailable(card, context) }]
          : variant.needs;
        rows.push({
          id: `${card.key} ${element.id} ${variant.operator}:${variant.key} ${base}`,
          element,
          variant: {
            ...variant,
            ...(extended || GROUP_BASES.includes(base) ? { extended: true } : {}),
            ...(needs ? { needs } : {}),
          },
          base,
          expectation,
        });
        const twin = base === 'alone' ? formTwin(card, element, { ...variant, ...(extended ? { extended } : {}) }, expectation) : undefined;
        if (twin) rows.push(twin);
        const twinned =
          (base === 'valid' && !extended) ||
          (base === 'every' &&
            TWINNED_BODY_OPERATORS.includes(variant.operator) &&
            (variant.operator !== 'other-type' || variant.key === closest?.key));
        if (twinned)
          for (const on of ['unusual', 'lenient'] as const) {
            const made = twinOn(on, card, element, variant, expectation);
            if (made) rows.push(made);
          }
      }
    }
  }
  return rows;
}

let built: { operations: Record<OperationKey, MatrixRow[]>; token: TokenMatrixRow[] } | undefined;

/** Every operation's rows, and the token endpoint's; built once. */
export function matrix(): { operations: Record<OperationKey, MatrixRow[]>; token: TokenMatrixRow[] } {
  built ??= {
    operations: Object.fromEntries(Object.values(cards).map((c) => [c.key, matrixOf(c)])) as Record<OperationKey, MatrixRow[]>,
    token: tokenRequestRows(),
  };
  return built;
}
