// Identifier arbitraries: valid ids have the observed shape and pass both levels of their
// parameter's schema; ids of a wrong length fail the contract for their length and nothing else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabetOf, compileNode, observed, parameter, type IdentifierShape, type JsonObject } from '../../specs/index.ts';
import {
  clientId,
  connectionId,
  eventId,
  eventIdOfLength,
  eventIdTooLong,
  eventIdTooShort,
  extendedId,
  idInOtherCase,
  idWithEscapedCharacter,
  organizationId,
  paddedId,
  selfServiceProfileId,
  streamId,
  streamIdOfLength,
  streamIdTooLong,
  streamIdTooShort,
  truncatedId,
  unknownIdOf,
  vaultConnectionId,
  vaultConnectionIdAtMaximum,
  vaultConnectionIdOfLength,
  vaultConnectionIdOverMaximum,
} from '../index.ts';
import { parseFieldPath, ticketSchemaAt } from '../ticket/ticket-schema.ts';
import { runs, sampleOptions } from './support/runs.ts';
import { expectRefusedOnlyFor, expectValid, type Validate } from './support/schema-expectations.ts';

const shapes = observed.identifiers;

/** The observed shape of an id as a pattern, for a total length (default: the shape's). */
function shapePattern(shape: IdentifierShape, length = shape.length): RegExp {
  return new RegExp(`^${shape.prefix}[${alphabetOf(shape)}]{${length - shape.prefix.length}}$`);
}

function bothLevels(node: JsonObject): { contract: Validate; observed: Validate } {
  return { contract: compileNode(node, 'contract'), observed: compileNode(node, 'observed') };
}

const redeliverId = bothLevels(parameter('redeliver', 'path', 'id').schema);
const redeliverEventId = bothLevels(parameter('redeliver', 'path', 'event_id').schema);
const vaultId = bothLevels(parameter('vault', 'path', 'id').schema);
const ticketNode = (field: string) => ticketSchemaAt('contract', parseFieldPath(field));

const validIds = [
  { name: 'streamId', arbitrary: streamId(), shape: shapes.event_stream, schemas: redeliverId },
  { name: 'eventId', arbitrary: eventId(), shape: shapes.event, schemas: redeliverEventId },
  {
    name: 'selfServiceProfileId',
    arbitrary: selfServiceProfileId(),
    shape: shapes.self_service_profile,
    schemas: bothLevels(parameter('sso-ticket', 'path', 'id').schema),
  },
  { name: 'vaultConnectionId', arbitrary: vaultConnectionId(), shape: shapes.flows_vault_connection, schemas: vaultId },
  { name: 'connectionId', arbitrary: connectionId(), shape: shapes.connection, schemas: bothLevels(ticketNode('connection_id')) },
  {
    name: 'organizationId',
    arbitrary: organizationId(),
    shape: shapes.organization,
    schemas: bothLevels(ticketNode('enabled_organizations[].organization_id')),
  },
  { name: 'clientId', arbitrary: clientId(), shape: shapes.client, schemas: bothLevels(ticketNode('enabled_clients[]')) },
];

describe('valid ids', () => {
  it.each(validIds)('$name has the observed shape and passes its schema at both levels', ({ arbitrary, shape, schemas }) => {
    fc.assert(
      fc.property(arbitrary, (id) => {
        expect(id).toMatch(shapePattern(shape));
        expectValid(schemas.contract, id);
        expectValid(schemas.observed, id);
      }),
      runs,
    );
  });

  it('vaultConnectionIdAtMaximum is 30 characters and passes both levels', () => {
    fc.assert(
      fc.property(vaultConnectionIdAtMaximum(), (id) => {
        expect(id).toMatch(shapePattern(shapes.flows_vault_connection, 30));
        expectValid(vaultId.contract, id);
        expectValid(vaultId.observed, id);
      }),
      runs,
    );
  });
});

describe('ids of a wrong length', () => {
  const rows = [
    {
      name: 'streamIdTooShort',
      arbitrary: streamIdTooShort(),
      length: 25,
      keyword: 'minLength',
      shape: shapes.event_stream,
      schema: redeliverId.contract,
    },
    {
      name: 'streamIdTooLong',
      arbitrary: streamIdTooLong(),
      length: 27,
      keyword: 'maxLength',
      shape: shapes.event_stream,
      schema: redeliverId.contract,
    },
    {
      name: 'eventIdTooShort',
      arbitrary: eventIdTooShort(),
      length: 25,
      keyword: 'minLength',
      shape: shapes.event,
      schema: redeliverEventId.contract,
    },
    {
      name: 'eventIdTooLong',
      arbitrary: eventIdTooLong(),
      length: 27,
      keyword: 'maxLength',
      shape: shapes.event,
      schema: redeliverEventId.contract,
    },
    {
      name: 'vaultConnectionIdOverMaximum',
      arbitrary: vaultConnectionIdOverMaximum(),
      length: 31,
      keyword: 'maxLength',
      shape: shapes.flows_vault_connection,
      schema: vaultId.contract,
    },
  ];

  it.each(rows)(
    '$name is $length characters of the real shape and fails the contract on $keyword only',
    ({ arbitrary, length, keyword, shape, schema }) => {
      fc.assert(
        fc.property(arbitrary, (id) => {
          expect(id).toMatch(shapePattern(shape, length));
          expectRefusedOnlyFor(schema, id, { keywords: [keyword] });
        }),
        runs,
      );
    },
  );

  it.each([
    { name: 'streamIdOfLength', of: streamIdOfLength, shape: shapes.event_stream },
    { name: 'eventIdOfLength', of: eventIdOfLength, shape: shapes.event },
    { name: 'vaultConnectionIdOfLength', of: vaultConnectionIdOfLength, shape: shapes.flows_vault_connection },
  ])('$name(n) is n characters of the real prefix and alphabet', ({ of, shape }) => {
    const idAndLength = fc.integer({ min: shape.prefix.length, max: 64 }).chain((length) => fc.tuple(of(length), fc.constant(length)));
    fc.assert(
      fc.property(idAndLength, ([id, length]) => {
        expect(id).toMatch(shapePattern(shape, length));
      }),
      runs,
    );
  });

  it('an id shorter than its prefix is a RangeError', () => {
    expect(() => streamIdOfLength(3)).toThrow(RangeError);
  });

  it('the length check refuses a 26-character stream id as too long only when it is too long', () => {
    const [valid] = fc.sample(streamId(), sampleOptions);
    expect(() => expectRefusedOnlyFor(redeliverId.contract, valid, { keywords: ['maxLength'] })).toThrow();
  });
});

describe('unknownIdOf', () => {
  it('yields valid-shape ids that are none of the known ones', () => {
    const knownAndUnknown = fc
      .array(streamId(), { minLength: 1, maxLength: 5 })
      .chain((known) => fc.tuple(fc.constant(known), unknownIdOf(streamId(), known)));
    fc.assert(
      fc.property(knownAndUnknown, ([known, id]) => {
        expect(id).toMatch(shapePattern(shapes.event_stream));
        expect(known).not.toContain(id);
      }),
      runs,
    );
  });

  it('never yields a known id, even in another case, when most candidates are known', () => {
    const candidates = fc.constantFrom('est_A', 'est_b', 'est_C');
    fc.assert(
      fc.property(unknownIdOf(candidates, ['EST_a', 'est_c']), (id) => {
        expect(id).toBe('est_b');
      }),
      runs,
    );
  });
});

describe('ids derived from an existing one', () => {
  const [existing] = fc.sample(streamId(), sampleOptions);

  it("extendedId appends characters of the id's own alphabet", () => {
    fc.assert(
      fc.property(extendedId(existing!, 2), (id) => {
        expect(id.startsWith(existing!)).toBe(true);
        expect(id).toMatch(shapePattern(shapes.event_stream, 28));
      }),
      runs,
    );
  });

  it('extendedId of a prefix-less client id appends alphanumerics', () => {
    const [client] = fc.sample(clientId(), sampleOptions);
    fc.assert(
      fc.property(extendedId(client!, 1), (id) => {
        expect(id).toMatch(shapePattern(shapes.client, 33));
      }),
      runs,
    );
  });

  it('idInOtherCase changes the case of one letter and keeps the shape, so only a case-insensitive lookup finds the existing id', () => {
    fc.assert(
      fc.property(idInOtherCase(existing!), (id) => {
        expect(id).not.toBe(existing);
        expect(id.toLowerCase()).toBe(existing!.toLowerCase());
        expect([...id].filter((c, at) => c !== existing![at])).toHaveLength(1);
        expect(id).toMatch(shapePattern(shapes.event_stream));
        expectValid(redeliverId.observed, id);
      }),
      runs,
    );
    expect(() => idInOtherCase('est_1234')).toThrow(RangeError);
  });

  it('paddedId adds one space or tab at one end', () => {
    fc.assert(
      fc.property(paddedId(existing!), (id) => {
        expect(id).toHaveLength(existing!.length + 1);
        expect(id.trim()).toBe(existing);
      }),
      runs,
    );
  });

  it('idWithEscapedCharacter writes one character as its percent-escape, which decodes to the existing id', () => {
    fc.assert(
      fc.property(idWithEscapedCharacter(existing!), (id) => {
        expect(id).toHaveLength(existing!.length + 2);
        expect(id).toMatch(/%[0-9A-F]{2}/);
        expect(decodeURIComponent(id)).toBe(existing);
      }),
      runs,
    );
  });

  it('truncatedId removes characters from the end', () => {
    const [id] = fc.sample(truncatedId(existing!, 1), sampleOptions);
    expect(id).toBe(existing!.slice(0, 25));
    expect(() => truncatedId(existing!, 26)).toThrow(RangeError);
  });
});
