// Success answers: a record's unset optional fields written as null, its date-times written as
// epoch milliseconds; and the observed rules: a type discriminator member added by a polymorphic
// serializer, and a custom domain's ticket host written as a fully qualified name with its root
// dot. Each changes one thing of the answer; the rest is as before.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const OPTIONAL = ['environment', 'account_name', 'refreshed_at'];
const DATES = ['created_at', 'updated_at', 'refreshed_at'];

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho18-vault-unset-optionals-null',
    clause: 'vault.record.environment',
    level: 'contract',
    bug: 'The record serialised with nulls included (Jackson\'s default inclusion ALWAYS): a connection without an environment answers "environment": null (and account_name, refreshed_at null) instead of leaving them out; a connection that has them answers as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && OPTIONAL.some((name) => !(name in (reply.body as Fields)))
          ? {
              ...reply,
              body: {
                ...reply.body,
                ...Object.fromEntries(OPTIONAL.filter((name) => !(name in (reply.body as Fields))).map((name) => [name, null])),
              },
            }
          : reply,
      ),
  },
  {
    id: 'ho18-vault-dates-as-epoch-millis',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'Date-times serialised as numbers (Jackson\'s WRITE_DATES_AS_TIMESTAMPS, on by default): created_at 1726145536553 instead of "2024-09-12T12:52:16.553Z", and updated_at and refreshed_at the same; the other fields are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body)
          ? {
              ...reply,
              body: Object.fromEntries(
                Object.entries(reply.body).map(([name, value]) => [
                  name,
                  DATES.includes(name) && typeof value === 'string' && Number.isFinite(Date.parse(value)) ? Date.parse(value) : value,
                ]),
              ),
            }
          : reply,
      ),
  },
  {
    id: 'ho18-vault-type-discriminator',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'The record serialised by a polymorphic serializer that writes its type id (@JsonTypeInfo with a property): an extra member "@type": "FlowsVaultConnection" beside the record\'s fields; the fields are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) ? { ...reply, body: { '@type': 'FlowsVaultConnection', ...reply.body } } : reply,
      ),
  },
  {
    id: 'ho18-ticket-custom-host-root-dot',
    clause: 'sso-ticket.custom-domain.host',
    level: 'observed',
    bug: 'The custom domain written as a fully qualified DNS name with its root dot (a resolver helper\'s canonical form): the ticket URL\'s host is "<custom domain>." instead of "<custom domain>"; without the header the host is as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        const domain = exchange.headers['tenant-custom-domain'];
        if (typeof domain !== 'string' || domain.endsWith('.') || !isObject(reply.body) || typeof reply.body.ticket !== 'string')
          return reply;
        const ticket = reply.body.ticket.replace(/^(https?:\/\/[^/:]+)/, '$1.');
        return { ...reply, body: { ...reply.body, ticket } };
      }),
  },
]);
