// Section 2.1: the fields of a flows vault connection, one test per field, each checked on every
// connection the target names (the mock names one with every optional field, one with none and
// one with every string at its maximum length).
import { conformance, expectEqual, expectJsonMediaType, expectSchema, expectStatus, expectSuccess, fixture } from '../../harness/index.ts';
import { clause, compileNode, observed, schema, validator, type JsonObject } from '../../specs/index.ts';
import { successOf, vaultRead, vaultReads } from '../../harness/suite/requests.ts';

/** Every test here reads the fixtures' connections, each read once per run. */
const readsAll = { needs: [fixture('vaultConnections')], requests: 0, shared: vaultReads };
/** The read of the first connection: the vault read's success. */
const firstRead = successOf('vault');

const record = schema('FlowsVaultConnection', 'contract');
const required = new Set(record.required as string[]);
const fields = Object.entries(record.properties as Record<string, JsonObject>).map(([field, fieldSchema]) => ({
  field,
  clause: `vault.record.${field}`,
  section: clause(`vault.record.${field}`).section,
  validate: compileNode({ type: 'object', ...(required.has(field) ? { required: [field] } : {}), properties: { [field]: fieldSchema } }),
  rule: `${required.has(field) ? 'required' : 'optional'} ${field}: ${describe(fieldSchema)}`,
}));

/** A schema keyword's value as it reads in a title. */
function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

function describe(fieldSchema: JsonObject): string {
  const parts = [String(fieldSchema.type)];
  if (fieldSchema.format) parts.push(`format ${text(fieldSchema.format)}`);
  if (fieldSchema.minLength !== undefined || fieldSchema.maxLength !== undefined) {
    parts.push(`length ${text(fieldSchema.minLength ?? 0)}..${text(fieldSchema.maxLength ?? '∞')}`);
  }
  return parts.join(', ');
}

for (const row of fields) {
  conformance(`[§${row.section} ${row.clause}] every connection read has a valid ${row.field}`, readsAll, async ({ target }) => {
    for (const id of target.fixture('vaultConnections')) {
      const exchange = await vaultRead(target, id);
      expectSuccess(exchange);
      expectSchema(exchange, row.validate, row.rule);
    }
  });
}

conformance(
  '[§4.3 vault.response.record] the read answers the record of the connection named in the path',
  readsAll,
  async ({ target }) => {
    for (const id of target.fixture('vaultConnections')) {
      const exchange = await vaultRead(target, id);
      const got = (exchange.json as { id?: unknown } | undefined)?.id;
      expectSuccess(exchange);
      expectEqual(got, id, 'record id', { exchange });
    }
  },
);

// A read is a function of its path: each connection read again, after the others in the reverse
// order, answers the record it answered the first time (a serializer that reuses one object carries
// one record's optional fields into the next).
conformance(
  '[§4.3 vault.response.record] every connection read again, after the others in reverse order, answers the same record',
  { ...readsAll, requests: (context) => context.target.fixtures.vaultConnections.length },
  async ({ target }) => {
    const ids = target.fixture('vaultConnections');
    const first = new Map<string, unknown>();
    for (const id of ids) first.set(id, recordOf(await vaultRead(target, id)));
    for (const id of [...ids].reverse()) {
      const again = await vaultRead(target, id, { again: true });
      expectSuccess(again);
      expectEqual(recordOf(again), first.get(id), `the record of ${id} read again`, { exchange: again });
    }
  },
);

/** What a read answered: its record where the body is JSON, else its text. */
function recordOf(exchange: { json: unknown; text: string }): unknown {
  return exchange.json ?? exchange.text;
}

conformance('[§4 vault.response.content-type] the vault read answers with a JSON body', firstRead.plan, async ({ target }) => {
  const exchange = await firstRead.send(target);
  // The read's answer: a refusal with a JSON body says nothing of it.
  expectSuccess(exchange);
  expectJsonMediaType(exchange);
});

conformance('[§4.4 vault.success.status] the vault read answers 200', firstRead.plan, async ({ target }) => {
  const exchange = await firstRead.send(target);
  expectStatus(exchange, observed.operations.vault.success.status);
});

conformance('[§2.1 vault.response.shape] every connection read has the recorded shape', readsAll, async ({ target }) => {
  for (const id of target.fixture('vaultConnections')) {
    const exchange = await vaultRead(target, id);
    expectSchema(
      exchange,
      validator('FlowsVaultConnection', 'observed'),
      'the fields of section 2.1 only, unset ones omitted, millisecond UTC timestamps, 32-hex fingerprint, upper-case app_id',
    );
  }
});
