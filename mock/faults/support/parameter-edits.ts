// Edits of a request's parameters before the mock reads them, shared by the fault families: the
// token request's fields (form or JSON), a client's secret matched by a lenient comparison, a path
// parameter (still percent-encoded, as sent).
import type { OperationKey } from '../../../specs/index.ts';
import type { FaultHooks } from '../../app.ts';
import type { Components } from '../../components.ts';
import type { Exchange } from '../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../stages/json-body.ts';
import { captureAll } from './captured.ts';
import { editRequests } from './route-edits.ts';

export type Parameters = Record<string, unknown>;

export function parametersOf(exchange: Exchange): Parameters | undefined {
  const text = exchange.body.toString('utf8');
  if (isFormMediaType(exchange.headers['content-type'])) return Object.fromEntries(new URLSearchParams(text));
  if (!isJsonMediaType(exchange.headers['content-type'])) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Parameters) : undefined;
  } catch {
    return undefined;
  }
}

export function withParameters(exchange: Exchange, parameters: Parameters): Exchange {
  const text = isFormMediaType(exchange.headers['content-type'])
    ? new URLSearchParams(parameters as Record<string, string>).toString()
    : JSON.stringify(parameters);
  return { ...exchange, body: Buffer.from(text, 'utf8') };
}

/** Rewrites one parameter of each token request where `rewrite` gives another value. */
export function editTokenParameter(
  app: FaultHooks,
  name: string,
  rewrite: (value: string, parameters: Parameters, components: Components) => string | undefined,
): void {
  const components = captureAll(app);
  editRequests(app, 'token', (exchange) => {
    const parameters = parametersOf(exchange);
    const value = parameters?.[name];
    if (typeof value !== 'string') return exchange;
    const rewritten = rewrite(value, parameters!, components());
    return rewritten === undefined || rewritten === value ? exchange : withParameters(exchange, { ...parameters, [name]: rewritten });
  });
}

/** The client's own secret where `matches(sent, stored)`. */
export function secretMatching(matches: (sent: string, stored: string) => boolean) {
  return (app: FaultHooks) =>
    editTokenParameter(app, 'client_secret', (sent, parameters, { store }) => {
      const stored = typeof parameters.client_id === 'string' ? store.client(parameters.client_id)?.secret : undefined;
      return stored !== undefined && matches(sent, stored) ? stored : undefined;
    });
}

/** The segment decoded once (by a proxy, before the application decodes it again); undefined when it does not decode. */
export function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Changes a path parameter (still percent-encoded, as sent) before the route reads it. */
export function editPathParameter(app: FaultHooks, key: OperationKey, name: string, edit: (raw: string) => string | undefined): void {
  editRequests(app, key, (exchange) => {
    const raw = exchange.params[name];
    const edited = raw === undefined ? undefined : edit(raw);
    return edited === undefined ? exchange : { ...exchange, params: { ...exchange.params, [name]: edited } };
  });
}
