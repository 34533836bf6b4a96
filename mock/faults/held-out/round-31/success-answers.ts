// The answers: created_at written by a Java SimpleDateFormat whose pattern has mm (minutes) where
// MM (month) belongs; updated_at written by Jackson's InstantSerializer with
// WRITE_DATES_AS_TIMESTAMPS on (seconds.nanoseconds as a number); the ticket passed on by a
// Lambda@Edge function that re-serialises the body it was handed in base64 without decoding it;
// redelivery behind an AWS API Gateway non-proxy integration whose default method response is
// 200; and the observed rule: the custom-domain header dropped by a CloudFront origin request
// policy that does not list it. Each changes one part of the answer; the rest is as before.
import type { Reply } from '../../../exchange.ts';
import { editReplies, editRequests, editSuccessReplies, withStatus } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const editMember =
  (field: string, edit: (value: string) => unknown) =>
  (reply: Reply): Reply =>
    isObject(reply.body) && typeof reply.body[field] === 'string'
      ? { ...reply, body: { ...reply.body, [field]: edit(reply.body[field]) } }
      : reply;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** new SimpleDateFormat("yyyy-mm-dd'T'HH:mm:ss.SSS'Z'") in UTC: the month's place holds the minutes. */
function minutesForMonth(value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return value;
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMinutes())}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}Z`;
}
/** Jackson's InstantSerializer with WRITE_DATES_AS_TIMESTAMPS: seconds, a point, nanoseconds. */
function instantAsDecimal(value: string): unknown {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : Number(`${Math.floor(ms / 1000)}.${pad(ms % 1000, 3)}000000`);
}
const CUSTOM_DOMAIN_HEADER = 'tenant-custom-domain';

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho31-created-at-simpledateformat-minutes-for-month',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'A Java service writing created_at with new SimpleDateFormat("yyyy-mm-dd\'T\'HH:mm:ss.SSS\'Z\'") (mm, minutes, where MM, the month, belongs): created_at "2024-09-12T12:52:16.553Z" is answered "2024-52-12T12:52:16.553Z", no date-time (there is no month 52); updated_at and refreshed_at, written by Jackson, are as before.',
    install: (app) => editSuccessReplies(app, 'vault', (reply) => editMember('created_at', minutesForMonth)(reply)),
  },
  {
    id: 'ho31-updated-at-jackson-instant-decimal',
    clause: 'vault.record.updated_at',
    level: 'contract',
    bug: 'A Spring service whose updatedAt is an Instant written by jackson-datatype-jsr310 with SerializationFeature.WRITE_DATES_AS_TIMESTAMPS left on (Spring Boot turns it off; this ObjectMapper was made by hand), which writes seconds.nanoseconds as a JSON number: updated_at is answered 1726145536.553 (a number) instead of an ISO 8601 date-time string; created_at and refreshed_at, kept as strings, are as before.',
    install: (app) => editSuccessReplies(app, 'vault', (reply) => editMember('updated_at', instantAsDecimal)(reply)),
  },
  {
    id: 'ho31-ticket-lambda-edge-base64-body',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: 'Ticket creation behind a Lambda@Edge origin-response function that adds headers and writes the body back with JSON.stringify(response.body), where the body it was handed is base64 (bodyEncoding "base64", because the origin answered compressed): the ticket is answered as a JSON string holding the base64 of {"ticket": ...} instead of an object with ticket; the status and headers are as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        isObject(reply.body) ? { ...reply, body: Buffer.from(JSON.stringify(reply.body), 'utf8').toString('base64') } : reply,
      ),
  },
  {
    id: 'ho31-redeliver-apigw-default-200',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'Redelivery behind an AWS API Gateway REST API with a non-proxy (Lambda) integration whose only integration response is the default one, mapped to the method response 200 the console creates: an accepted redelivery is answered 200 instead of 202; the refusals, mapped by selection patterns, are as before.',
    install: (app) => editReplies(app, ['redeliver'], (reply) => (reply.status === 202 ? withStatus(reply, 200) : reply)),
  },
  {
    id: 'ho31-custom-domain-cloudfront-header-dropped',
    clause: 'sso-ticket.custom-domain.host',
    level: 'observed',
    bug: `Ticket creation behind CloudFront whose origin request policy forwards a list of headers that lacks ${CUSTOM_DOMAIN_HEADER} (CloudFront drops headers the policy does not name): a ticket asked for with ${CUSTOM_DOMAIN_HEADER} is answered on the tenant's host instead of the custom domain, and a header of 2 characters is never seen, so the ticket is created (201) instead of refused; a ticket without the header is as before.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (exchange.headers[CUSTOM_DOMAIN_HEADER] === undefined) return exchange;
        const { [CUSTOM_DOMAIN_HEADER]: _dropped, ...headers } = exchange.headers;
        return { ...exchange, headers };
      }),
  },
]);
