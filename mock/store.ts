// The tenant's state: clients, event streams and their events, self-service profiles, connections,
// the records the operations read (flows vault connections; any list of specs/cards/fixtures.ts
// servedRecordLists) and the tickets created so far. It starts from the fixtures; after that
// only the API changes it (there is no other way in).
//
// Redelivery: the mock's simulated destination stays down, so a redelivered `failed` event stays
// `failed` (redeliverable again) and the store counts accepted redeliveries per event. Runs repeat
// exactly whatever order tests run in.
import { servedRecordLists, type FixtureName } from '../specs/cards/fixtures.ts';
import { scopesOfRole } from '../specs/cards/index.ts';
import type { EventStatus } from './fixtures-schema.ts';
import type { KeyObject } from 'node:crypto';
import { publicKeyOf, type ClientFixture, type FixturesObject, type ServedRecord } from './fixtures.ts';

export interface Client {
  clientId: string;
  name: string;
  /** Compared in constant time by the token endpoint; absent for a key-only client. */
  secret?: string;
  /** The public key its client assertions (private_key_jwt) are signed for. */
  publicKey?: KeyObject;
  global: boolean;
  /** Whether it holds a grant for the management interface, and the grant's scopes. */
  managementGrant: boolean;
  scopes: readonly string[];
  /** Its grants for the tenant's other APIs: identifier to scopes. */
  grants: ReadonlyMap<string, readonly string[]>;
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
}

/** Tickets kept, oldest dropped first: a long-running mock must not grow without bound. */
export const TICKETS_KEPT = 10_000;

export class Store {
  readonly domain: string;
  readonly #clients: Map<string, Client>;
  readonly #streams: Map<string, EventStream>;
  readonly #profiles: Map<string, { id: string; name?: string }>;
  readonly #connectionNames: Set<string>;
  /** Each list of served records (by its fixture), by id. */
  readonly #records: Map<FixtureName, Map<string, ServedRecord>>;
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
    this.#records = new Map(
      servedRecordLists().map(({ fixture, mock }) => [
        fixture,
        new Map(((fixtures[mock] as ServedRecord[] | undefined) ?? []).map((record) => [record.id, Object.freeze({ ...record })])),
      ]),
    );
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

  streams(): EventStream[] {
    return [...this.#streams.values()];
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

  /** The record of `id` in a list of served records (`fixture` names it: vaultConnectionRecords). */
  record(fixture: FixtureName, id: string): ServedRecord | undefined {
    return this.#records.get(fixture)?.get(id);
  }

  records(fixture: FixtureName): ServedRecord[] {
    return [...(this.#records.get(fixture)?.values() ?? [])];
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
  const publicKey = fixture.public_key === undefined ? undefined : publicKeyOf(fixture.public_key);
  return {
    clientId: fixture.client_id,
    name: fixture.name,
    ...(fixture.client_secret !== undefined ? { secret: fixture.client_secret } : {}),
    ...(publicKey ? { publicKey } : {}),
    global: fixture.global,
    managementGrant: fixture.scopes !== undefined || fixture.role !== undefined,
    scopes: Object.freeze([...new Set([...(fixture.role ? scopesOfRole(fixture.role) : []), ...(fixture.scopes ?? [])])]),
    grants: new Map((fixture.grants ?? []).map((grant) => [grant.audience, Object.freeze([...grant.scopes])])),
  };
}
