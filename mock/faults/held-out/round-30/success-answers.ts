// The answers' bodies, statuses and headers: updated_at written by a Haskell service with show on a
// UTCTime, app_id answered by a gRPC gateway in the protobuf enum's own names, environment encoded
// by a Scala service with circe's derived encoder for a wrapper case class, account_name read by a
// CodeIgniter 4 service through the query builder (its entity cast, which decrypts, left out), the
// read answered by a Dart (Shelf) handler with Response.ok on a string, the ticket answered by a
// Jersey resource with Response.created(uri), the redelivery by a Sanic handler with empty(), the
// id written by an Elixir TypeID encoder over an id that already has its prefix; and the observed
// rule: a Sequelize model in paranoid mode, whose deletedAt is part of the record it serialises.
// Each changes one part of the answer; the rest is as before.
import { createCipheriv, createHash } from 'node:crypto';
import type { Reply } from '../../../exchange.ts';
import { editSuccessReplies, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** The record's body with one member rewritten by `edit` where it is a string. */
const editMember =
  (field: string, edit: (value: string) => unknown) =>
  (reply: Reply): Reply =>
    isObject(reply.body) && typeof reply.body[field] === 'string'
      ? { ...reply, body: { ...reply.body, [field]: edit(reply.body[field]) } }
      : reply;

/** Haskell's show for a UTCTime: a space, the fraction without its trailing zeros, " UTC". */
function haskellShow(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const text = new Date(time).toISOString();
  const fraction = text.slice(20, 23).replace(/0+$/, '');
  return `${text.slice(0, 10)} ${text.slice(11, 19)}${fraction === '' ? '' : `.${fraction}`} UTC`;
}

/** The prefix protoc's style guide gives every value of enum AppId. */
const ENUM_PREFIX = 'APP_ID_';
/** The key of the CodeIgniter service's encrypter (its .env), for a ciphertext of the usual shape. */
const ENCRYPTION_KEY = createHash('sha256').update('codeigniter-vault-key').digest();

/** CodeIgniter 4's OpenSSLHandler output, base64: HMAC-SHA512 of the rest, then the IV, then AES-256-CTR. */
function codeIgniterCiphertext(text: string): string {
  const iv = createHash('md5').update(text).digest();
  const cipher = createCipheriv('aes-256-ctr', ENCRYPTION_KEY, iv);
  const data = Buffer.concat([iv, cipher.update(text, 'utf8'), cipher.final()]);
  const hmac = createHash('sha512').update(ENCRYPTION_KEY).update(data).digest();
  return Buffer.concat([hmac, data]).toString('base64');
}

/** The TypeID prefix of a vault connection. */
const ID_PREFIX = 'ac';

/** What Shelf types a string body it is given without headers. */
const SHELF_TEXT = 'text/plain; charset=utf-8';

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho30-updated-at-haskell-show-utctime',
    clause: 'vault.record.updated_at',
    level: 'contract',
    bug: 'A Haskell (Scotty) service whose hand-written ToJSON instance writes updatedAt as String (show t) instead of toJSON t, and show gives a UTCTime as "2024-09-12 12:52:16.553 UTC" (a space, trailing zeros of the fraction dropped, the zone\'s name): updated_at is answered in that form instead of an ISO 8601 date-time; created_at and refreshed_at, encoded by aeson, are as before.',
    install: (app) => editSuccessReplies(app, 'vault', editMember('updated_at', haskellShow)),
  },
  {
    id: 'ho30-app-id-protobuf-enum-prefix',
    clause: 'vault.record.app_id',
    level: 'contract',
    bug: `A service behind grpc-gateway whose VaultConnection message types app_id as enum AppId, its values named by the protobuf style guide with the enum's prefix (${ENUM_PREFIX}SLACK), and protojson writes an enum by its value's name: app_id is answered "${ENUM_PREFIX}SLACK" instead of "SLACK", and the 55-character provider name gains ${ENUM_PREFIX.length} characters (62, over the 55 allowed); the other members are as before.`,
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editMember('app_id', (value) => `${ENUM_PREFIX}${value}`),
      ),
  },
  {
    id: 'ho30-environment-circe-wrapper-object',
    clause: 'vault.record.environment',
    level: 'contract',
    bug: 'A Scala service whose VaultConnection holds environment: Option[Environment], with case class Environment(value: String) encoded by circe\'s deriveEncoder (the unwrapped encoder it meant to derive, as for the other value classes, forgotten): environment is answered {"value": "production"} (an object) instead of a string; a connection without environment, and the other members, are as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editMember('environment', (value) => ({ value })),
      ),
  },
  {
    id: 'ho30-account-name-codeigniter-ciphertext',
    clause: 'vault.record.account_name',
    level: 'contract',
    bug: 'A CodeIgniter 4 service whose VaultConnection entity decrypts account_name in a custom cast (the column is encrypted at rest), and whose read was rewritten for speed with $db->table("vault_connections")->where("id", $id)->get()->getRowArray(), which bypasses the entity: account_name is answered as the base64 ciphertext (HMAC-SHA512, IV and data: 128 characters for "acme-workspace", 308 for a name of 150) instead of the name; the other members are as before.',
    install: (app) => editSuccessReplies(app, 'vault', editMember('account_name', codeIgniterCiphertext)),
  },
  {
    id: 'ho30-vault-shelf-text-plain',
    clause: 'vault.response.content-type',
    level: 'contract',
    bug: `A Dart (Shelf) handler that answers the read with Response.ok(jsonEncode(connection)) and no headers, and Shelf types a String body "${SHELF_TEXT}": the record is answered with that content type instead of application/json; the body is the same JSON, and the errors are as before.`,
    install: (app) => editSuccessReplies(app, 'vault', (reply) => withContentType(reply, SHELF_TEXT)),
  },
  {
    id: 'ho30-ticket-jersey-created-location',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: 'A Jersey (JAX-RS) resource that answers ticket creation with return Response.created(URI.create(ticket.url())).build(), the way its team answers every creation: a 201 whose Location header holds the ticket URL and which has no body, instead of {"ticket": "<URL>"}; the refusals are as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
        const { 'content-type': _type, ...headers } = reply.headers;
        return { status: reply.status, headers: { ...headers, location: reply.body.ticket } };
      }),
  },
  {
    id: 'ho30-vault-id-typeid-prefixed-twice',
    clause: 'vault.record.id',
    level: 'contract',
    bug: `A Phoenix service whose VaultConnection schema switched its primary key to an Ecto TypeID type with prefix "${ID_PREFIX}" (the encoder writes the prefix and an underscore in front of what it holds), while the rows migrated from the old table still hold the whole id: a connection's id is answered "${ID_PREFIX}_${ID_PREFIX}_NbWaizZTo4vfWnCwDq76Vj", and an id of 30 characters gains 3 (33, over the 30 allowed); the other members are as before.`,
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editMember('id', (value) => `${ID_PREFIX}_${value}`),
      ),
  },
  {
    id: 'ho30-vault-sequelize-paranoid-deleted-at',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'A Node service whose Sequelize VaultConnection model is paranoid: true (soft deletes), with its timestamps mapped onto created_at and updated_at, and the handler answers res.json(connection), whose toJSON writes every attribute: the record carries "deletedAt": null beside the fields of section 2.1; the fields of 2.1 are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => (isObject(reply.body) ? { ...reply, body: { ...reply.body, deletedAt: null } } : reply)),
  },
  {
    id: 'ho30-redeliver-sanic-empty-204',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'A Sanic handler that ends the redelivery with return empty() (for the empty body it wanted), and sanic.response.empty answers status 204 unless it is given another: an accepted redelivery is answered 204 No Content instead of 202; the refusals (401, 403, 404, 409) are as before.',
    install: (app) =>
      editSuccessReplies(app, 'redeliver', (reply) => {
        const { 'content-type': _type, ...headers } = reply.headers;
        return { status: 204, headers };
      }),
  },
]);
