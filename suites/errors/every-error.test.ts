// Observed: every error of the management interface has one body shape, whatever refused the
// request. Besides the errors one table checks by name (body-shape.test.ts), one test reads every
// error answer of the run so far that an operation's own route gave (its method, its path with
// plain ids), so that an error nobody listed (a 409, a 400 of a rule no table names) is held to it
// too. It runs after the other files but before the exhaustion (harness/suite/order.ts).
import { conformance, errorBodyProblems, expectNoProblems, isObservedContentType, shown, type Exchange } from '../../harness/index.ts';
import { fromItsRoute } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';
import { observed } from '../../specs/index.ts';

/** Whether an answer came from an operation's own route. */
const ofARoute = Object.values(cards).map(fromItsRoute);
const fromARoute = (exchange: Exchange) => ofARoute.some((ofIt) => ofIt(exchange));

function described(exchange: Exchange): string {
  return `${exchange.request.method} ${new URL(exchange.request.url).pathname} (${exchange.status})`;
}

conformance(
  '[§7 errors.body.shape] every error answer of an operation in the run so far has the error body shape',
  { operation: 'vault', requests: 0 },
  async ({ target }) => {
    const errors = target.answers.filter((exchange) => exchange.status >= 400 && exchange.status < 500 && fromARoute(exchange));
    target.needs(errors.length > 0, 'no error answer of an operation came before this test (run alone, it has nothing to read)');
    const problems = errors.flatMap((exchange) => errorBodyProblems(exchange).map((problem) => `${described(exchange)}: ${problem}`));
    expectNoProblems(
      problems.slice(0, 5).concat(problems.length > 5 ? [`and ${problems.length - 5} more`] : []),
      `on each of ${errors.length} error answers: {statusCode equal to the status, error its reason phrase, message[, errorCode]}`,
    );
  },
);

// The content type the same way: every error answer an operation's own route gave in the run so
// far is typed application/json; charset=utf-8, whatever the request's Accept preferred (the
// matrix's requests that prefer HTML among them): a framework's error page chosen by content
// negotiation is another type.
conformance(
  `[§7 errors.body.content-type] every error answer of an operation in the run so far is ${observed.content_type}`,
  { operation: 'vault', requests: 0 },
  async ({ target }) => {
    const errors = target.answers.filter((exchange) => exchange.status >= 400 && exchange.status < 500 && fromARoute(exchange));
    target.needs(errors.length > 0, 'no error answer of an operation came before this test (run alone, it has nothing to read)');
    const problems = errors.flatMap((exchange) => {
      const type = exchange.headers['content-type'];
      return isObservedContentType(type)
        ? []
        : [
            `${described(exchange)}: content type ${type ?? '(absent)'}${exchange.request.headers.accept ? ` (Accept: ${String(exchange.request.headers.accept)})` : ''}`,
          ];
    });
    expectNoProblems(
      problems.slice(0, 5).concat(problems.length > 5 ? [`and ${problems.length - 5} more`] : []),
      `on each of ${errors.length} error answers: content type ${observed.content_type}`,
    );
  },
);

// The same rule read wider, for the error field alone: every answer of the management interface in
// the run so far, whatever route gave it (a method an operation does not have, a path no route
// takes, an oversized body, a refused request of any kind), whose body is the service's error
// body (a JSON object whose statusCode is the status) names the reason phrase the observed
// reference gives its status. An answer in another shape (a proxy's page) and a status the
// reference gives no phrase are left to the tests of their own rules.
const phrases: Record<string, string> = observed.reason_phrases;
const inErrorShape = (exchange: Exchange) => {
  const body = exchange.json as { statusCode?: unknown } | undefined;
  return typeof body === 'object' && body !== null && body.statusCode === exchange.status;
};

conformance(
  "[§7 errors.body.shape] every error body of the management interface in the run so far names its status's reason phrase",
  { operation: 'vault', requests: 0 },
  async ({ target }) => {
    const errors = target.answers.filter(
      (exchange) => exchange.status >= 400 && phrases[exchange.status] !== undefined && inErrorShape(exchange),
    );
    target.needs(errors.length > 0, 'no error body of the management interface came before this test (run alone, it has nothing to read)');
    const problems = errors.flatMap((exchange) => {
      const error = (exchange.json as { error?: unknown }).error;
      return error === phrases[exchange.status]
        ? []
        : [`${described(exchange)}: error ${shown(error)} is not the reason phrase ${JSON.stringify(phrases[exchange.status])}`];
    });
    const statuses = [...new Set(errors.map((exchange) => exchange.status))].sort((a, b) => a - b);
    expectNoProblems(
      problems.slice(0, 5).concat(problems.length > 5 ? [`and ${problems.length - 5} more`] : []),
      `on each of ${errors.length} error bodies (statuses ${statuses.join(', ')}): error the reason phrase of its status (${statuses.map((status) => `${status} "${phrases[status]!}"`).join(', ')})`,
    );
  },
);
