// The tenant's state: clients, event streams and their events, self-service profiles, connections,
// flows vault connections and the tickets created so far. It starts from the fixtures; after that
// only the API changes it (there is no other way in).
//
// Redelivery: the mock's simulated destination stays down, so a redelivered `failed` event stays
// `failed` (redeliverable again) and the store counts accepted redeliveries per event. Runs repeat
// exactly whatever order tests run in.
import type { EventStatus } from './fixtures-schema.ts';
import type { ClientFixture, FixturesObject, VaultConnectionRecord } from './fixtures.ts';

export interface Client {
  clientId: string;
  name: string;
  /** Compared in constant time by the token endpoint. */
  secret: string;
  global: boolean;
  scopes: readonly string[];
}

export interface StoredEvent {
  id: string;
  streamId: string;
  status: EventStatus;
  /** Redeliveries accepted for this event. */
  redeliveries: number;
}

export interface EventStream {
  id: string;
  name?: string;
  events: Map<string, StoredEvent>;
}

export interface Ticket {
  code: string;
  profileId: string;
  /** The host of the ticket URL: the custom domain when one was given, else the tenant domain. */
  host: string;
  url: string;
  ttlSec: number;
  createdAt: number;
  expiresAt: number;
  connectionId?: string;
  connectionName?: string;
}

/** Tickets kept, oldest dropped first: a long-running mock must not grow without bound. */
export const TICKETS_KEPT = 10_000;

export class Store {
  readonly domain: string;
  readonly #clients: Map<string, Client>;
  readonly #streams: Map<string, EventStream>;
  readonly #profiles: Map<string, { id: string; name?: string }>;
  readonly #connectionNames: Set<string>;
  readonly #vault: Map<string, Readonly<VaultConnectionRecord>>;
  readonly #tickets = new Map<string, Ticket>();

  constructor(fixtures: FixturesObject) {
    this.domain = fixtures.tenant.domain;
    this.#clients = new Map(fixtures.clients.map((c) => [c.client_id, clientOf(c)]));
    this.#streams = new Map(
      (fixtures.event_streams ?? []).map((s) => [
        s.id,
        {
          id: s.id,
          ...(s.name !== undefined ? { name: s.name } : {}),
          events: new Map(s.events.map((e) => [e.id, { id: e.id, streamId: s.id, status: e.status, redeliveries: 0 }])),
        },
      ]),
    );
    this.#profiles = new Map((fixtures.self_service_profiles ?? []).map((p) => [p.id, { ...p }]));
    this.#connectionNames = new Set((fixtures.connections ?? []).map((c) => c.name));
    this.#vault = new Map((fixtures.vault_connections ?? []).map((v) => [v.id, Object.freeze({ ...v })]));
  }

  client(clientId: string): Client | undefined {
    return this.#clients.get(clientId);
  }

  clients(): Client[] {
    return [...this.#clients.values()];
  }

  stream(id: string): EventStream | undefined {
    return this.#streams.get(id);
  }

  /** An event of a stream; an event of another stream is not found here. */
  event(streamId: string, eventId: string): StoredEvent | undefined {
    return this.#streams.get(streamId)?.events.get(eventId);
  }

  /** Counts an accepted redelivery. The event stays failed: the destination is still down. */
  recordRedelivery(event: StoredEvent): void {
    event.redeliveries += 1;
  }

  profile(id: string): { id: string; name?: string } | undefined {
    return this.#profiles.get(id);
  }

  connectionNameTaken(name: string): boolean {
    return this.#connectionNames.has(name);
  }

  vaultConnection(id: string): Readonly<VaultConnectionRecord> | undefined {
    return this.#vault.get(id);
  }

  addTicket(ticket: Ticket): void {
    this.#tickets.set(ticket.code, ticket);
    if (this.#tickets.size > TICKETS_KEPT) this.#tickets.delete(this.#tickets.keys().next().value!);
  }

  ticket(code: string): Ticket | undefined {
    return this.#tickets.get(code);
  }

  tickets(): Ticket[] {
    return [...this.#tickets.values()];
  }
}

function clientOf(fixture: ClientFixture): Client {
  return {
    clientId: fixture.client_id,
    name: fixture.name,
    secret: fixture.client_secret,
    global: fixture.global,
    scopes: Object.freeze([...fixture.scopes]),
  };
}
