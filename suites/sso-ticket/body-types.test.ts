// Sections 2.3 and 4.2 give every request field a type. For each, a body that is well-formed but
// for a wrong type in that one field is refused: the closest wrong type (the digits of a number,
// "true", an empty array for an object) always, random wrong types on request. A server that
// ignored the type would create a ticket, so these run on a tenant only with --allow-writes.
import { cases, conformance, expectRefused, fixture, writes } from '../../harness/index.ts';
import { ticketBodyTypeRules, ticketRequestBodyWithClosestWrongType, ticketRequestBodyWithWrongType } from '../../generators/index.ts';
import { clause } from '../../specs/index.ts';
import { exampleOf } from '../requests.ts';

for (const rule of ticketBodyTypeRules) {
  conformance(
    `[§${clause(rule.clause).section} ${rule.clause}] ticket creation refuses ${rule.field} of a wrong type`,
    { needs: [fixture('selfServiceProfile'), writes], requests: cases(1) },
    async ({ target }) => {
      const profile = target.fixture('selfServiceProfile');
      const closest = exampleOf(target, ticketRequestBodyWithClosestWrongType(rule.field));
      await target.cases([closest], ticketRequestBodyWithWrongType(rule.field), async (body) => {
        expectRefused(await target.call('sso-ticket', { params: { id: profile }, body }));
      });
    },
  );
}
