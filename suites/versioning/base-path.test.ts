// Spec section 9: the version is part of the base path. The target file's base_url must end with
// it (checked when the file is read); here the operations answer there.
import { conformance, expectMatch, expectSuccess } from '../../harness/index.ts';
import { basePath } from '../../specs/index.ts';
import { successOf } from '../../harness/suite/requests.ts';

const firstRead = successOf('vault');

conformance('[§9 versioning.base-path] the vault read answers under the /api/v2 base path', firstRead.plan, async ({ target }) => {
  const exchange = await firstRead.send(target);
  expectMatch(new URL(exchange.request.url).pathname, new RegExp(`^${basePath}/`), 'path', { exchange });
  expectSuccess(exchange);
});
