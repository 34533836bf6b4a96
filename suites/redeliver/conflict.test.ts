// Spec section 7: 409 when the event is not in a state that allows redelivery. Its positive
// control is the redelivery of the failed event of the same stream, accepted in the same run. A
// server that ignored the state would redeliver a delivered event, so this runs on a tenant only
// with opt-in.
import { conformance, expectStatus, fixture, role, type Credential } from '../../harness/index.ts';
import { successOf } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';
import { unknownIdLike } from '../../specs/matrix/values.ts';

const redelivery = successOf('redeliver');

conformance(
  '[§7 redeliver.errors.409.state] redelivery answers 409 for an event whose state does not allow it',
  { ...redelivery.plan, needs: [...(redelivery.plan.needs as []), fixture('notRedeliverableEvent')], requests: 1 },
  async ({ target }) => {
    await target.control('the redelivery of the failed event', () => redelivery.send(target));
    const exchange = await target.call('redeliver', {
      params: { id: target.fixture('eventStream'), event_id: target.fixture('notRedeliverableEvent') },
    });
    expectStatus(exchange, 409);
  },
);

// Spec 4.1 redelivers a failed event, and no other: an event still pending delivery, neither failed
// nor delivered, is in a state that does not allow it (a server that refuses only the states on a
// list redelivers it). Only where the target file names such an event.
conformance(
  '[§7 redeliver.errors.409.state] redelivery answers 409 for an event that is not failed, still pending delivery',
  { ...redelivery.plan, needs: [...(redelivery.plan.needs as []), fixture('pendingEvent')], requests: 1 },
  async ({ target }) => {
    await target.control('the redelivery of the failed event', () => redelivery.send(target));
    const exchange = await target.call('redeliver', {
      params: { id: target.fixture('eventStream'), event_id: target.fixture('pendingEvent') },
    });
    expectStatus(exchange, 409);
  },
);

// The operation has no query parameter (spec 4.1), so none changes what its state allows: flags an
// operator's console or a retry tool may pass (force, override, skip a check) are no way round the
// 409. A server that honours one has a back door the interface does not publish.
const OVERRIDE_FLAGS = 'force=true&override=true&ignore_state=true&skip_checks=true&skip_validation=true&retry=true&redeliver_all=true';

conformance(
  '[§7 redeliver.errors.409.state] redelivery answers 409 for an event whose state does not allow it, also with query flags a console might honour (force, override, skip_checks ...)',
  { ...redelivery.plan, needs: [...(redelivery.plan.needs as []), fixture('notRedeliverableEvent')], requests: 1 },
  async ({ target }) => {
    await target.control('the redelivery of the failed event', () => redelivery.send(target));
    const exchange = await target.call('redeliver', {
      params: { id: target.fixture('eventStream'), event_id: target.fixture('notRedeliverableEvent') },
      query: OVERRIDE_FLAGS,
    });
    expectStatus(exchange, 409);
  },
);

// An Idempotency-Key names one request: a repeat of it may be answered as the first was, but
// another request under the same key is another request (the key's whole point is a retry's
// identity), answered for itself. The failed event is redelivered under a new key, then the event
// whose state does not allow it under the same key: 409. A layer that stores answers under the
// key alone, without a fingerprint of the request, replays the 202. Where the failed event is not
// redelivered again (the target's events move on once redelivered), the check does not apply.
conformance(
  '[§7 redeliver.errors.409.state] redelivery answers 409 for an event whose state does not allow it, also under the Idempotency-Key of an accepted redelivery of another event',
  { ...redelivery.plan, needs: [...(redelivery.plan.needs as []), fixture('notRedeliverableEvent')], requests: 2 },
  async ({ target }) => {
    await target.control('the redelivery of the failed event', () => redelivery.send(target));
    const key = `conformance-suite-${Date.now().toString(36)}`;
    const headers = { 'idempotency-key': key };
    const first = await target.call('redeliver', {
      params: { id: target.fixture('eventStream'), event_id: target.fixture('failedEvent') },
      headers,
    });
    target.needs(
      first.status >= 200 && first.status < 300,
      `the failed event was not redelivered again (${first.status}), so the key names no accepted redelivery`,
    );
    const exchange = await target.call('redeliver', {
      params: { id: target.fixture('eventStream'), event_id: target.fixture('notRedeliverableEvent') },
      headers,
    });
    expectStatus(exchange, 409);
  },
);

conformance(
  '[§7 redeliver.errors.404.stream] redelivery answers 404 for a stream that does not exist, naming an event whose state does not allow redelivery',
  { ...redelivery.plan, needs: [...(redelivery.plan.needs as []), fixture('notRedeliverableEvent')], requests: 1 },
  async ({ target }) => {
    // The event is named through a stream that does not exist, so it is no event of that stream:
    // the stream is what is missing, whatever state the event has elsewhere.
    await target.control('the redelivery of the failed event', () => redelivery.send(target));
    const exchange = await target.call('redeliver', {
      params: { id: unknownIdLike(target.fixture('eventStream')), event_id: target.fixture('notRedeliverableEvent') },
    });
    expectStatus(exchange, 404);
  },
);

// A refusal changes nothing (spec 4.1: only the redelivery of a failed event does anything): right
// after a 409 for one event of the stream, and again right after a 404 for an event it does not
// hold, the redelivery of its failed event is accepted. A server that serialises a stream's
// redeliveries with a lock it releases only on success (not in a finally), or that backs a stream
// off after a refusal, refuses it. The spec does not say that a redelivered event stays failed, so
// the check first redelivers the failed event of another stream twice, a stream no test refuses
// 409: where the second is not accepted too (the target's events move on once redelivered), a refusal's
// trace cannot be told from that, and the check does not apply.
conformance(
  '[§4.1 redeliver.success.202] redelivery of the failed event is answered 202 right after the same stream refused another event 409, and right after it refused an unknown one 404',
  {
    ...redelivery.plan,
    needs: [
      ...(redelivery.plan.needs as []),
      fixture('notRedeliverableEvent'),
      fixture('streamOfAnotherEvent'),
      fixture('eventOfAnotherStream'),
    ],
    requests: 6,
  },
  async ({ target }) => {
    const redeliver = (stream: string, event: string) => target.call('redeliver', { params: { id: stream, event_id: event } });
    const other = () => redeliver(target.fixture('streamOfAnotherEvent'), target.fixture('eventOfAnotherStream'));
    const [first, again] = [await other(), await other()];
    const accepted = (status: number) => status >= 200 && status < 300;
    target.needs(
      accepted(first.status) && accepted(again.status),
      `the target answered ${first.status}, then ${again.status}, to another stream's failed event redelivered twice at once: its events do not stay failed, so a refusal's trace cannot be told from that`,
      'not-applicable',
    );
    const stream = target.fixture('eventStream');
    const conflict = await redeliver(stream, target.fixture('notRedeliverableEvent'));
    target.needs(
      conflict.status === 409,
      `the target answered ${conflict.status} for the event whose state does not allow redelivery, not 409`,
    );
    expectStatus(await redeliver(stream, target.fixture('failedEvent')), 202);
    const unknown = await redeliver(stream, unknownIdLike(target.fixture('failedEvent')));
    target.needs(unknown.status === 404, `the target answered ${unknown.status} for an event the stream does not hold, not 404`);
    expectStatus(await redeliver(stream, target.fixture('failedEvent')), 202);
  },
);

// A refused credential changes nothing either (spec 4.1; 401 and 403 are answered before anything
// is done): right after the failed event's redelivery is refused 401 (no credential) and again
// right after it is refused 403 (a token short of the scope), the same redelivery with the global
// client's token is accepted. A server that takes a per-event lock as the route matches, before
// checking the credential, and releases it only when the handler answers, refuses it 409. As
// above, the event is another stream's, which no test refuses 409 or 401, and the check applies
// only where that event, redelivered twice at once, is accepted both times.
conformance(
  '[§4.1 redeliver.success.202] redelivery of a failed event is answered 202 right after the same redelivery was refused 401 without a credential, and right after it was refused 403 with a token short of the scope',
  {
    ...redelivery.plan,
    needs: [
      ...(redelivery.plan.needs as []),
      fixture('streamOfAnotherEvent'),
      fixture('eventOfAnotherStream'),
      role(cards.redeliver.roleWithoutScope),
    ],
    requests: 6,
  },
  async ({ target }) => {
    const params = { id: target.fixture('streamOfAnotherEvent'), event_id: target.fixture('eventOfAnotherStream') };
    const redeliver = (as?: Credential) => target.call('redeliver', { params, ...(as === undefined ? {} : { as }) });
    const [first, again] = [await redeliver(), await redeliver()];
    const accepted = (status: number) => status >= 200 && status < 300;
    target.needs(
      accepted(first.status) && accepted(again.status),
      `the target answered ${first.status}, then ${again.status}, to a failed event redelivered twice at once: its events do not stay failed, so a refusal's trace cannot be told from that`,
      'not-applicable',
    );
    const anonymous = await redeliver('none');
    target.needs(anonymous.status === 401, `the target answered ${anonymous.status} to the redelivery without a credential, not 401`);
    expectStatus(await redeliver(), 202);
    const shortOfScope = await redeliver({ role: cards.redeliver.roleWithoutScope });
    target.needs(
      shortOfScope.status === 403,
      `the target answered ${shortOfScope.status} to the redelivery with a token short of the scope, not 403`,
    );
    expectStatus(await redeliver(), 202);
  },
);
