// A token endpoint front end that reads parameter names its own way (their letter case folded, a
// "[]" suffix taken off): a body parameter whose name `rename` maps to one the endpoint reads, and
// that the body does not already carry under that name, reaches the endpoint under it. Form and
// JSON bodies alike; anything else, or a body that does not parse, is left for the endpoint.
import type { FaultHooks } from '../../../../app.ts';
import { isFormMediaType, isJsonMediaType } from '../../../../stages/json-body.ts';
import { editRequests } from '../../../support/route-edits.ts';
import { TOKEN_PARAMETER_NAMES } from '../../round-2/support/token-fields.ts';
import { jsonObject } from '../../round-4/support/token-requests.ts';

/** `rename` gives the name a parameter is read as, or undefined where it is read as sent. */
export function readParameterNamesAs(app: FaultHooks, rename: (name: string) => string | undefined): void {
  const readAs = (name: string, present: (candidate: string) => boolean): string => {
    const renamed = rename(name);
    return renamed !== undefined && renamed !== name && TOKEN_PARAMETER_NAMES.includes(renamed) && !present(renamed) ? renamed : name;
  };
  editRequests(app, 'token', (exchange) => {
    const contentType = exchange.headers['content-type'];
    const text = exchange.body.toString('utf8');
    if (isFormMediaType(contentType)) {
      const form = new URLSearchParams(text);
      const read = new URLSearchParams();
      for (const [name, value] of form)
        read.append(
          readAs(name, (n) => form.has(n)),
          value,
        );
      return read.toString() === form.toString() ? exchange : { ...exchange, body: Buffer.from(read.toString(), 'utf8') };
    }
    const fields = isJsonMediaType(contentType) ? jsonObject(text) : undefined;
    if (!fields) return exchange;
    const read = Object.fromEntries(Object.entries(fields).map(([name, value]) => [readAs(name, (n) => n in fields), value]));
    return Object.keys(read).join() === Object.keys(fields).join()
      ? exchange
      : { ...exchange, body: Buffer.from(JSON.stringify(read), 'utf8') };
  });
}
