// Two causes of a refusal at once, on every operation where both can be made. The observed
// reference orders authentication (401) before authorization (403), and both before the path, the
// headers, the body and the state (400, 404, 409): a request with two of those is answered for the
// first (auth.order), so that an unauthenticated caller learns nothing of which ids exist. Neither
// the spec nor the reference orders the path, the body and the state among themselves: a request
// with two of those gets the answer of either, and the title says so (errors.two-causes). Each
// defect is a row of the matrix, applied one after the other; the positive control is the valid
// request.
import { conformance } from '../../harness/index.ts';
import { checkOutcome, matrixRow, rowTitle } from '../../harness/suite/matrix.ts';
import { operationNeeds, sharedRequest, successOf } from '../../harness/suite/requests.ts';
import type { OperationCard, RequestTemplate } from '../../specs/cards/card.ts';
import { cards } from '../../specs/cards/index.ts';
import { baseTemplate, matrix, type MatrixRow, type RequestContext } from '../../specs/matrix/index.ts';
import { fixture, role, type Need, type RoleName } from '../../harness/index.ts';

const NOT_FOUND = 404;

/** Causes of a refusal, in the order the reference decides them; the last three are not ordered among themselves. */
const ORDER = ['authentication', 'authorization', 'input'] as const;
interface Cause {
  order: (typeof ORDER)[number];
  what: string;
  status: number;
  row: MatrixRow;
  apply(t: RequestTemplate, c: RequestContext): RequestTemplate;
  needs: Need[];
  /** Paired with the credential's causes (where the reference orders them) and an id that names nothing (either) only. */
  withCredentialOnly?: true;
}

function rowOf(card: OperationCard, id: string): MatrixRow {
  return matrixRow(card.key, `${card.key} ${id}`);
}

/** The causes one operation's request can carry, each made by a row of its matrix. */
function causesOf(card: OperationCard): Cause[] {
  const from = (id: string, order: Cause['order'], what: string, status: number, needs: Need[] = []): Cause => {
    const row = rowOf(card, id);
    return { order, what, status, needs, row, apply: (t, c) => row.variant.apply(t, c) };
  };
  const param = Object.keys(card.params)[0]!;
  const causes: Cause[] = [
    from('authorization absent:absent valid', 'authentication', 'no Authorization header', 401),
    from(
      'token.scope.' + card.scope.value + ' other-owner:role-without-scope valid',
      'authorization',
      'the token of a client without the scope',
      403,
      [role(card.roleWithoutScope as RoleName)],
    ),
    from(`path.{${param}} other-owner:another-kind valid`, 'input', `a ${card.params[param]!.names} id of another resource's shape`, 400),
    from(`path.{${param}} near-value:unknown valid`, 'input', `a ${card.params[param]!.names} id that names nothing`, 404),
  ];
  if (card.globalClient) {
    // The global-client rule is authentication too (spec 7: 401): decided before any id is looked up.
    causes.push(
      from('token other-owner:non-global-client valid', 'authentication', 'the token of a client that is not global', 401, [
        role('non_global'),
      ]),
    );
  }
  // Each path id one character over its length (its longest bound row, refused under the length's
  // clause: 400): input, decided after the credential, however a router's validation of the id's
  // length is placed. Paired with the credential's causes only.
  for (const name of Object.keys(card.params)) {
    const bound = matrix()
      .operations[card.key].filter(
        (r) =>
          r.element.id === `path.{${name}}` &&
          r.variant.operator === 'bounds' &&
          /^\d+$/.test(r.variant.key) &&
          r.base === 'valid' &&
          'checks' in r.expectation &&
          r.expectation.checks.some((check) => check.clause.endsWith('.length')),
      )
      .sort((a, b) => Number(a.variant.key) - Number(b.variant.key))
      .pop();
    if (bound)
      causes.push({
        order: 'input',
        what: `${/^[aeiou]/.test(card.params[name]!.names) ? 'an' : 'a'} ${card.params[name]!.names} id ${bound.variant.says}`,
        status: 400,
        row: bound,
        needs: [],
        withCredentialOnly: true,
        apply: (t, c) => bound.variant.apply(t, c),
      });
  }
  if (card.key === 'redeliver') {
    // The state: an event whose state does not allow redelivery (409). Decided after the
    // credential, as the taken name below; paired with the credential's causes, and with a stream id
    // that names nothing (two lookups that fail: either answer).
    causes.push({
      order: 'input',
      what: 'an event whose state does not allow redelivery',
      status: 409,
      row: rowOf(card, 'path.{event_id} near-value:unknown valid'),
      needs: [fixture('notRedeliverableEvent')],
      withCredentialOnly: true,
      apply: (t, c) => withParam(t, 'event_id', String(c.fixtures.notRedeliverableEvent)),
    });
  }
  const shortDomain = matrix().operations[card.key].find((r) => r.id === `${card.key} header.tenant-custom-domain bounds:2 valid`);
  if (shortDomain) {
    // A header too short for a custom domain (400): input, decided after the credential. Paired with
    // the credential's causes, and with an id that names nothing (either answer).
    causes.push({
      order: 'input',
      what: 'a custom-domain header of 2 characters',
      status: 400,
      row: shortDomain,
      needs: [],
      withCredentialOnly: true,
      apply: (t, c) => shortDomain.variant.apply(t, c),
    });
  }
  if (card.body) {
    causes.push(from('body.ttl_sec other-type:type-string alone', 'input', 'ttl_sec of another type', 400));
    // The state: a connection name that is taken (409). Decided after the credential, so that a
    // caller without the scope learns nothing of which names exist; paired with the credential's
    // causes, and with a profile id that names nothing (two lookups that fail: either answer, never
    // a 5xx from a handler that cannot hold both).
    const named = rowOf(card, 'body.connection_config.name null:null alone');
    causes.push({
      order: 'input',
      what: 'a connection name that is taken',
      status: 409,
      row: named,
      needs: [fixture('existingConnectionName')],
      withCredentialOnly: true,
      apply: (t, c) => withConnectionName(t, String(c.fixtures.existingConnectionName)),
    });
  }
  return causes;
}

/** The template with path parameter `name` set to `value`. */
function withParam(template: RequestTemplate, name: string, value: string): RequestTemplate {
  return { ...template, path: template.path.map((part) => ('param' in part && part.param === name ? { param: name, value } : part)) };
}

/** The body with connection_config.name set to `name` (connection_config made where the body has none). */
function withConnectionName(template: RequestTemplate, name: string): RequestTemplate {
  const json = (template.body && 'json' in template.body ? template.body.json : {}) as Record<string, unknown>;
  const config = (typeof json.connection_config === 'object' && json.connection_config !== null ? json.connection_config : {}) as Record<
    string,
    unknown
  >;
  return { ...template, body: { json: { ...json, connection_config: { ...config, name } } } };
}

/** Two causes that can come together: not both on the credential. */
function pairsOf(card: OperationCard): Array<[Cause, Cause]> {
  const causes = causesOf(card);
  const pairs: Array<[Cause, Cause]> = [];
  causes.forEach((a, i) =>
    causes.slice(i + 1).forEach((b) => {
      const credential = (c: Cause) => c.order !== 'input';
      const sameParam = a.what.includes(' id ') && b.what.includes(' id ');
      // A state cause (409) also comes with an id that names nothing (404): two lookups that fail.
      const lookup = (c: Cause) => credential(c) || c.status === NOT_FOUND;
      const credentialOnly =
        (a.withCredentialOnly && !lookup(b)) || (b.withCredentialOnly && !lookup(a)) || (a.withCredentialOnly && b.withCredentialOnly);
      if (!(credential(a) && credential(b)) && !sameParam && !credentialOnly) pairs.push([a, b]);
    }),
  );
  return pairs;
}

for (const card of Object.values(cards)) {
  const control = successOf(card.key);
  for (const [a, b] of pairsOf(card)) {
    const ordered = ORDER.indexOf(a.order) !== ORDER.indexOf(b.order);
    const first = ORDER.indexOf(a.order) < ORDER.indexOf(b.order) ? a : b;
    const check = ordered
      ? { clause: 'auth.order', outcome: { kind: 'status' as const, status: first.status } }
      : { clause: 'errors.two-causes', outcome: { kind: 'either' as const, statuses: [...new Set([a.status, b.status])] } };
    const key = `${card.key}: two causes, ${a.what} and ${b.what}`;
    const needs: Need[] = [...operationNeeds(card.key), ...a.needs, ...b.needs];
    const title = rowTitle(
      card.name,
      check,
      `${a.what} and ${b.what}${ordered ? ` (${first.order} first)` : ' (either: no order is known)'}`,
    );
    conformance(title, { operation: card.key, needs, requests: 0, shared: [key, sharedRequest.success(card.key)] }, async ({ target }) => {
      await target.control('the valid request', () => control.send(target));
      const context = target.context;
      // A body cause varies the body it was made on (the field alone); the others vary the valid request.
      const inBody = [a, b].find((cause) => cause.row.base !== 'valid');
      const base = baseTemplate(card, inBody?.row.base ?? 'valid', (inBody ?? a).row.element, context);
      checkOutcome(await target.sendTemplate(b.apply(a.apply(base, context), context), { shared: key, label: card.key }), check.outcome);
    });
  }
}
