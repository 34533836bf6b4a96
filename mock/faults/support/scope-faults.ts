// The faults of each operation's scope rule, made from its card (specs/cards/): a permission table
// without its entry, and each lenient match of its scope. scopes-and-clients.ts lists them for the
// three operations; a card added to the project gets them at once.
import type { OperationCard } from '../../../specs/cards/card.ts';
import type { FaultRow } from '../fault.ts';
import { sameIgnoringCase } from './near-misses.ts';
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { bearerToken } from '../../auth/bearer.ts';
import type { Exchange } from '../../exchange.ts';
import { captureAll } from './captured.ts';
import { editRequests } from './route-edits.ts';
import { editPrincipal, signedPayload } from './verifier-edits.ts';

/** A permission table without an entry for the operation: every caller holds its scope. */
function noPermissionEntryFor(card: OperationCard): FaultRow['install'] {
  const scope = card.scope.value;
  return (app) => editPrincipal(app, (principal) => ({ ...principal, scopes: new Set([...principal.scopes, scope]) }));
}

/**
 * A permission table keyed by the request's URL as sent, its query string included, that lets a
 * request it has no entry for through: with a query string, the operation's scope is not asked for.
 */
function permissionsKeyedByUrl(card: OperationCard): FaultRow['install'] {
  return scopeGrantedWhen(card, (exchange) => exchange.query !== '');
}

/** The operation's scope granted to every correctly signed token of a request that `when` picks (its route's check skipped). */
export function scopeGrantedWhen(card: OperationCard, when: (exchange: Exchange) => boolean): FaultRow['install'] {
  return (app) => {
    const components = captureAll(app);
    editRequests(app, card.key, async (exchange) => {
      const token = bearerToken(exchange.headers.authorization);
      if (!when(exchange) || token === undefined) return exchange;
      const { keys } = components();
      const claims = await signedPayload(token, keys);
      if (!claims) return exchange;
      const scopes = new Set(typeof claims.scope === 'string' ? claims.scope.split(' ') : []).add(card.scope.value);
      const widened = await new SignJWT({ ...claims, scope: [...scopes].join(' ') })
        .setProtectedHeader(decodeProtectedHeader(token) as JWTHeaderParameters)
        .sign(keys.privateKey);
      return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${widened}` } };
    });
  };
}

/** decodeURIComponent, keeping a scope it cannot decode as it is. */
function safelyDecoded(scope: string): string {
  try {
    return decodeURIComponent(scope);
  } catch {
    return scope;
  }
}

/** The distance from a fullwidth form (U+FF01 to U+FF5E) to its ASCII character. */
const FULLWIDTH_OFFSET = 0xfee0;

/** A text with its fullwidth forms written as the ASCII characters they stand for. */
function halfWidth(text: string): string {
  return text.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - FULLWIDTH_OFFSET));
}

/** Permission checks that match a scope the token holds against the one needed, leniently. */
const lenientMatches: Array<{ name: string; check: (scope: string) => string; matches: (held: string, needed: string) => boolean }> = [
  {
    name: 'without-start-anchor',
    check: (scope) => `A permission pattern without its start anchor (/${scope}$/)`,
    matches: (held, needed) => held.endsWith(needed),
  },
  {
    name: 'without-end-anchor',
    check: (scope) => `A permission pattern without its end anchor (/^${scope}/)`,
    matches: (held, needed) => held.startsWith(needed),
  },
  {
    name: 'case-insensitive',
    check: () => 'Scopes compared ignoring case',
    matches: sameIgnoringCase,
  },
  {
    name: 'plus-read-as-space',
    check: () => 'A permission check that reads "+" in a scope as a space (the form encoding, decoded once more)',
    matches: (held, needed) => held.split('+').includes(needed),
  },
  {
    name: 'semicolon-read-as-separator',
    check: () => 'A permission check that splits the scope claim on ";" too (a legacy list separator)',
    matches: (held, needed) => held.split(';').includes(needed),
  },
  {
    name: 'pipe-read-as-separator',
    check: () => 'A permission check that splits the scope claim on "|" too (the separator of the permission strings a role editor stores)',
    matches: (held, needed) => held.split('|').includes(needed),
  },
  {
    name: 'percent-decoded',
    check: () => 'A permission check that percent-decodes the scope claim before splitting it ("%20" read as a space)',
    matches: (held, needed) => safelyDecoded(held).split(' ').includes(needed),
  },
  {
    name: 'split-on-any-whitespace',
    check: () =>
      'A permission check that splits the scope claim on any whitespace (/\\s+/), a tab included, where RFC 6749 separates scopes by spaces',
    matches: (held, needed) => held.split(/\s+/).includes(needed),
  },
  {
    name: 'hyphens-read-as-underscores',
    check: () => 'A permission check that folds "-" into "_" in held scopes (resource names that came from URL slugs)',
    matches: (held, needed) => held !== needed && held.replace(/-/g, '_') === needed,
  },
  {
    name: 'width-folded',
    check: () =>
      'A permission check that folds fullwidth forms (U+FF01 to U+FF5E) into ASCII in held scopes (a helper written for text typed with an East Asian input method)',
    matches: (held, needed) => held !== needed && halfWidth(held) === needed,
  },
  {
    name: 'by-resource',
    check: () => 'A permission check that compares the resource and forgets the action',
    matches: (held, needed) => held.split(':')[1] === needed.split(':')[1],
  },
];

/**
 * The faults of each operation's scope rule, made from its card: a permission table without its
 * entry, and each lenient match of its scope; each breaks that operation's scope clause alone. A
 * card added to the project gets them (a test adds a throw-away one and installs them).
 */
export function scopeFaultsOf(operations: readonly OperationCard[]): FaultRow[] {
  return operations.flatMap((card) => [
    {
      id: `${card.faultPrefix}-ignores-scope`,
      clause: card.scope.clause,
      bug: `A permission table without an entry for ${card.name}: a valid token without ${card.scope.value} is accepted there${card.scope.statusClauses.length > 0 ? ' (so no 403 either)' : ''}.`,
      install: noPermissionEntryFor(card),
    },
    {
      id: `${card.faultPrefix}-scope-skipped-with-query-string`,
      clause: card.scope.clause,
      bug: `A permission table keyed by the URL as sent, query included, that lets a request it has no entry for through: ${card.name} with any query string is authorized without ${card.scope.value}.`,
      install: permissionsKeyedByUrl(card),
    },
    ...lenientMatches.map(({ name: how, check, matches }) => ({
      id: `${card.faultPrefix}-scope-${how}`,
      clause: card.scope.clause,
      bug: `${check(card.scope.value)} in ${card.name}: a token holding a near miss of ${card.scope.value} in its place is authorized there.`,
      install: (app: Parameters<FaultRow['install']>[0]) =>
        editPrincipal(app, (principal) =>
          [...principal.scopes].some((held) => matches(held, card.scope.value))
            ? { ...principal, scopes: new Set([...principal.scopes, card.scope.value]) }
            : principal,
        ),
    })),
  ]);
}
