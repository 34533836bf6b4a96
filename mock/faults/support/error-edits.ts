// Faults in the error catalogue: every reply of the named entries (whether a stage refuses with one
// or the app answers with one) goes through `edit`.
import type { FaultHooks } from '../../app.ts';
import type { ApiErrorKind, ErrorCatalogue } from '../../errors.ts';
import type { Reply } from '../../exchange.ts';

/** `original` is the catalogue before the edit, for a reply of another entry. */
export function editErrors(app: FaultHooks, kinds: readonly ApiErrorKind[], edit: (reply: Reply, original: ErrorCatalogue) => Reply): void {
  app.override('errors', (errors) => {
    const reply = (kind: ApiErrorKind, detail?: string) =>
      kinds.includes(kind) ? edit(errors.reply(kind, detail), errors) : errors.reply(kind, detail);
    // Stages refuse through refuse(deps, kind), which asks `errors.reply`: overriding reply is enough.
    return { ...errors, reply };
  });
}
