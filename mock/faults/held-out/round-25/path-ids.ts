// Path ids: streams found in Redis with SCAN ... MATCH built from the id (a glob character in it
// matches), events looked up with Sequelize's Op.like (an underscore matches any character), vault
// ids decoded by an nginx proxy_pass with a URI and again by the service; and the observed rule: a
// path error worded by Joi, the validator of the service's framework. Each lets its near miss
// through, or words its error otherwise; a plainly wrong id is answered as before.
import { operationKeys } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};
const paramOf = (exchange: Exchange, name: string) =>
  exchange.params[name] === undefined ? undefined : decodedOnce(exchange.params[name]);
const withParam = (exchange: Exchange, name: string, value: string): Exchange => ({
  ...exchange,
  params: { ...exchange.params, [name]: encodeURIComponent(value) },
});
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A Redis glob (*, ?, [...]) as a regular expression over the whole key. */
function globPattern(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i]!;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) source += '\\[';
      else {
        source += `[${glob.slice(i + 1, end).replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else source += escaped(c);
  }
  return new RegExp(`^${source}$`, 's');
}

/** A SQL LIKE pattern (_ any one character, % any run) as a regular expression over the whole value. */
const likePattern = (like: string) =>
  new RegExp(`^${[...like].map((c) => (c === '_' ? '.' : c === '%' ? '.*' : escaped(c))).join('')}$`, 's');

const PATH_ERROR = /^Path validation error: '(.*)' on property (\S+)$/s;

/** Joi's message for the service's wording of a path error (what a failAction passing err.message answers). */
function joiWording(problem: string, name: string): string {
  const short = /^String is too short \(\d+ chars\), minimum (\d+)$/.exec(problem);
  if (short) return `"${name}" length must be at least ${short[1]} characters long`;
  const long = /^String is too long \(\d+ chars\), maximum (\d+)$/.exec(problem);
  if (long) return `"${name}" length must be less than or equal to ${long[1]} characters long`;
  const pattern = /^String does not match pattern (.*)$/s.exec(problem);
  if (pattern) return `"${name}" fails to match the required pattern: /${pattern[1]}/`;
  return `"${name}" is invalid`;
}

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho25-stream-id-redis-scan-match',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: 'Streams kept in Redis as stream:<id> hashes and found with SCAN 0 MATCH stream:<id> (written so that a key with a suffix would still be found), the id put into the pattern unescaped, before it is checked: the stream id with its last character written "*" (26 characters, naming no stream) redelivers the failed event (202) instead of 400 or 404; the id with that character written "x" is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'id');
        if (id === undefined || !/[*?[]/.test(id) || store().stream(id)) return exchange;
        const pattern = globPattern(id);
        const found = store()
          .streams()
          .find((stream) => pattern.test(stream.id));
        return found ? withParam(exchange, 'id', found.id) : exchange;
      });
    },
  },
  {
    id: 'ho25-event-id-sequelize-like',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'The event found with Sequelize\'s where: { id: { [Op.like]: eventId } } (the admin search\'s finder, reused), where "_" in the value matches any one character: the failed event\'s id with one letter written "_" (26 characters, naming no event) redelivers it (202) instead of 400 or 404; the id with that letter written "b" is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const streamId = paramOf(exchange, 'id');
        const eventId = paramOf(exchange, 'event_id');
        const stream = streamId === undefined ? undefined : store().stream(streamId);
        if (!stream || eventId === undefined || stream.events.has(eventId) || !/[_%]/.test(eventId)) return exchange;
        const pattern = likePattern(eventId);
        const found = [...stream.events.keys()].find((id) => pattern.test(id));
        return found === undefined ? exchange : withParam(exchange, 'event_id', found);
      });
    },
  },
  {
    id: 'ho25-vault-id-decoded-by-proxy-and-service',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'An nginx in front of the service with proxy_pass http://vault_backend/v2/; (a URI part, so nginx sends the path it has decoded and normalised) and the service decoding the path parameter again: a vault id whose first letter is percent-encoded, sent as %2561c_... (the id "%61c_NbWaizZTo4vfWnCwDq76Vj", which names no connection), is answered 200 with the connection ac_NbWaizZTo4vfWnCwDq76Vj instead of 400 or 404; %2562c_... ("bc_...") is still refused.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const once = paramOf(exchange, 'id');
        if (once === undefined || !/%[0-9A-Fa-f]{2}/.test(once)) return exchange;
        const twice = decodedOnce(once);
        return twice === undefined || twice === once ? exchange : withParam(exchange, 'id', twice);
      }),
  },
  {
    id: 'ho25-path-error-joi-wording',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'Path parameters validated by Joi in the route\'s options (validate.params, as hapi apps do) with a failAction that answers 400 invalid_uri with Joi\'s err.message: a malformed path id is answered "\\"event_id\\" length must be at least 26 characters long" instead of "Path validation error: \'...\' on property event_id"; the status and errorCode are as before.',
    install: (app) =>
      editReplies(app, operationKeys, (reply) => {
        if (reply.status !== 400 || !isErrorBody(reply.body) || reply.body.errorCode !== 'invalid_uri') return reply;
        const parsed = typeof reply.body.message === 'string' ? PATH_ERROR.exec(reply.body.message) : null;
        if (!parsed) return reply;
        return { ...reply, body: { ...reply.body, message: joiWording(parsed[1]!, parsed[2]!) } };
      }),
  },
]);
