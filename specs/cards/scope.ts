// The scope an operation needs, and where that fact comes from: the spec's (openapi.yaml's
// x-required-scopes, contract level) where it names one, else the real service's (observed.yaml).
import type { OperationKey } from '../openapi.ts';
import { operation } from '../openapi.ts';
import { observed } from '../observed.ts';
import type { ScopeRule } from './card.ts';

export function scopeRule(key: OperationKey, rule: { clause: string; statusClauses: string[]; otherResource: string }): ScopeRule {
  const stated = operation(key).contractScopes[0];
  return stated !== undefined
    ? { value: stated, level: 'contract', ...rule }
    : { value: observed.operations[key].scope.value, level: 'observed', ...rule };
}
