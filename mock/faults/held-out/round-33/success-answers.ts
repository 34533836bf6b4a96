// The answers' bodies: the fingerprint kept by a Drizzle service in a numeric column mapped to a
// BigInt through a customType, written back with toString(16), which drops leading zeros. It changes
// one part of the answer; the rest is as before.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const HEX = /^[0-9a-f]+$/;

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho33-fingerprint-drizzle-bigint-hex',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'A Drizzle service whose fingerprint column is a numeric(39) mapped by a customType to a BigInt (fromDriver: BigInt(\'0x\' + hex) on write, toDriver: value.toString(16) on read), and toString(16) writes no leading zeros: a fingerprint beginning with 0 is answered with 31 (or fewer) hex characters ("f1e2d3c4..." for "0f1e2d3c4...") instead of 32; the others are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.fingerprint === 'string' && HEX.test(reply.body.fingerprint)
          ? { ...reply, body: { ...reply.body, fingerprint: BigInt(`0x${reply.body.fingerprint}`).toString(16) } }
          : reply,
      ),
  },
]);
