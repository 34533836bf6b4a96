// How a request reaches an operation: the base path matched as a prefix of the path's text; and the
// observed rules: the ticket's host taken from X-Forwarded-Host before tenant-custom-domain, a
// profile found by a checksum of its id, and an event id whose prefix is compared without its
// separator. Each changes the answer to one near miss; requests without it are answered as before.
import { basePath, observed } from '../../../../specs/index.ts';
import { checksOf } from '../../../validators.ts';
import { editRequests } from '../../support/route-edits.ts';
import { editStore } from '../../support/store-view.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { alsoServe } from '../round-4/support/rerouted.ts';
import { alsoValid } from '../round-8/support/also-valid.ts';

const CUSTOM_DOMAIN = 'tenant-custom-domain';
const FORWARDED_HOST = 'x-forwarded-host';
const BASE58 = `[${observed.identifiers.base58_alphabet}]`;
const event = observed.identifiers.event;
/** An event id whose prefix is "evt" and any fourth character, as id.slice(0, 3) === "evt" reads it. */
const EVENT_WITHOUT_SEPARATOR = new RegExp(
  `^${event.prefix.slice(0, -1)}[^${event.prefix.slice(-1)}]${BASE58}{${event.length - event.prefix.length}}$`,
);
/** A path under a base path that only starts with the right text: /api/v20/..., /api/v2beta/... */
const UNBOUNDED_BASE = new RegExp(`^${basePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^/]+(/.*)$`);

/**
 * The ids an index keyed by checksum (the sum of the character codes) and length files with `id`
 * that differ from it by two characters swapped: the ones of its collisions the slip meets in practice.
 */
function sameChecksum(id: string): string[] {
  const others: string[] = [];
  for (let i = 0; i < id.length; i += 1)
    for (let j = i + 1; j < id.length; j += 1)
      if (id[i] !== id[j]) others.push(`${id.slice(0, i)}${id[j]!}${id.slice(i + 1, j)}${id[i]!}${id.slice(j + 1)}`);
  return others;
}

export const requestFaults = heldOutFamily([
  {
    id: 'ho9-base-path-prefix-without-boundary',
    clause: 'versioning.base-path',
    level: 'contract',
    bug: `The version router matching path.startsWith("${basePath}"), without a "/" after it: ${basePath}0/flows/vault/connections/<id> (or ${basePath}beta/...) is answered by the operation instead of 404; /api/v3/... is still not.`,
    install: (app) =>
      alsoServe(app, (path) => {
        const rest = UNBOUNDED_BASE.exec(path)?.[1];
        return rest === undefined ? undefined : `${basePath}${rest}`;
      }),
  },
  {
    id: 'ho9-ticket-host-from-forwarded-host',
    clause: 'sso-ticket.custom-domain.host',
    level: 'observed',
    bug: `The framework's "trust proxy" left on, and the ticket's host read as req.hostname (X-Forwarded-Host when sent) before ${CUSTOM_DOMAIN}: a request with ${CUSTOM_DOMAIN}: login.partner.example that passed a proxy adding X-Forwarded-Host: proxy.internal.example gets a ticket on proxy.internal.example instead of on its custom domain; without X-Forwarded-Host the ticket is on the custom domain as before.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const forwarded = exchange.headers[FORWARDED_HOST];
        return typeof forwarded === 'string' && exchange.headers[CUSTOM_DOMAIN] !== undefined
          ? { ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN]: forwarded } }
          : exchange;
      }),
  },
  {
    id: 'ho9-profile-found-by-checksum',
    clause: 'sso-ticket.profile.exists',
    level: 'observed',
    bug: 'Self-service profiles found through an index keyed by a checksum of the id (the sum of its character codes) and its length, the id itself never compared: an unknown profile id that is an existing one with two of its characters swapped gets a ticket (on that profile) instead of being refused; an unknown id whose checksum differs is still refused.',
    install: (app) =>
      editStore(app, (store) => ({
        profile: (id: string) =>
          store.profile(id) ??
          sameChecksum(id)
            .map((other) => store.profile(other))
            .find(Boolean),
      })),
  },
  {
    id: 'ho9-event-prefix-without-separator',
    clause: 'errors.400.path',
    level: 'observed',
    bug: `The event id's prefix checked as id.slice(0, 3) === "${event.prefix.slice(0, -1)}" and the rest by its alphabet, the "${event.prefix.slice(-1)}" never looked at: a malformed event id "${event.prefix.slice(0, -1)}-" followed by 22 base58 characters is looked up and answered 404 instead of 400 invalid_uri; an id starting "evx_" is still refused 400.`,
    install: (app) =>
      app.override('validators', (validators) => {
        const checks = checksOf(validators, 'redeliver').path;
        const index = checks.findIndex((check) => check.name === 'event_id');
        checks[index] = {
          ...checks[index]!,
          validate: alsoValid(checks[index]!.validate, (value) => typeof value === 'string' && EVENT_WITHOUT_SEPARATOR.test(value)),
        };
        return validators;
      }),
  },
]);
