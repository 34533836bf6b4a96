// Scopes are compared whole: a token whose scope claim holds a near miss of the operation's scope
// (one that contains it, one that extends it, the same in capitals, or its resource with another
// action of the section 5 catalogue) and nothing else of that operation is refused 403. Redelivery
// by spec sections 5 and 7, the other operations as observed (their scopes are the service's).
// The target's own token with its scope claim changed: only its signing key makes one, so these
// are not applicable to a real tenant, whose roles without a scope check the far case (scopes.test.ts).
import type { JWTPayload } from 'jose';
import { conformance, expectRefused, expectStatus, minted, type Exchange } from '../../harness/index.ts';
import { clause, observed, operationKeys, scopeCatalogue, type OperationKey } from '../../specs/index.ts';
import { withCredential } from '../requests.ts';

/** The scope's resource with the first other action the catalogue has for it. */
function otherActionOf(scope: string): string {
  const resource = scope.slice(scope.indexOf(':') + 1);
  const other = scopeCatalogue.find((candidate) => candidate !== scope && candidate.endsWith(`:${resource}`));
  if (!other) throw new Error(`the scope catalogue has no other action for ${resource}`);
  return other;
}

const nearMisses: Array<{ what: string; of: (scope: string) => string }> = [
  { what: 'a scope that contains it', of: (scope) => `not_${scope}` },
  { what: 'a scope that extends it', of: (scope) => `${scope}_all` },
  { what: 'it in capitals', of: (scope) => scope.toUpperCase() },
  { what: 'its resource with another action', of: otherActionOf },
];

/** The claims with the operation's scope replaced by its near miss; the other scopes stay. */
function withScopeReplaced(claims: JWTPayload, scope: string, nearMiss: string): JWTPayload {
  const others = (typeof claims.scope === 'string' ? claims.scope : '').split(' ').filter((s) => s.length > 0 && s !== scope);
  return { ...claims, scope: [...others, nearMiss].join(' ') };
}

type Check = (exchange: Exchange) => void;
const answers403: Check = (exchange) => expectStatus(exchange, 403);

/** What each operation's clauses say of such a token. */
const clausesOf: Record<OperationKey, Array<{ id: string; says: string; check: Check }>> = {
  redeliver: [
    { id: 'redeliver.scope', says: 'refuses', check: expectRefused },
    { id: 'redeliver.errors.403.scope', says: 'answers 403 to', check: answers403 },
  ],
  'sso-ticket': [{ id: 'sso-ticket.scope', says: 'answers 403 to', check: answers403 }],
  vault: [{ id: 'vault.scope', says: 'answers 403 to', check: answers403 }],
};

for (const op of operationKeys) {
  const scope = observed.operations[op].scope.value;
  for (const { what, of } of nearMisses) {
    const nearMiss = of(scope);
    const name = `a token holding ${nearMiss} (${what}) in place of ${scope}`;
    const request = withCredential(
      op,
      name,
      async (t) => ({ token: await t.resigned((claims) => withScopeReplaced(claims, scope, nearMiss)) }),
      { needs: [minted('signing-key')] },
    );
    for (const row of clausesOf[op]) {
      conformance(`[§${clause(row.id).section} ${row.id}] ${op} ${row.says} ${name}`, request.plan, async ({ target }) => {
        row.check(await request.send(target));
      });
    }
  }
}
