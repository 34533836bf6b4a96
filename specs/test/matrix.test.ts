// The request-model matrix is held to its model: every element of every operation's request has
// rows, every operator that makes a row is in the catalogue, every expectation cites clauses the
// registry has (at a level that is the clause's), every row without one says why, and nothing in
// it depends on a seed.
import { describe, expect, it } from 'vitest';
import { cards } from '../cards/index.ts';
import { clause, hasClause } from '../clauses.ts';
import { elementsOf, expectsRefusal, matrix, matrixOf, operatorIds } from '../matrix/index.ts';
import { A_HEADER_VALUE, canonicalContext, jsonBodyOf, unusualTemplate, withUnusualText } from '../matrix/template.ts';

const { operations, token } = matrix();
const rows = [...Object.values(operations).flat(), ...token];

describe('the request-model matrix', () => {
  it.each(Object.values(cards).flatMap((card) => elementsOf(card).map((element) => [card.key, element.id] as const)))(
    'has rows for %s %s',
    (op, id) => {
      expect(operations[op].filter((row) => row.element.id === id).length).toBeGreaterThan(0);
    },
  );

  it('makes its rows with operators of the catalogue only', () => {
    expect(rows.filter((row) => !operatorIds.includes(row.variant.operator)).map((row) => row.id)).toEqual([]);
  });

  it('names each row once', () => {
    const ids = rows.map((row) => row.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('cites only testable clauses of the registry', () => {
    const cited = rows.flatMap((row) => ('checks' in row.expectation ? row.expectation.checks.map((c) => c.clause) : []));
    expect(cited.filter((id) => !hasClause(id) || !clause(id).testable)).toEqual([]);
  });

  it('says why wherever it has no expectation', () => {
    expect(rows.filter((row) => 'none' in row.expectation && row.expectation.none.trim().length < 20).map((row) => row.id)).toEqual([]);
  });

  it('checks a refusal or an acceptance on every row with an expectation', () => {
    expect(rows.filter((row) => 'checks' in row.expectation && row.expectation.checks.length === 0).map((row) => row.id)).toEqual([]);
  });

  it('is the same data when built again (no seed, no clock)', () => {
    const again = Object.values(cards).flatMap((card) => matrixOf(card));
    const describe = (r: (typeof again)[number]) => `${r.id} ${JSON.stringify(r.expectation)}`;
    expect(again.map(describe)).toEqual(Object.values(operations).flat().map(describe));
  });

  it('varies every body field alone and among every other field, and refuses top-level scalars form-encoded too', () => {
    const body = operations['sso-ticket'].filter((row) => row.element.kind === 'body-field');
    const bases = new Set(body.filter((row) => row.base === 'alone' || row.base === 'every').map((row) => `${row.element.id} ${row.base}`));
    const fields = new Set(body.map((row) => row.element.id));
    expect(bases.size).toBe(2 * fields.size);
    // A field in no exclusive group is varied beside the other group too (its type and bounds, extended); a field of a group never.
    const grouped = (cards['sso-ticket'].body?.exclusive ?? []).flat() as readonly string[];
    const other = body.filter((row) => row.base === 'every-other-group');
    const otherFields = new Set(other.map((row) => row.element.path![0]!));
    expect(otherFields).toContain('ttl_sec');
    expect([...otherFields].filter((field) => grouped.includes(field))).toEqual([]);
    expect(other.every((row) => row.variant.extended === true && ['other-type', 'bounds'].includes(row.variant.operator))).toBe(true);
    expect(
      other.some((row) => row.element.id === 'body.ttl_sec' && row.variant.operator === 'bounds' && expectsRefusal(row.expectation)),
    ).toBe(true);
    const form = body.filter((row) => row.base === 'alone-form');
    expect(form.map((row) => row.element.id)).toContain('body.ttl_sec');
    expect(form.every((row) => row.element.path!.length === 1 && expectsRefusal(row.expectation))).toBe(true);
  });

  it("makes every refusal of the valid request that runs on tenants, and a field's type, bounds and null among every body field, again beside every optional part in a less common form (extended)", () => {
    for (const card of Object.values(cards)) {
      const of = operations[card.key];
      const core = of.filter((row) => row.base === 'valid' && row.variant.extended !== true && expectsRefusal(row.expectation));
      const unusual = new Map(
        of
          .filter((row) => row.base === 'unusual' && row.element.kind !== 'body-field')
          .map((row) => [row.id.replace(/ unusual$/, ''), row]),
      );
      expect(core.length).toBeGreaterThan(100);
      for (const row of core) {
        const twin = unusual.get(row.id.replace(/ valid$/, ''));
        expect(twin?.variant.extended, row.id).toBe(true);
        expect(twin?.expectation, row.id).toEqual(row.expectation);
      }
      expect(unusual.size).toBe(core.length);
    }
    // Among every body field: the closest wrong type, the bounds, absent and null of a field.
    const ttl = operations['sso-ticket'].filter((row) => row.element.id === 'body.ttl_sec' && row.base === 'unusual');
    expect(ttl.map((row) => row.variant.operator)).toEqual(expect.arrayContaining(['other-type', 'bounds', 'null']));
    expect(ttl.every((row) => row.variant.extended === true && expectsRefusal(row.expectation))).toBe(true);
    const ticket = unusualTemplate(cards['sso-ticket'], canonicalContext);
    expect(ticket.headers).toMatchObject({
      'content-type': ['application/json; charset=utf-8'],
      accept: ['application/json, text/plain, */*'],
      'tenant-custom-domain': [A_HEADER_VALUE],
    });
    expect(Object.keys(jsonBodyOf(ticket) as object).length).toBeGreaterThan(3);
    const carry = withUnusualText(unusualTemplate(cards.vault, canonicalContext)).credential;
    expect(carry.kind === 'role' && carry.carry?.authorization?.('t')).toEqual(['bearer t']);
  });

  // Operators were added where a fault showed a gap (kid had whitespace rows, alg had none), so a
  // family's sibling text members drift apart; each of them gets the same text operators.
  it.each(['token.header.alg', 'token.header.kid', 'token.claims.iss', 'token.claims.aud', 'token.claims.sub', 'token.claims.azp'])(
    'varies the token text member %s by every text operator: absent, null, empty, case, cut short, another type, a space after, a tab before and a NUL then text after',
    (id) => {
      const of = Object.values(operations)
        .flat()
        .filter((row) => row.element.id === id);
      const operatorsUsed = new Set(of.map((row) => row.variant.operator));
      const keys = new Set(of.map((row) => row.variant.key));
      expect([...['absent', 'null', 'empty', 'case', 'truncate', 'other-type'].filter((op) => !operatorsUsed.has(op as never))]).toEqual(
        [],
      );
      expect(['whitespace', 'whitespace-leading', 'nul-then-text'].filter((key) => !keys.has(key))).toEqual([]);
    },
  );

  // The same for the token request's text fields: each gets every text variation, as the form
  // carries it (a space at either end, a NUL, a pair separator, an escape, a lossy twin).
  const formText = ['absent', 'empty', 'truncate', 'case', 'trailing-space', 'leading-space', 'nul-after', 'nul-then-text'];
  const formCarried = ['semicolon-after', 'percent-encoded-character', 'list-in-json', 'in-query', 'repeated-same-value'];
  it.each([
    ['form.client_id', [...formText, ...formCarried, 'fullwidth']],
    ['form.client_secret', [...formText, ...formCarried, 'fullwidth']],
    ['form.grant_type', [...formText, ...formCarried, 'fullwidth']],
    [
      'form.audience',
      ['case', 'trailing-space', 'leading-space', 'nul-then-text', 'percent-encoded-character', 'semicolon-after', 'list-in-json'],
    ],
  ] as const)('varies the token request field %s by every text variation', (id, wanted) => {
    const keys = new Set(token.filter((row) => row.element.id === id).map((row) => row.variant.key));
    expect(wanted.filter((key) => !keys.has(key))).toEqual([]);
  });
});
