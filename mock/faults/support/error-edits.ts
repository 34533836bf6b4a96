// Faults in the error catalogue: every reply of an entry (whether a stage refuses with it or the
// app answers with it) goes through `edit`, which returns the reply unchanged when it does not apply.
import type { FaultHooks } from '../../app.ts';
import type { ApiErrorKind, ErrorCatalogue } from '../../errors.ts';
import type { Reply } from '../../exchange.ts';

/** `original` is the catalogue before the edit, for a reply of another entry. */
export function editErrors(app: FaultHooks, edit: (kind: ApiErrorKind, reply: Reply, original: ErrorCatalogue) => Reply): void {
  app.override('errors', (errors) => {
    const reply = (kind: ApiErrorKind, detail?: string) => edit(kind, errors.reply(kind, detail), errors);
    // Stages refuse through refuse(deps, kind), which asks `errors.reply`: overriding reply is enough.
    return { ...errors, reply };
  });
}
