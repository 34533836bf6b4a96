// The JSON Schema of a fixtures file. Identifiers and the records the mock serves use the schemas
// of specs/ at the observed level, so that every fixture is reachable through the mock's own
// validation (a fixture id the API would refuse as malformed could never be read). The lists of
// records are the fixture table's (specs/cards/fixtures.ts `records`), each under its `mock` field.
import { servedRecordLists } from '../specs/cards/fixtures.ts';
import { roleNames } from '../specs/cards/index.ts';
import { toJsonSchema, type JsonObject } from '../specs/index.ts';
import { rateLimitProfileNames } from './rate-limit-profiles.ts';

const observedSchema = (name: string): JsonObject => toJsonSchema({ $ref: `#/components/schemas/${name}` }, 'observed');

/** Delivery states of an event. Only `failed` allows redelivery. */
export const eventStatuses = ['failed', 'delivered', 'pending'] as const;
export type EventStatus = (typeof eventStatuses)[number];

const text = { type: 'string', minLength: 1 };

/** Hourly and daily quotas of issued tokens (observed.tokens.quota). */
const tokenQuota = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { per_hour: { type: 'integer', minimum: 1 }, per_day: { type: 'integer', minimum: 1 } },
};

export const fixturesSchema: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['tenant', 'clients'],
  properties: {
    tenant: {
      type: 'object',
      additionalProperties: false,
      required: ['domain'],
      properties: { domain: { type: 'string', format: 'hostname', minLength: 1 } },
    },
    // The tenant's management API limit: a profile name or explicit numbers.
    rate_limit: {
      oneOf: [
        { enum: [...rateLimitProfileNames] },
        {
          type: 'object',
          additionalProperties: false,
          required: ['bucket_size', 'refill_per_second'],
          properties: {
            bucket_size: { type: 'integer', minimum: 1 },
            refill_per_second: { type: 'number', exclusiveMinimum: 0 },
          },
        },
      ],
    },
    // The quotas of issued tokens of every client that names none of its own.
    token_quota: tokenQuota,
    // APIs of the tenant besides the management interface, which clients may hold grants for.
    apis: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['identifier', 'scopes'],
        properties: {
          identifier: { type: 'string', format: 'uri' },
          name: { type: 'string' },
          scopes: { type: 'array', items: text },
        },
      },
    },
    clients: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'client_id', 'global'],
        properties: {
          name: text,
          description: { type: 'string' },
          client_id: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
          client_secret: text,
          // The public key of its private_key_jwt credential: PEM (SPKI, PKCS1 or an X.509 certificate) or a JWK.
          public_key: { oneOf: [text, { type: 'object', required: ['kty'], properties: { kty: { type: 'string' } } }] },
          global: { type: 'boolean' },
          // A role of the suite (specs/cards/index.ts): its grant for the management interface is the
          // role's scopes, made from the operation cards (scopes adds to them).
          role: { enum: [...roleNames] },
          // Its grant for the management interface; without it (and without a role), it gets no management token.
          scopes: { type: 'array', items: { type: 'string' } },
          // Its own quotas of issued tokens.
          token_quota: tokenQuota,
          // Its grants for the tenant's other APIs.
          grants: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['audience', 'scopes'],
              properties: { audience: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } } },
            },
          },
        },
      },
    },
    event_streams: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'events'],
        properties: {
          id: observedSchema('EventStreamId'),
          name: { type: 'string' },
          events: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['id', 'status'],
              properties: {
                id: observedSchema('EventId'),
                status: { enum: [...eventStatuses] },
              },
            },
          },
        },
      },
    },
    self_service_profiles: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id'],
        properties: { id: observedSchema('SelfServiceProfileId'), name: { type: 'string' } },
      },
    },
    connections: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name'],
        properties: { id: text, name: text },
      },
    },
    ...Object.fromEntries(servedRecordLists().map(({ mock, schema }) => [mock, { type: 'array', items: observedSchema(schema) }])),
  },
};
