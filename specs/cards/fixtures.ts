// The fixtures a target file names: ids that exist on the target, each once here with its field
// in the file, whether it is a list or required, and the spec's schema an id of it must fit. The
// target file's schema, its reading, the plan's skip reasons and the TargetFixtures type all come
// from this table. A fixture may also be the records a list of ids names, as the target holds
// them (what the vault read of each connection answers), stated in the file for the tests to compare.
import { schemaAt } from '../limits.ts';
import type { ObservedFacts } from '../observed.ts';
import { parameter, resolvePointer, type JsonObject } from '../openapi.ts';

/** An identifier shape of the observed reference (specs/observed.yaml `identifiers`). */
type ShapeName = Exclude<keyof ObservedFacts['identifiers'], `${string}_alphabet`>;

export interface FixtureEntry {
  /** The field in the target file (under `fixtures:`). */
  field: string;
  list?: true;
  required?: true;
  /** The spec's schema of one id of it, when the spec constrains it. */
  id?: () => JsonObject;
  /**
   * The records the ids of another fixture (`of`) name, each a record of the spec's `schema` as the
   * target holds it; `mock`: the mock's fixtures file's field of the records it serves.
   */
  records?: { of: string; schema: string; mock: string };
  /**
   * Its value on the made-up target the matrix describes its rows for (specs/matrix/template.ts):
   * the `n`th made-up id of an observed shape, or a text. A fixture a card's path names needs one.
   */
  sample?: { shape: ShapeName; n?: number } | { text: string };
  /** What it is on the target, for the people who fill in a target file (the example target file shows it); `optional` when a run without it is still whole. */
  about: string;
  optional?: true;
}

export const fixtureTable = {
  eventStream: {
    field: 'event_stream',
    sample: { shape: 'event_stream' },
    about: 'an event stream; give it a destination that always fails',
    id: () => parameter('redeliver', 'path', 'id').schema,
  },
  eventStreamName: {
    field: 'event_stream_name',
    sample: { text: 'orders-webhook' },
    about:
      "event_stream's name (a redelivery naming the stream by its name in place of its id must be refused); without it that row is skipped",
    optional: true,
  },
  failedEvent: {
    field: 'failed_event',
    sample: { shape: 'event', n: 1 },
    about: 'an event of event_stream whose delivery failed',
    id: () => parameter('redeliver', 'path', 'event_id').schema,
  },
  notRedeliverableEvent: {
    field: 'not_redeliverable_event',
    sample: { shape: 'event', n: 2 },
    about: 'an event of event_stream that was delivered (it cannot be redelivered)',
    id: () => parameter('redeliver', 'path', 'event_id').schema,
  },
  pendingEvent: {
    field: 'pending_event',
    about:
      'an event of event_stream still pending delivery, neither failed nor delivered (its redelivery must be 409); without it that test is skipped',
    optional: true,
    id: () => parameter('redeliver', 'path', 'event_id').schema,
  },
  eventOfAnotherStream: {
    field: 'event_of_another_stream',
    sample: { shape: 'event', n: 3 },
    about: 'an event that exists, in another stream than event_stream (its redelivery through event_stream must be 404)',
    id: () => parameter('redeliver', 'path', 'event_id').schema,
  },
  streamOfAnotherEvent: {
    field: 'stream_of_another_event',
    sample: { shape: 'event_stream', n: 2 },
    about:
      'the event stream event_of_another_stream belongs to, where that event failed its delivery (its redelivery through this stream must be 202, a write: with --allow-writes); without it those tests are skipped',
    optional: true,
    id: () => parameter('redeliver', 'path', 'id').schema,
  },
  selfServiceProfile: {
    field: 'self_service_profile',
    sample: { shape: 'self_service_profile' },
    about: 'a self-service profile',
    id: () => parameter('sso-ticket', 'path', 'id').schema,
  },
  selfServiceProfileName: {
    field: 'self_service_profile_name',
    sample: { text: 'Partner onboarding' },
    about:
      "self_service_profile's name (a ticket naming the profile by its name in place of its id must be refused); without it that row is skipped",
    optional: true,
  },
  vaultConnections: {
    field: 'vault_connections',
    list: true,
    sample: { shape: 'flows_vault_connection' },
    about: 'one or more flows vault connections; one whose id has 30 characters enables the at-the-limit tests',
    required: true,
    id: () => schemaAt({ operation: 'vault', in: 'path', name: 'id' }),
  },
  vaultConnectionRecords: {
    field: 'vault_connection_records',
    list: true,
    records: { of: 'vaultConnections', schema: 'FlowsVaultConnection', mock: 'vault_connections' },
    about:
      'what some or all of vault_connections hold, each the record the read of it answers (README, "Records a target holds"); without it the values are not checked, only their types and shape',
    optional: true,
  },
  connectionId: { field: 'connection_id', sample: { shape: 'connection' }, about: 'an existing connection', optional: true },
  existingConnectionName: {
    field: 'existing_connection_name',
    sample: { text: 'existing-connection' },
    about: 'a connection name that exists (a ticket that would create it must be 409)',
    optional: true,
  },
  organizationId: {
    field: 'organization_id',
    sample: { shape: 'organization' },
    about:
      "an organization of the tenant, named in the ticket bodies' enabled_organizations (a made-up well-formed id otherwise, which a tenant that checks organizations refuses: those rows are then not verified)",
    optional: true,
  },
} as const satisfies Record<string, FixtureEntry>;

export type FixtureName = keyof typeof fixtureTable;

/** A record as the target file states it: its fields, and its optional fields that are unset. */
export type StatedRecord = Record<string, unknown> & { id: string; unset?: string[] };

type ValueOf<E> = E extends { records: object } ? StatedRecord[] : E extends { list: true } ? string[] : string;

/** Ids that exist on the target, named by what the suites need them for. */
export type TargetFixtures = {
  [K in FixtureName as (typeof fixtureTable)[K] extends { required: true } ? K : never]: ValueOf<(typeof fixtureTable)[K]>;
} & {
  [K in FixtureName as (typeof fixtureTable)[K] extends { required: true } ? never : K]?: ValueOf<(typeof fixtureTable)[K]>;
};

export const fixtureNames = Object.keys(fixtureTable) as FixtureName[];

/** The lists of records the mock serves, one per fixture of records: the fixture, the mock's field, the spec's schema. */
export function servedRecordLists(): Array<{ fixture: FixtureName; mock: string; schema: string }> {
  return fixtureNames.flatMap((fixture) => {
    const records = (fixtureTable[fixture] as FixtureEntry).records;
    return records ? [{ fixture, mock: records.mock, schema: records.schema }] : [];
  });
}

/** The fixture of records whose ids `list` names (vaultConnectionRecords for vaultConnections), if there is one. */
export function recordsOf(list: FixtureName): FixtureName | undefined {
  return fixtureNames.find((name) => (fixtureTable[name] as FixtureEntry).records?.of === list);
}

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
      entries.map((e) => [
        e.field,
        e.list ? { type: 'array', items: { type: e.records ? 'object' : 'string' }, minItems: 1 } : { type: 'string', minLength: 1 },
      ]),
    ),
  };
}

/** The spec's schema of each fixture's value (a list's items each fit the id's, or the record's), for the fixtures the spec constrains. */
export function fixtureValueSchemas(): Array<{ field: string; schema: JsonObject }> {
  return (Object.values(fixtureTable) as FixtureEntry[]).flatMap((e) => {
    if (e.records) return [{ field: e.field, schema: { type: 'array', items: statedRecordSchema(e.records.schema) } }];
    return e.id ? [{ field: e.field, schema: e.list ? { type: 'array', items: e.id() } : e.id() }] : [];
  });
}

/** The optional fields of one of the spec's record schemas. */
export function optionalFields(schemaName: string): string[] {
  const owner = resolvePointer(`#/components/schemas/${schemaName}`) as JsonObject;
  const required = new Set(owner.required as string[]);
  return Object.keys(owner.properties as JsonObject).filter((field) => !required.has(field));
}

/**
 * A stated record: the spec's record schema (its fields, their types and limits, the required ones
 * required), no other field, and `unset`: the optional fields the record does not hold.
 */
export function statedRecordSchema(schemaName: string): JsonObject {
  const owner = resolvePointer(`#/components/schemas/${schemaName}`) as JsonObject;
  // A record without optional fields has nothing to list unset (an empty enum is no schema: ajv refuses it).
  const optional = optionalFields(schemaName);
  const unset = { type: 'array', uniqueItems: true, ...(optional.length > 0 ? { items: { enum: optional } } : { maxItems: 0 }) };
  return { ...owner, properties: { ...(owner.properties as JsonObject), unset }, additionalProperties: false };
}

/**
 * What a schema cannot say of the stated records: each names an id of its list fixture, once, and
 * each of its optional fields is stated or listed unset, not both. Undefined when all hold.
 */
export function statedRecordsProblem(file: Record<string, unknown>): string | undefined {
  for (const e of Object.values(fixtureTable) as FixtureEntry[]) {
    const records = file[e.field] as StatedRecord[] | undefined;
    if (!e.records || records === undefined) continue;
    const ids = (file[fixtureTable[e.records.of as FixtureName].field] as string[] | undefined) ?? [];
    const seen = new Set<string>();
    for (const [at, record] of records.entries()) {
      const where = `fixtures.${e.field}[${at}]`;
      if (!ids.includes(record.id))
        return `${where} names ${record.id}, which is not in fixtures.${fixtureTable[e.records.of as FixtureName].field}`;
      if (seen.has(record.id)) return `${where} states ${record.id} a second time`;
      seen.add(record.id);
      const unset = new Set(record.unset ?? []);
      for (const field of optionalFields(e.records.schema)) {
        if (unset.has(field) && field in record) return `${where} states ${field} and lists it unset`;
        if (!unset.has(field) && !(field in record)) return `${where} neither states ${field} nor lists it under unset`;
      }
    }
  }
  return undefined;
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
