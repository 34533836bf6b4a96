// Token verification: a scheme read up to a colon, a fourth empty segment dropped by a split that
// filters empties, a quoted credential unquoted as an auth-param, and a padded signature decoded by
// a lenient base64 decoder. Each lets its near miss through; other tokens are judged as before.
import { operationKeys } from '../../../../specs/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editBearer } from './support/token-params.ts';

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho17-scheme-colon-accepted',
    clause: 'auth.schemes',
    level: 'contract',
    bug: 'The Authorization header split with value.split(/[\\s:]+/) (a parser shared with Basic credentials, user:password): "Bearer: <token>" is read as the Bearer scheme and its token accepted instead of 401; "Basic <token>" is still refused.',
    install: (app) => editBearer(app, operationKeys, (value) => value.replace(/^Bearer:\s+/i, 'Bearer ')),
  },
  {
    id: 'ho17-empty-fourth-segment-dropped',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The compact JWT split with token.split(".").filter(Boolean) before counting its three parts: a token with a trailing dot ("<h>.<p>.<s>.") is taken for the three-part token and accepted instead of 401; a token with a fourth non-empty part is still refused.',
    install: (app) =>
      editBearer(app, operationKeys, (value) => (/^Bearer [^.\s]+\.[^.\s]+\.[^.\s]+\.$/.test(value) ? value.slice(0, -1) : value)),
  },
  {
    id: 'ho17-quoted-credential-unquoted',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The credential read as an RFC 7235 auth-param value and unquoted (a quoted-string is allowed for auth-params, not for token68): Bearer "<token>" is accepted instead of 401; a token quoted on one side only is still refused.',
    install: (app) => editBearer(app, operationKeys, (value) => value.replace(/^Bearer "([^"\s]+)"$/, 'Bearer $1')),
  },
  {
    id: 'ho17-padded-signature-accepted',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'The signature decoded with Buffer.from(part, "base64"), which skips "=" padding, instead of a strict base64url decoder: a token whose signature carries "==" padding (not base64url as JWS requires) is accepted instead of 401; a signature with a changed character is still refused.',
    install: (app) =>
      editBearer(app, operationKeys, (value) => (/^Bearer [^.\s]+\.[^.\s]+\.[^.\s]+=+$/.test(value) ? value.replace(/=+$/, '') : value)),
  },
]);
