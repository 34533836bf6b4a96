// Spec sections 7 and 8: redelivery names an existing stream and an event of that stream, by ids
// of exactly 26 characters. Ids that differ from existing ones only by letter case (a stream that
// does not exist: 404), by a space or tab at one end or a character escaped once more (27 or 28
// characters: refused), and an event that exists in another stream (404), are the near misses a
// case-insensitive collation, a trimming binder, a path decoded twice or a lookup of events by id
// alone would accept. Made from existing ids: a target that wrongly accepts one redelivers, so
// they run on a tenant only with --allow-writes.
import type fc from 'fast-check';
import { cases, conformance, expectRefused, expectStatus, fixture, writes, type CallInput, type Exchange } from '../../harness/index.ts';
import { idInOtherCase, idWithEscapedCharacter, paddedId } from '../../generators/index.ts';
import { clause } from '../../specs/index.ts';
import { exampleOf } from '../requests.ts';

interface NearMiss {
  clause: string;
  says: string;
  /** The near misses of the request's ids, from the existing stream and failed event. */
  of(stream: string, event: string): fc.Arbitrary<CallInput['params']>;
  check(exchange: Exchange): void;
}

const nearMisses: NearMiss[] = [
  {
    clause: 'redeliver.errors.404.stream',
    says: 'answers 404 for an existing stream id in another letter case',
    of: (stream, event) => idInOtherCase(stream).map((id) => ({ id, event_id: event })),
    check: (exchange) => expectStatus(exchange, 404),
  },
  // Redelivery ids are exactly 26 characters, so the padded id (27) and the escaped one (28) are
  // always over the length: a conforming target refuses them for their length, not their
  // identity, and these rows cite the length clauses on purpose. What they catch is a server that
  // trims or decodes the path again before it checks the length, which sees the existing 26
  // characters and redelivers. No fixture can make them within the length, so there is no skip.
  {
    clause: 'redeliver.path.event_id.length',
    says: 'refuses an existing event id padded with a space or a tab',
    of: (stream, event) => paddedId(event).map((event_id) => ({ id: stream, event_id })),
    check: expectRefused,
  },
  {
    clause: 'redeliver.path.id.length',
    says: 'refuses an existing stream id with one character escaped once more',
    of: (stream, event) => idWithEscapedCharacter(stream).map((id) => ({ id, event_id: event })),
    check: expectRefused,
  },
];

const needs = [fixture('eventStream'), fixture('failedEvent'), writes];

for (const row of nearMisses) {
  conformance(
    `[§${clause(row.clause).section} ${row.clause}] redelivery ${row.says}`,
    { needs, requests: cases(1) },
    async ({ target }) => {
      const params = row.of(target.fixture('eventStream'), target.fixture('failedEvent'));
      await target.cases([exampleOf(target, params)], params, async (near) => {
        row.check(await target.call('redeliver', { params: near }));
      });
    },
  );
}

conformance(
  '[§7 redeliver.errors.404.event] redelivery answers 404 for an event that exists in another stream',
  { needs: [fixture('eventStream'), fixture('eventOfAnotherStream'), writes], requests: 1 },
  async ({ target }) => {
    const exchange = await target.call('redeliver', {
      params: { id: target.fixture('eventStream'), event_id: target.fixture('eventOfAnotherStream') },
    });
    expectStatus(exchange, 404);
  },
);
