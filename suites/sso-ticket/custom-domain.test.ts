// Section 8: the tenant-custom-domain header has 3 to 255 characters: at each limit it is
// accepted, one under the minimum and one over the maximum refused. The target profile may
// rename the header (the real service calls it auth0-custom-domain).
import { cases, conformance, expectRefused, expectSuccess, fixture, writes } from '../../harness/index.ts';
import { customDomainOfLength, customDomainTooLong, customDomainTooShort } from '../../generators/index.ts';
import { closedLimit } from '../../specs/index.ts';
import { exampleOf } from '../requests.ts';

const bounds = closedLimit('sso-ticket.header.custom-domain.length');
const needs = [fixture('selfServiceProfile'), writes];

for (const length of [bounds.min, bounds.max]) {
  conformance(
    `[§8 sso-ticket.header.custom-domain.length] ticket creation accepts a custom domain of ${length} characters`,
    { needs, requests: 1 },
    async ({ target }) => {
      const domain = exampleOf(target, customDomainOfLength(length));
      const exchange = await target.call('sso-ticket', {
        params: { id: target.fixture('selfServiceProfile') },
        headers: { [target.target.customDomainHeader]: domain },
        body: {},
      });
      expectSuccess(exchange);
    },
  );
}

const outside = [
  { name: `${bounds.min - 1} characters, one under the minimum`, length: bounds.min - 1, generated: customDomainTooShort() },
  { name: `${bounds.max + 1} characters, one over the maximum`, length: bounds.max + 1, generated: customDomainTooLong() },
];

for (const row of outside) {
  conformance(
    `[§8 sso-ticket.header.custom-domain.length] ticket creation refuses a custom domain of ${row.name}`,
    { needs, requests: cases(1) },
    async ({ target }) => {
      const profile = target.fixture('selfServiceProfile');
      await target.cases([exampleOf(target, customDomainOfLength(row.length))], row.generated, async (domain) => {
        const headers = { [target.target.customDomainHeader]: domain };
        expectRefused(await target.call('sso-ticket', { params: { id: profile }, headers, body: {} }));
      });
    },
  );
}
