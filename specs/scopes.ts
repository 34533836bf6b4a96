// The scope catalogue of spec section 5 (scopes.yaml) and a validator for scope strings.
import { readSpecFile } from './load.ts';

interface ScopeFile {
  actions: Record<string, string>;
  resources: Record<string, string>;
}

const file = readSpecFile('scopes.yaml') as ScopeFile;

export const scopeActions: readonly string[] = Object.values(file.actions);

/** Every action:resource pair of the catalogue, in table order. */
export const scopeCatalogue: readonly string[] = Object.entries(file.resources).flatMap(([resource, letters]) =>
  [...letters].map((letter) => {
    const action = file.actions[letter];
    if (!action) throw new Error(`scopes.yaml: unknown action letter ${letter} for ${resource}`);
    return `${action}:${resource}`;
  }),
);

const catalogue = new Set(scopeCatalogue);

/** The form every scope has: an action word, a colon, a resource name. */
export const SCOPE_FORM = /^(create|read|update|delete):[a-z][a-z0-9_]*$/;

export function isScope(value: string): boolean {
  return catalogue.has(value);
}

export interface ScopeStringCheck {
  scopes: string[];
  /** Items that are not of the action:resource form. */
  malformed: string[];
  /** Items of the right form that are not in the catalogue. */
  unknown: string[];
}

/** Checks a space-separated scope string, the form of a token's `scope` claim. */
export function checkScopeString(value: string): ScopeStringCheck {
  const scopes = value.split(' ').filter((s) => s.length > 0);
  return {
    scopes,
    malformed: scopes.filter((s) => !SCOPE_FORM.test(s)),
    unknown: scopes.filter((s) => SCOPE_FORM.test(s) && !catalogue.has(s)),
  };
}
