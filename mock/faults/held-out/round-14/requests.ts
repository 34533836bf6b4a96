// How a request is read: the custom-domain header made canonical (a fully qualified name's trailing
// dot taken off) before its length is checked, and the event id's pattern written without its
// closing anchor; and the observed rule: a CORS layer that answers every OPTIONS request itself.
// Each changes the answer to one near miss; requests without it are answered as before.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const CUSTOM_DOMAIN = 'tenant-custom-domain';
const DOMAIN_MAX = 255;
const EVENT = observed.identifiers.event;
const EVENT_ID_LENGTH = EVENT.length;
/** The event id's pattern without its closing anchor. */
const EVENT_ID_UNANCHORED = new RegExp(
  `^${EVENT.prefix}[${observed.identifiers.base58_alphabet}]{${EVENT_ID_LENGTH - EVENT.prefix.length}}`,
);
/** The router's cap on any path parameter. */
const PATH_PARAMETER_CAP = 32;

export const requestFaults = heldOutFamily([
  {
    id: 'ho14-custom-domain-trailing-dot-dropped',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `${CUSTOM_DOMAIN} made canonical before its length is checked, the trailing dot of a fully qualified name ("login.example.com.") taken off: a value of ${DOMAIN_MAX + 1} characters ending in "." gets a ticket instead of 400; one of ${DOMAIN_MAX + 2} characters ending in "." (or ${DOMAIN_MAX + 1} without the dot) is still refused.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const value = exchange.headers[CUSTOM_DOMAIN];
        return typeof value === 'string' && value.length > 1 && value.endsWith('.') && !value.endsWith('..')
          ? { ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN]: value.slice(0, -1) } }
          : exchange;
      }),
  },
  {
    id: 'ho14-options-answered-by-cors',
    clause: 'routes.method',
    level: 'observed',
    bug: "A CORS middleware mounted in front of the router with its preflight handling on every OPTIONS request (not only those with Origin and Access-Control-Request-Method): OPTIONS on an operation's path is answered 204 with Access-Control-Allow-Methods instead of being refused (405); PATCH on it is still refused.",
    install: (app) =>
      editReplies(app, ['method-not-allowed'], (reply, exchange) =>
        exchange.method === 'OPTIONS' && reply.status === 405
          ? {
              status: 204,
              headers: {
                ...Object.fromEntries(Object.entries(reply.headers).filter(([name]) => name.toLowerCase().startsWith('x-ratelimit'))),
                'access-control-allow-origin': '*',
                'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
              },
            }
          : reply,
      ),
  },
  {
    id: 'ho14-event-id-pattern-unanchored',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: `The event id's pattern written without its closing anchor (/^evt_[base58]{22}/, no $), with only the generic path-parameter cap of ${PATH_PARAMETER_CAP} characters behind it: an event id of 27 characters (a valid id with one more character) is looked up, 404, instead of 400; one of ${PATH_PARAMETER_CAP + 1} characters is still refused.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const id = exchange.params.event_id;
        return reply.status === 400 &&
          isErrorBody(reply.body) &&
          reply.body.errorCode === 'invalid_uri' &&
          id !== undefined &&
          id.length > EVENT_ID_LENGTH &&
          id.length <= PATH_PARAMETER_CAP &&
          EVENT_ID_UNANCHORED.test(id)
          ? answeredInstead(reply, errors().reply('event_not_found'))
          : reply;
      });
    },
  },
]);
