// POST /api/v2/self-service-profiles/{id}/sso-ticket (spec 4.2): create a ticket, a URL that
// opens the self-service configuration flow of a profile. 201 {"ticket": URL}; the URL's host is
// the tenant-custom-domain header when given, else the tenant's host as the caller's token names
// it: its domain, or the origin the mock was reached at (tenant.ts), so a client that reaches it
// by a host name or through a proxy gets tickets on that host. 404 for an unknown profile, 409
// when connection_config names an existing connection.
import { observed } from '../../specs/index.ts';
import type { OperationCard } from '../../specs/cards/card.ts';
import type { Principal } from '../auth/verifier.ts';
import type { Components } from '../components.ts';
import type { RouteHandler } from '../exchange.ts';
import { refuse } from '../refusal.ts';
import { authenticate } from '../stages/authenticate.ts';
import { authorize } from '../stages/authorize.ts';
import { readRequestBody } from '../stages/request-body.ts';
import { validateBody, validateHeaders, validatePath } from '../stages/validate.ts';
import type { Ticket } from '../store.ts';
import { success } from './success.ts';

const CUSTOM_DOMAIN_HEADER = 'tenant-custom-domain';

/** The fields the mock acts on; the schema has checked the rest. */
interface TicketRequest {
  ttl_sec?: number;
  connection_id?: string;
  connection_config?: { name: string };
}

export function ssoTicketRoute(deps: Components, card: OperationCard): RouteHandler {
  return async function createSsoTicket(exchange) {
    const principal = await authenticate(deps, exchange);
    authorize(deps, principal, card);
    const { id } = validatePath(deps, card.key, exchange.params);
    const headers = validateHeaders(deps, card.key, exchange.headers);
    const request = validateBody(deps, card.key, readRequestBody(deps, exchange)) as TicketRequest;
    const profileId = existingProfile(deps, id!);
    refuseTakenConnectionName(deps, request);
    const ticket = newTicket(deps, profileId, request, headers[CUSTOM_DOMAIN_HEADER] ?? tenantHost(deps, principal, exchange.headers.host));
    deps.store.addTicket(ticket);
    return success(card, { ticket: ticket.url });
  };
}

function existingProfile(deps: Components, id: string): string {
  return (deps.store.profile(id) ?? refuse(deps, 'profile_not_found', id)).id;
}

function refuseTakenConnectionName(deps: Components, request: TicketRequest): void {
  const name = request.connection_config?.name;
  if (name !== undefined && deps.store.connectionNameTaken(name)) refuse(deps, 'connection_name_taken');
}

/** The tenant's host as the caller's token names it (its issuer's identity), else its domain. */
function tenantHost(deps: Components, principal: Principal, requestHost: string | undefined): string {
  const issuer = principal.claims.iss;
  const identity = typeof issuer === 'string' ? deps.tenant.identityForIssuer(issuer, requestHost) : undefined;
  return identity ? new URL(identity.audience).host : deps.tenant.domain;
}

function newTicket(deps: Components, profileId: string, request: TicketRequest, hostAsGiven: string): Ticket {
  const code = deps.ticketCodes();
  const host = hostAsGiven.toLowerCase();
  // ttl_sec omitted or 0 means the default (spec section 8).
  const ttlSec = request.ttl_sec || deps.validators.ttlSecDefault;
  const createdAt = deps.clock.now();
  return {
    code,
    profileId,
    host,
    url: `https://${host}${observed.ticket.path}?${observed.ticket.query_parameter}=${code}`,
    ttlSec,
    createdAt,
    expiresAt: createdAt + ttlSec * 1000,
  };
}
