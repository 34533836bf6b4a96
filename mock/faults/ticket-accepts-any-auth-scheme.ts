// A credential parser that takes the word after the scheme whatever the scheme is: a token sent as
// "Basic <token>" (or any "<scheme> <token>") is treated as a bearer token by ticket creation.
import type { Fault } from './fault.ts';
import { editRequests } from './support/route-edits.ts';

const SCHEME_AND_CREDENTIAL = /^(\S+) +(\S+)$/;

export const ticketAcceptsAnyAuthScheme: Fault = {
  id: 'ticket-accepts-any-auth-scheme',
  clause: 'auth.bearer.required',
  description: 'Ticket creation accepts a valid token under any Authorization scheme (e.g. "Basic <token>"), not only Bearer.',
  install(app) {
    editRequests(app, 'sso-ticket', (exchange) => {
      const match = SCHEME_AND_CREDENTIAL.exec(exchange.headers.authorization ?? '');
      if (!match) return exchange;
      return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${match[2]!}` } };
    });
  },
};
