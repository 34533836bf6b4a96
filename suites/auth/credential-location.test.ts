// Spec section 5 rule 1: the token travels in the Authorization header. A valid token of the
// global role anywhere else, with no Authorization header, authorizes nothing: in the query string
// and in a form body as access_token (RFC 6750 sections 2.2 and 2.3, which some bearer middleware
// reads), and in X-Forwarded-Authorization (where some gateways move the client's header). Every
// operation, with the clauses of the 401 matrix; a form body only where the method has a body.
import type { CallInput, TargetSession } from '../../harness/index.ts';
import { operation, operationKeys, type OperationKey } from '../../specs/index.ts';
import { withChange } from '../requests.ts';
import { refusedAsUnauthenticated } from './unauthenticated.ts';

const FORM = 'application/x-www-form-urlencoded';
const TOKEN_PARAMETER = 'access_token';

interface Location {
  where: string;
  applies: (op: OperationKey) => boolean;
  place(request: CallInput, token: string): CallInput;
}

const locations: Location[] = [
  {
    where: 'the query string',
    applies: () => true,
    place: (request, token) => ({ ...request, query: new URLSearchParams({ [TOKEN_PARAMETER]: token }).toString() }),
  },
  {
    where: 'a form-encoded body',
    applies: (op) => operation(op).method !== 'GET',
    place: ({ body: _json, ...request }, token) => ({
      ...request,
      rawBody: new URLSearchParams({ [TOKEN_PARAMETER]: token }).toString(),
      contentType: FORM,
    }),
  },
  {
    where: 'an X-Forwarded-Authorization header',
    applies: () => true,
    place: (request, token) => ({ ...request, headers: { ...request.headers, 'x-forwarded-authorization': `Bearer ${token}` } }),
  },
];

for (const location of locations) {
  for (const op of operationKeys.filter(location.applies)) {
    const what = `a valid token in ${location.where} and no Authorization header`;
    const request = withChange(op, what, async (target: TargetSession, valid) => ({
      ...location.place(valid, await target.tokenFor('global')),
      as: 'none',
    }));
    refusedAsUnauthenticated(op, what, request);
  }
}
