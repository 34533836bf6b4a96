// Success answers: a Go service that puts the ticket's *url.URL itself in the answer struct.
// Other answers are as before.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The members encoding/json writes for a url.URL (Go 1.22), which has no MarshalJSON or MarshalText. */
function goUrlStruct(text: string): Record<string, unknown> {
  const url = new URL(text);
  return {
    Scheme: url.protocol.replace(/:$/, ''),
    Opaque: '',
    User: null,
    Host: url.host,
    Path: url.pathname,
    RawPath: '',
    OmitHost: false,
    ForceQuery: false,
    RawQuery: url.search.replace(/^\?/, ''),
    Fragment: '',
    RawFragment: '',
  };
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho37-ticket-go-url-struct',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: 'A Go service whose answer struct is type ticketResponse struct { Ticket *url.URL `json:"ticket"` } (the URL built with url.URL{Scheme, Host, Path, RawQuery}), and url.URL has MarshalBinary but neither MarshalJSON nor MarshalText, so encoding/json writes its fields: ticket is {"Scheme": "https", "Host": "<host>", "Path": "/self-service/connections-flow", "RawQuery": "ticket=<code>", ...} instead of a string; the status is 201 as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        isObject(reply.body) && typeof reply.body.ticket === 'string'
          ? { ...reply, body: { ...reply.body, ticket: goUrlStruct(reply.body.ticket) } }
          : reply,
      ),
  },
]);
