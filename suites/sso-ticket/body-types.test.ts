// Sections 2.3 and 4.2 give every request field a type. For each, a body that is well-formed but
// for a wrong type in that one field is refused. A server that ignored the type would create a
// ticket, so these run on a tenant only with --allow-writes.
import fc from 'fast-check';
import { conformance, expectRefused } from '../../harness/index.ts';
import { ticketBodyTypeRules, ticketRequestBodyWithWrongType } from '../../generators/index.ts';
import { clause } from '../../specs/index.ts';

for (const rule of ticketBodyTypeRules) {
  conformance(`[§${clause(rule.clause).section} ${rule.clause}] ticket creation refuses ${rule.field} of a wrong type`, async ({ target }) => {
    target.writes();
    const profile = target.fixture('selfServiceProfile');
    await fc.assert(
      fc.asyncProperty(ticketRequestBodyWithWrongType(rule.field), async (body) => {
        expectRefused(await target.call('sso-ticket', { params: { id: profile }, body }));
      }),
    );
  });
}
