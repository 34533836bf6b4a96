// The fixtures a target file names: ids that exist on the target, each once here with its field
// in the file, whether it is a list or required, and the spec's schema an id of it must fit. The
// target file's schema, its reading, the plan's skip reasons and the TargetFixtures type all come
// from this table.
import { schemaAt } from '../limits.ts';
import { parameter, type JsonObject } from '../openapi.ts';

interface FixtureEntry {
  /** The field in the target file (under `fixtures:`). */
  field: string;
  list?: true;
  required?: true;
  /** The spec's schema of one id of it, when the spec constrains it. */
  id?: () => JsonObject;
}

export const fixtureTable = {
  eventStream: { field: 'event_stream', id: () => parameter('redeliver', 'path', 'id').schema },
  failedEvent: { field: 'failed_event', id: () => parameter('redeliver', 'path', 'event_id').schema },
  notRedeliverableEvent: { field: 'not_redeliverable_event', id: () => parameter('redeliver', 'path', 'event_id').schema },
  /** An event of eventStream neither failed nor delivered (still pending delivery): only a failed event is redelivered (spec 4.1). */
  pendingEvent: { field: 'pending_event', id: () => parameter('redeliver', 'path', 'event_id').schema },
  /** An event that exists, but in another stream than eventStream. */
  eventOfAnotherStream: { field: 'event_of_another_stream', id: () => parameter('redeliver', 'path', 'event_id').schema },
  selfServiceProfile: { field: 'self_service_profile', id: () => parameter('sso-ticket', 'path', 'id').schema },
  vaultConnections: {
    field: 'vault_connections',
    list: true,
    required: true,
    id: () => schemaAt({ operation: 'vault', in: 'path', name: 'id' }),
  },
  connectionId: { field: 'connection_id' },
  existingConnectionName: { field: 'existing_connection_name' },
  /** An organization of the tenant, named in the ticket bodies' enabled_organizations. */
  organizationId: { field: 'organization_id' },
} as const satisfies Record<string, FixtureEntry>;

export type FixtureName = keyof typeof fixtureTable;

type ValueOf<E> = E extends { list: true } ? string[] : string;

/** Ids that exist on the target, named by what the suites need them for. */
export type TargetFixtures = {
  [K in FixtureName as (typeof fixtureTable)[K] extends { required: true } ? K : never]: ValueOf<(typeof fixtureTable)[K]>;
} & {
  [K in FixtureName as (typeof fixtureTable)[K] extends { required: true } ? never : K]?: ValueOf<(typeof fixtureTable)[K]>;
};

export const fixtureNames = Object.keys(fixtureTable) as FixtureName[];

/** The target file's field of a fixture. */
export function fixtureField(name: FixtureName): string {
  return fixtureTable[name].field;
}

/** The JSON Schema of the target file's `fixtures:` object. */
export function fixturesFileSchema(): JsonObject {
  const entries = Object.values(fixtureTable) as FixtureEntry[];
  return {
    type: 'object',
    additionalProperties: false,
    required: entries.filter((e) => e.required).map((e) => e.field),
    properties: Object.fromEntries(
      entries.map((e) => [e.field, e.list ? { type: 'array', items: { type: 'string' }, minItems: 1 } : { type: 'string', minLength: 1 }]),
    ),
  };
}

/** The spec's schema of each fixture's value (a list's items each fit the id's), for the fixtures the spec constrains. */
export function fixtureValueSchemas(): Array<{ field: string; schema: JsonObject }> {
  return (Object.values(fixtureTable) as FixtureEntry[]).flatMap((e) =>
    e.id ? [{ field: e.field, schema: e.list ? { type: 'array', items: e.id() } : e.id() }] : [],
  );
}

/** The target file's `fixtures:` object, read into TargetFixtures. */
export function readFixtures(file: Record<string, unknown>): TargetFixtures {
  const out: Record<string, unknown> = {};
  for (const name of fixtureNames) {
    const value = file[fixtureTable[name].field];
    if (value !== undefined) out[name] = value;
  }
  return out as TargetFixtures;
}
