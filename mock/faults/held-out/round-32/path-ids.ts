// Path ids: a VB.NET service on .NET Framework, whose System.Uri drops the trailing dots of a path
// segment before routing; and the observed rule: a ColdFusion handler checking an event id's prefix
// with EQ, which compares text without regard to case. Each changes the answer to its near miss; a
// plainly wrong id is answered as before.
import { observed } from '../../../../specs/index.ts';
import { editPathParameter } from '../../support/parameter-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const EVENT_PREFIX = observed.identifiers.event.prefix;
const BASE58 = observed.identifiers.base58_alphabet;
/** An event id whose prefix is written in other letters and whose rest is well formed. */
const OTHER_CASE_PREFIX = new RegExp(`^${EVENT_PREFIX}([${BASE58}]{22})$`, 'i');
/** A well-formed event id no stream holds: what the lookup of "EVT_..." finds, nothing. */
const NO_EVENT = `${EVENT_PREFIX}${'1'.repeat(22)}`;

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho32-event-id-dotnet-uri-trailing-dot',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: 'A VB.NET Web API 2 service on .NET Framework 4, whose System.Uri compacts each path segment the way Windows treats file names and drops its trailing dots before the route template sees it: an event id followed by "." (27 characters) is redelivered (202) instead of 400; an event id followed by ".x" is still refused.',
    install: (app) =>
      editPathParameter(app, 'redeliver', 'event_id', (raw) => (/[^.]\.+$/.test(raw) ? raw.replace(/\.+$/, '') : undefined)),
  },
  {
    id: 'ho32-event-id-coldfusion-eq-prefix',
    clause: 'errors.400.path',
    level: 'observed',
    bug: `A ColdFusion handler that checks the event id with if (len(id) NEQ 26 OR left(id, 4) NEQ "${EVENT_PREFIX}") and the alphabet after it, and CFML compares strings with EQ/NEQ without regard to case; the lookup that follows is exact: an event id whose prefix is "${EVENT_PREFIX.toUpperCase()}" is answered 404 (no such event) instead of 400 invalid_uri; an id whose prefix is "EVX_" is still 400.`,
    install: (app) =>
      editPathParameter(app, 'redeliver', 'event_id', (raw) =>
        !raw.startsWith(EVENT_PREFIX) && OTHER_CASE_PREFIX.test(raw) ? NO_EVENT : undefined,
      ),
  },
]);
