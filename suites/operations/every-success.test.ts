// Observed: every success of an operation has the real service's shape, not only the one each
// answer test reads (answer.test.ts). One test per operation sends the valid request once more, so
// that there are two successes at least, then reads every 2xx answer its own route gave in the run
// so far (the tickets the body rows were given, the records read again): a shape that holds on
// some answers only (a code drawn at random, a field set on some records, the first answer of a
// process) is seen where it breaks. It runs after the other files but before the exhaustion
// (harness/suite/order.ts).
import { conformance, expectNoProblems } from '../../harness/index.ts';
import { fromItsRoute, successOf } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';
import { validTemplate } from '../../specs/matrix/template.ts';
import { clause, describeErrors, validator } from '../../specs/index.ts';

/** The first answers that break the shape a failure names; the rest are counted. */
const NAMED = 5;

for (const card of Object.values(cards)) {
  if (!('body' in card.answer)) continue;
  const body = card.answer.body;
  const ofItsRoute = fromItsRoute(card);
  conformance(
    `[§${clause(body.shapeClause).section} ${body.shapeClause}] every success of ${card.name} in the run so far, and one more, has the real service's shape`,
    { ...successOf(card.key).plan, requests: 1 },
    async ({ target }) => {
      await successOf(card.key).send(target);
      await target.sendTemplate(validTemplate(card, target.context), { label: card.key });
      // A summary keeps only the beginning of a long body: such an answer cannot be read whole here.
      const successes = target.answers.filter(
        (exchange) => exchange.status >= 200 && exchange.status < 300 && ofItsRoute(exchange) && exchange.bodyLength === undefined,
      );
      target.needs(
        successes.length >= 2,
        `the valid request of ${card.name} was not answered with a success twice: there is nothing to read`,
      );
      const validate = validator(body.schema, 'observed');
      const problems = successes.flatMap((exchange) =>
        validate(exchange.json)
          ? []
          : [`${new URL(exchange.request.url).pathname} (${exchange.status}): ${describeErrors(validate.errors)}`],
      );
      expectNoProblems(
        problems.slice(0, NAMED).concat(problems.length > NAMED ? [`and ${problems.length - NAMED} more`] : []),
        `on each of ${successes.length} successes: ${body.shape}`,
      );
    },
  );
}
