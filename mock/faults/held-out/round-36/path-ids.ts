// Path ids: a FastAPI route declaring the stream id with Path(max_length=26, pattern=...) where the
// pattern counts its base58 part with "+"; and the observed rule: a Django REST framework router,
// whose default lookup_value_regex [^/.]+ does not take a dot, so such an id reaches no route.
import { capture } from '../../support/captured.ts';
import { editPathParameter } from '../../support/parameter-edits.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

/** What the route's pattern takes: the prefix, then base58 of any length; max_length caps it at 26. */
const SHORT_STREAM_ID = /^est_[1-9A-HJ-NP-Za-km-z]{1,21}$/;
const STREAM_ID_LENGTH = 26;

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho36-stream-id-fastapi-max-length-only',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: 'A FastAPI route that declares the stream id as Annotated[str, Path(max_length=26, pattern=r"^est_[1-9A-HJ-NP-Za-km-z]+$")], min_length forgotten and the base58 part counted with "+" instead of {22}: a stream id of 25 characters (est_ and 21 base58) passes and is looked up, answered 404 instead of 400; an id of 27 characters is still refused 400.',
    install: (app) =>
      editPathParameter(app, 'redeliver', 'id', (raw) => (SHORT_STREAM_ID.test(raw) ? raw.padEnd(STREAM_ID_LENGTH, 'q') : undefined)),
  },
  {
    id: 'ho36-vault-id-drf-lookup-regex-dot',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'A Django REST framework service whose vault connections are routed by a DefaultRouter, whose default lookup_value_regex is [^/.]+ (the dot kept for format suffixes): a vault id with a dot in it ("ac_abc.def") matches no route and is answered 404 Not Found by the fallback instead of 400 invalid_uri "Path validation error"; an id with another character outside the alphabet ("ac_abc!def") is still answered 400.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply, exchange) =>
        reply.status === 400 && (exchange.params.id ?? '').includes('.')
          ? answeredInstead(reply, errors().reply('route_not_found'))
          : reply,
      );
    },
  },
]);
