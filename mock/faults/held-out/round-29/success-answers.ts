// The answers' bodies and headers: refreshed_at written by a WCF DataContractJsonSerializer in its
// "\/Date(ms)\/" form, ready read from an Oracle CHAR(1) 'Y'/'N' flag, the ticket answered by a
// Smithy-generated server speaking the awsJson1_1 protocol, created_at read from ClickHouse with
// date_time_output_format 'unix_timestamp'; and the observed rule: the fingerprint written as a
// digest with its algorithm's name in front, as container registries write theirs. Each changes one
// part of the answer; the rest is as before.
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

/** The content type of Smithy's awsJson1_1 protocol. */
const AWS_JSON = 'application/x-amz-json-1.1';
/** The digest prefix the fingerprint gains. */
const DIGEST_PREFIX = 'md5:';

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho29-refreshed-at-wcf-json-date',
    clause: 'vault.record.refreshed_at',
    level: 'contract',
    bug: 'A WCF service whose VaultConnection data contract types RefreshedAt as DateTime? and is written by DataContractJsonSerializer, which writes a date as "\\/Date(<milliseconds>)\\/": a connection\'s refreshed_at is answered "/Date(1727771400000)/" instead of an ISO 8601 date-time; created_at and updated_at (written by hand as strings) are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        editMember('refreshed_at', (value) => (Number.isNaN(Date.parse(value)) ? value : `/Date(${Date.parse(value)})/`))(reply),
      ),
  },
  {
    id: 'ho29-ready-oracle-yn-flag',
    clause: 'vault.record.ready',
    level: 'contract',
    bug: 'A service on Oracle, where ready is kept the way Oracle schemas keep flags, a CHAR(1) column holding \'Y\' or \'N\' (Oracle SQL had no boolean type before 23ai), and the row is answered as it is read: ready is answered "Y" or "N" instead of true or false; the other members are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.ready === 'boolean'
          ? { ...reply, body: { ...reply.body, ready: reply.body.ready ? 'Y' : 'N' } }
          : reply,
      ),
  },
  {
    id: 'ho29-ticket-smithy-awsjson-content-type',
    clause: 'sso-ticket.response.content-type',
    level: 'contract',
    bug: `Ticket creation served by a Smithy-generated server whose service is annotated @awsJson1_1 (the protocol the team's other services speak), so every answer is typed ${AWS_JSON}: the ticket is answered with Content-Type ${AWS_JSON} instead of application/json; the body is the same JSON, and the errors are as before.`,
    install: (app) => editSuccessReplies(app, 'sso-ticket', (reply) => withContentType(reply, AWS_JSON)),
  },
  {
    id: 'ho29-created-at-clickhouse-unix-timestamp',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'A service reading the connections from ClickHouse over its HTTP interface with date_time_output_format = \'unix_timestamp\' (set in the profile for a dashboard), which writes a DateTime as its Unix time: created_at is answered "1726145536" (seconds, as text) instead of an ISO 8601 date-time; updated_at and refreshed_at, Nullable(String) columns, are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        editMember('created_at', (value) => (Number.isNaN(Date.parse(value)) ? value : String(Math.floor(Date.parse(value) / 1000))))(
          reply,
        ),
      ),
  },
  {
    id: 'ho29-fingerprint-digest-algorithm-prefix',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: `A Helidon service that writes the fingerprint as a digest in the form container registries use, <algorithm>:<hex> (the team's image-signing code), so it gains "${DIGEST_PREFIX}" in front: the fingerprint is answered "${DIGEST_PREFIX}6d8cd5d8..." instead of 32 lower-case hex characters; the other members are as before.`,
    install: (app) => editSuccessReplies(app, 'vault', (reply) => editMember('fingerprint', (value) => `${DIGEST_PREFIX}${value}`)(reply)),
  },
]);
