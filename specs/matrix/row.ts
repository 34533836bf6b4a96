// A row of the matrix: one element of a request model, varied one way by one operator of the
// catalogue, with the outcome the spec or the observed reference expects and the clauses it bears
// on (or, where neither says, why there is no expectation).
import type { AlternativeToken, ClauseCheck, RequestTemplate } from '../cards/card.ts';
import type { FixtureName } from '../cards/fixtures.ts';
import type { Element } from './elements.ts';
import type { OperatorId } from './operators.ts';
import type { RequestContext } from './template.ts';

/** What sending a variation needs beyond the valid request. */
export type MatrixNeed =
  | { token: 'signing-key' | AlternativeToken }
  | { role: string }
  | { fixture: FixtureName }
  | { jwks: true }
  /** A condition on the target's context; the skip reason when it does not hold. */
  | { context: (context: RequestContext) => string | undefined };

/** One variation of an element by an operator. */
export interface Variant {
  operator: OperatorId;
  /** Unique among the element's variants of this operator: "25", "type-string", "trailing-slash". */
  key: string;
  /** What it makes of the element, read after its label: "in the other letter case", "of 31 characters". */
  says: string;
  apply(template: RequestTemplate, context: RequestContext): RequestTemplate;
  needs?: MatrixNeed[];
  /** Made with the target's signing key: its positive control is the valid token re-signed unchanged. */
  resigned?: boolean;
  /**
   * Made with the key client's key (token_alternatives.key_client): a second positive control, the
   * key client's token asked for with a client assertion signed with that key, shows the tenant
   * knows the key; without it a refusal of the key proves no more than a foreign key's.
   */
  keyClientControl?: boolean;
  /** Not run on a real tenant by default (--matrix full): costly, and other rows check its clause there. */
  extended?: boolean;
  /**
   * A body field's variation made only in the field's smallest body (base "alone"): among every
   * field it would check nothing the alone one does not.
   */
  aloneOnly?: boolean;
  /**
   * For variations judged by the value they make (a path id, a header, a body): the expectation of
   * the request as varied for a target. The row's expectation is this in the canonical context; a
   * target whose fixtures make the variation land elsewhere skips the row (config).
   */
  judge?: (varied: RequestTemplate, context: RequestContext) => Expectation;
}

export type Expectation =
  | { checks: ClauseCheck[]; source: string }
  /** Neither the spec nor the observed reference says what this variation gets. */
  | { none: string };

/**
 * The request a row varies: the valid one, the field alone in its smallest body, among every field,
 * alone in a form-encoded body (the real service reads the ticket body form-encoded too), or among
 * every field with the card's other exclusive group in place of the one its body holds (for a field
 * in no group: a rule that depends on the group beside it), or the valid one with every optional
 * part present in a legal but less common form, or in forms the spec leaves open (a refusal beside
 * them: template.ts unusualTemplate, lenientTemplate).
 */
export type Base = 'valid' | 'alone' | 'every' | 'alone-form' | 'every-other-group' | 'both-groups' | 'unusual' | 'lenient';

export interface MatrixRow {
  /** Stable: "redeliver path.{id} bounds:25 valid". */
  id: string;
  element: Element;
  variant: Variant;
  base: Base;
  expectation: Expectation;
}

/** Whether a row expects a refusal: its positive control must then have been accepted. */
export function expectsRefusal(expectation: Expectation): boolean {
  return 'checks' in expectation && expectation.checks.some((check) => check.outcome.kind !== 'accept');
}
