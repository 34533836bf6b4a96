// The token endpoint's request, varied element by element (specs/matrix/families/token-request.ts):
// the method, the path, grant_type, client_id, client_secret, the audience, the fields twice and
// their encoding, and the client authenticated with HTTP Basic. One test per row and clause; each refusal stands on a valid token request.
import { tokenRowTests } from '../../harness/suite/matrix.ts';
import { matrix } from '../../specs/matrix/index.ts';

for (const row of matrix().token) tokenRowTests(row);
