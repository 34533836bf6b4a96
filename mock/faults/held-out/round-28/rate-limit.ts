// The limiter and its headers: the limit enforced by an HAProxy stick table whose http-request deny
// was written without deny_status (HAProxy's default answer is 403); and the observed rule: the
// X-RateLimit-* headers added by nginx's add_header without "always", which applies to 200, 201, 204,
// 206 and redirects only. Each changes what a refusal or a header says; when requests are refused is
// as before.
import { observed } from '../../../../specs/index.ts';
import { editReplies, MANAGEMENT_ROUTES, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const NAMES = observed.rate_limit.headers;
const LEGACY = [NAMES.limit, NAMES.remaining, NAMES.reset];
/** HAProxy's built-in 403 page (the mock writes every body as JSON, so the page arrives as a JSON string). */
const HAPROXY_403_PAGE = '<html><body><h1>403 Forbidden</h1>\nRequest forbidden by administrative rules.\n</body></html>\n';
/** The statuses nginx's add_header (without "always") applies to. */
const ADD_HEADER_STATUSES = new Set([200, 201, 204, 206, 301, 302, 303, 304, 307, 308]);

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho28-haproxy-deny-status-403',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'The limit moved into HAProxy, a stick table with http-request deny if { sc_http_req_rate(0) gt <limit> } written without deny_status 429, so HAProxy answers with its default 403 page: a request past the limit is answered 403 Forbidden (text/html, "Request forbidden by administrative rules.", none of the X-RateLimit headers) instead of 429; when requests are refused, and the answers within the limit, are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 429
          ? {
              status: 403,
              headers: {
                ...withoutHeaders(reply, [...LEGACY, 'content-type']).headers,
                'content-type': 'text/html',
                'cache-control': 'no-cache',
              },
              body: HAPROXY_403_PAGE,
            }
          : reply,
      ),
  },
  {
    id: 'ho28-ratelimit-nginx-add-header-202',
    clause: 'rate-limit.headers.on-success',
    level: 'observed',
    bug: `The ${LEGACY.join(', ')} headers set by nginx from the njs limiter's variables with add_header and no "always" (the 429s, which the njs limiter writes itself, carry them), and add_header applies to 200, 201, 204, 206 and 3xx answers only: the 202 of a redelivery (and every other answer of the service with a status outside that list) carries none of the three; the vault read's 200 and the ticket's 201 carry them as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 429 || ADD_HEADER_STATUSES.has(reply.status) ? reply : withoutHeaders(reply, LEGACY),
      ),
  },
]);
