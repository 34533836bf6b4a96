// The ticket body: provisioning_config.token_lifetime checked by a Joi schema, whose number() refuses
// an unsafe integer by default; enabled_clients checked by Joi too, whose string() refuses an empty
// string unless allowed. Each refuses its near value, a valid one; a plainly wrong value is answered as
// before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What Joi answers number.unsafe for: an integer beyond Number.MAX_SAFE_INTEGER. */
const isUnsafeInteger = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);
/** A value the service's own schema refuses as it refused the Joi error (the mock refuses a string here). */
const REFUSED = 'refused';
export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho33-token-lifetime-joi-number-unsafe',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'A hapi service whose payload schema declares token_lifetime: Joi.number().integer().min(900).allow(null), and Joi\'s number() refuses, by default (unsafe: false), any number beyond Number.MAX_SAFE_INTEGER: provisioning_config.token_lifetime 9007199254740994 (an integer) is refused 400 instead of creating the ticket; 9007199254740991 still creates it, and "3600" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && isObject(body.provisioning_config) && isUnsafeInteger(body.provisioning_config.token_lifetime)
          ? { ...body, provisioning_config: { ...body.provisioning_config, token_lifetime: REFUSED } }
          : body,
      ),
  },
  {
    id: 'ho33-enabled-clients-joi-empty-string',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'A hapi service whose payload schema declares enabled_clients: Joi.array().items(Joi.string()), and Joi\'s string() refuses the empty string unless .allow(\'\') is given (string.empty): enabled_clients [""] (an array of strings) is refused 400 instead of creating the ticket; [5] is still refused and ["<client id>"] still accepted.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && Array.isArray(body.enabled_clients) && body.enabled_clients.includes('')
          ? { ...body, enabled_clients: body.enabled_clients.map((item: unknown) => (item === '' ? 0 : item)) }
          : body,
      ),
  },
]);
