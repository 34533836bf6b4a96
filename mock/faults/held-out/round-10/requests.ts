// How a request reaches an operation: a "latest" alias of the version, and an event id pattern
// whose quantifier has no upper bound; and the observed rules: redelivery's two ids taken in
// either order, a vault id split as a comma list, a profile id's alphabet written [A-z], and the
// custom-domain header's SDK alias looked up first. Each changes the answer to one near miss;
// requests without it are answered as before.
import { basePath, observed } from '../../../../specs/index.ts';
import { checksOf } from '../../../validators.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { alsoServe } from '../round-4/support/rerouted.ts';
import { alsoValid } from '../round-8/support/also-valid.ts';
import type { FaultHooks } from '../../../app.ts';
import type { OperationKey } from '../../../../specs/index.ts';

const ids = observed.identifiers;
const BASE58 = `[${ids.base58_alphabet}]`;
const event = ids.event;
const stream = ids.event_stream;
const profile = ids.self_service_profile;
/** The event id as a pattern whose quantifier lost its upper bound: {22,} for {22}. */
const EVENT_OPEN_ENDED = new RegExp(`^${event.prefix}${BASE58}{${event.length - event.prefix.length},}$`);
/** The profile id's alphabet as [1-9A-z], the range running through [ \\ ] ^ _ ` and taking O, I and l. */
const PROFILE_A_TO_Z = new RegExp(`^${profile.prefix}[1-9A-z]{${profile.length - profile.prefix.length}}$`);
const LATEST = '/api/latest';
const CUSTOM_DOMAIN = 'tenant-custom-domain';
const SDK_ALIAS = observed.custom_domain_header.value;

/** The path check of `name` of an operation made to pass what `accepts` vouches for as well. */
function alsoValidPath(app: FaultHooks, key: OperationKey, name: string, accepts: (value: unknown) => boolean): void {
  app.override('validators', (validators) => {
    const checks = checksOf(validators, key).path;
    const index = checks.findIndex((check) => check.name === name);
    checks[index] = { ...checks[index]!, validate: alsoValid(checks[index]!.validate, accepts) };
    return validators;
  });
}

export const requestFaults = heldOutFamily([
  {
    id: 'ho10-version-alias-latest',
    clause: 'versioning.base-path',
    level: 'contract',
    bug: `A version alias table ({ latest: "v2" }) in front of the version router, for the dashboard's own calls: ${LATEST}/flows/vault/connections/<id> is answered by the operation instead of 404; /api/v3/... is still not.`,
    install: (app) => alsoServe(app, (path) => (path.startsWith(`${LATEST}/`) ? `${basePath}${path.slice(LATEST.length)}` : undefined)),
  },
  {
    id: 'ho10-event-id-quantifier-open-ended',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: `The event id checked by the pattern ^${event.prefix}<base58>{22,}$ alone (its length check dropped as redundant), the quantifier written {22,} for {22}: an event id of ${event.length + 1} characters is looked up (404) instead of refused 400; one of ${event.length - 1} is still refused.`,
    install: (app) => alsoValidPath(app, 'redeliver', 'event_id', (value) => typeof value === 'string' && EVENT_OPEN_ENDED.test(value)),
  },
  {
    id: 'ho10-redelivery-ids-either-order',
    clause: 'errors.400.path',
    level: 'observed',
    bug: `A lenient router that, when the two ids of a redelivery are in each other's places, swaps them back (the id with prefix "${event.prefix}" taken for the event wherever it is): /event-streams/<event id>/redeliver/<stream id> redelivers (202) instead of 400 invalid_uri; two stream ids are still refused.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const { id, event_id: eventId } = exchange.params;
        return id?.startsWith(event.prefix) && eventId?.startsWith(stream.prefix)
          ? { ...exchange, params: { ...exchange.params, id: eventId, event_id: id } }
          : exchange;
      }),
  },
  {
    id: 'ho10-vault-id-comma-list',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'Path parameters read by a parser that makes a comma-separated value a list (a style: form, explode: false reader), the route taking its first item: /flows/vault/connections/<id>,<another id> is answered 200 with the first connection instead of 400 invalid_uri; an id with "!" is still refused.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = exchange.params.id;
        return id?.includes(',') ? { ...exchange, params: { ...exchange.params, id: id.split(',')[0]! } } : exchange;
      }),
  },
  {
    id: 'ho10-profile-id-class-a-to-z',
    clause: 'errors.400.path',
    level: 'observed',
    bug: `The profile id's alphabet written [1-9A-z] for base58, a range that runs through [ \\ ] ^ _ \` and keeps O, I and l: a profile id with an "O" or a "_" among its 22 characters is looked up (404 not found) instead of refused 400 invalid_uri; one with a "-" is still refused.`,
    install: (app) => alsoValidPath(app, 'sso-ticket', 'id', (value) => typeof value === 'string' && PROFILE_A_TO_Z.test(value)),
  },
  {
    id: 'ho10-custom-domain-alias-first',
    clause: 'sso-ticket.custom-domain.host',
    level: 'observed',
    bug: `The custom-domain header looked up through its names in the wrong order, the SDK's ${SDK_ALIAS} before ${CUSTOM_DOMAIN}: a request with both (a proxy adding one) gets a ticket on the ${SDK_ALIAS} host instead of on the ${CUSTOM_DOMAIN} one; a request with ${CUSTOM_DOMAIN} alone is answered as before.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const alias = exchange.headers[SDK_ALIAS];
        return typeof alias === 'string' && exchange.headers[CUSTOM_DOMAIN] !== undefined
          ? { ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN]: alias } }
          : exchange;
      }),
  },
]);
