// A token verifier that, when it refuses an Authorization value, reads it once more the way a lenient
// credential parser would (its extra segments dropped, its signature re-encoded, its quotes taken
// off): the value so read is verified as any other, so a near miss of a valid token passes and
// anything else keeps the verifier's own refusal.
import type { FaultHooks } from '../../../../app.ts';
import { editVerifier } from '../../../support/verifier-edits.ts';

/** `reread` returns the value the lenient parser sees, or undefined where it reads it as sent. */
export function alsoReadAs(app: FaultHooks, reread: (authorization: string) => string | undefined): void {
  editVerifier(app, (verifier) => ({
    ...verifier,
    async verify(authorization, host) {
      const first = await verifier.verify(authorization, host);
      if (first.ok || authorization === undefined) return first;
      const again = reread(authorization);
      if (again === undefined || again === authorization) return first;
      const second = await verifier.verify(again, host);
      return second.ok ? second : first;
    },
  }));
}

/** The credential of a `Bearer <credential>` value, whatever it holds. */
export function bearerCredential(authorization: string): string | undefined {
  return /^Bearer +(\S+)$/i.exec(authorization)?.[1];
}
