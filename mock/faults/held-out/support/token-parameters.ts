// Rewriting the parameters of a token request (form-encoded or JSON) before the token endpoint
// reads them: how a lenient front end normalises what the client sent. Parameters sent more than
// once, and bodies that do not parse, are left for the endpoint to refuse.
import type { FaultHooks } from '../../../app.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import { editRequests } from '../../support/route-edits.ts';

export type TokenParameters = Record<string, string>;

/** `edit` returns the parameters unchanged (the same object) where it does not apply. */
export function editTokenParameters(app: FaultHooks, edit: (params: TokenParameters) => TokenParameters): void {
  editRequests(app, 'token', (exchange) => {
    const contentType = exchange.headers['content-type'];
    const text = exchange.body.toString('utf8');
    if (isFormMediaType(contentType)) {
      const form = new URLSearchParams(text);
      const params: TokenParameters = {};
      for (const name of new Set(form.keys())) if (form.getAll(name).length === 1) params[name] = form.get(name)!;
      const edited = edit(params);
      if (edited === params) return exchange;
      for (const [name, value] of Object.entries(edited)) form.set(name, value);
      return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
    }
    if (isJsonMediaType(contentType)) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return exchange;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return exchange;
      const strings = Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      const edited = edit(strings);
      if (edited === strings) return exchange;
      return { ...exchange, body: Buffer.from(JSON.stringify({ ...value, ...edited }), 'utf8') };
    }
    return exchange;
  });
}
