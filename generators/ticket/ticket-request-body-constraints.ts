// Options shared by the ticket body arbitraries. Ids default to realistic shapes; against a real
// tenant, pass the ids of resources that exist, because whether the service checks that they
// exist is not known (spec and observed facts are silent).

export interface TicketRequestBodyConstraints {
  /** Connection ids connection_id is drawn from; an empty list leaves connection_id out. */
  connectionIds?: readonly string[];
  /** Client ids enabled_clients are drawn from; an empty list leaves enabled_clients out. */
  clientIds?: readonly string[];
  /** Organization ids enabled_organizations are drawn from; an empty list leaves the field out. */
  organizationIds?: readonly string[];
}
