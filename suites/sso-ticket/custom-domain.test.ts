// Section 8: the tenant-custom-domain header has 3 to 255 characters. The target profile may
// rename the header (the real service calls it auth0-custom-domain).
import fc from 'fast-check';
import { conformance, expectRefused, expectSuccess } from '../../harness/index.ts';
import { customDomainOfLength, customDomainTooLong, customDomainTooShort } from '../../generators/index.ts';
import { closedLimit } from '../../specs/index.ts';

const bounds = closedLimit('sso-ticket.header.custom-domain.length');
for (const length of [bounds.min, bounds.max]) {
  conformance(`[§8 sso-ticket.header.custom-domain.length] ticket creation accepts a custom domain of ${length} characters`, async ({ target }) => {
    target.writes();
    const [domain] = fc.sample(customDomainOfLength(length), { numRuns: 1, seed: target.settings.seed });
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      headers: { [target.target.customDomainHeader]: domain! },
      body: {},
    });
    expectSuccess(exchange);
  });
}

conformance('[§8 sso-ticket.header.custom-domain.length] ticket creation refuses a custom domain shorter than the minimum', async ({ target }) => {
  target.writes();
  const profile = target.fixture('selfServiceProfile');
  await fc.assert(
    fc.asyncProperty(customDomainTooShort(), async (domain) => {
      const headers = { [target.target.customDomainHeader]: domain };
      expectRefused(await target.call('sso-ticket', { params: { id: profile }, headers, body: {} }));
    }),
  );
});

conformance('[§8 sso-ticket.header.custom-domain.length] ticket creation refuses a custom domain longer than the maximum', async ({ target }) => {
  target.writes();
  const profile = target.fixture('selfServiceProfile');
  await fc.assert(
    fc.asyncProperty(customDomainTooLong(), async (domain) => {
      const headers = { [target.target.customDomainHeader]: domain };
      expectRefused(await target.call('sso-ticket', { params: { id: profile }, headers, body: {} }));
    }),
  );
});
