// The token request's parameters, form-encoded or JSON, rewritten before the token route reads them.
import type { FaultHooks } from '../../../../app.ts';
import { isJsonMediaType } from '../../../../stages/json-body.ts';
import { editRequests } from '../../../support/route-edits.ts';

type Params = Record<string, unknown>;

/** Rewrites the token request's parameters; `edit` returns them unchanged when it does not apply. */
export function editTokenParams(app: FaultHooks, edit: (params: Params) => Params): void {
  editRequests(app, 'token', (exchange) => {
    const type = String(exchange.headers['content-type'] ?? '');
    const text = exchange.body.toString('utf8');
    if (isJsonMediaType(type)) {
      try {
        const value: unknown = JSON.parse(text);
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return exchange;
        const edited = edit(value as Params);
        return edited === value ? exchange : { ...exchange, body: Buffer.from(JSON.stringify(edited), 'utf8') };
      } catch {
        return exchange;
      }
    }
    if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return exchange;
    const params = Object.fromEntries(new URLSearchParams(text)) as Params;
    const edited = edit(params);
    if (edited === params) return exchange;
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(edited)) form.append(name, String(value));
    return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
  });
}

/** Rewrites the bearer credential of the routes' requests before they read it. */
export function editBearer(
  app: FaultHooks,
  keys: readonly Parameters<typeof editRequests>[1][],
  edit: (authorization: string) => string,
): void {
  for (const key of keys)
    editRequests(app, key, (exchange) => {
      const { authorization } = exchange.headers;
      if (typeof authorization !== 'string') return exchange;
      const edited = edit(authorization);
      return edited === authorization ? exchange : { ...exchange, headers: { ...exchange.headers, authorization: edited } };
    });
}
