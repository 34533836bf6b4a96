// The mock's command line, parsed and checked without side effects (but reading a given TLS
// certificate and key), so it can be tested alone.
// A bad option becomes a MockConfigError with one line naming the option and the problem.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { MockConfigError } from './config-error.ts';
import type { MockServerOptions } from './index.ts';
import { COMMAND_LINE_DEFAULT_PROFILE, parseRateLimit } from './rate-limit-profiles.ts';

export const DEFAULT_PORT = 4010;

export const usage = `Usage: npx tsx mock/cli.ts [options]   (or: npm run mock -- [options])

Starts the mock management API v2 server on a loopback address.

Options:
  --port N                 port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host H                 loopback address: 127.0.0.1 (default), ::1 or localhost
  --fixtures FILE          fixtures YAML file (default mock/fixtures/default.yaml)
  --signing-key FILE       RS256 private key file (PKCS8 PEM or private JWK); created if absent
  --fault ID               install a deliberate fault (repeatable; see mock/faults/README.md)
  --list-faults            print the fault catalogue (id, clause, what breaks) and exit
  --list-clients           print the fixtures' clients (name, client_id, secret, global, the
                           management scopes of their role and grant) and exit; with --fixtures, that file's
  --tls                    serve HTTPS with a self-signed certificate for 127.0.0.1, ::1 and
                           localhost, made once in .keys/tls/ and reused (trust it with
                           NODE_EXTRA_CA_CERTS=.keys/tls/cert.pem)
  --tls-names NAME[,NAME]  also certify these host names or addresses (implies --tls), e.g. a
                           name for 127.0.0.1 in /etc/hosts or the name of a proxy in front
  --tls-cert FILE          serve HTTPS with this PEM certificate (with --tls-key)
  --tls-key FILE           the PEM private key of --tls-cert
  --rate-limit LIMIT       free, production (default), unlimited, or BURST/PER_SECOND (e.g. 100/5)
  --bucket-size N          rate limit: bucket size (overrides the profile and the fixtures)
  --refill-per-second N    rate limit: tokens added per second (overrides the profile and the fixtures)
  --token-quota H/D        tokens each client may be issued per UTC hour / per UTC day (e.g. 10/50;
                           overrides the fixtures' token_quota); past it the token endpoint answers 429
  --log                    print one access-log line per request
  --help                   print this help
`;

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'list-faults' }
  | { kind: 'list-clients'; fixtures?: string }
  | { kind: 'start'; options: MockServerOptions & { port: number } };

export function parseCli(argv: readonly string[]): CliCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        fixtures: { type: 'string' },
        'signing-key': { type: 'string' },
        fault: { type: 'string', multiple: true },
        tls: { type: 'boolean' },
        'tls-names': { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'rate-limit': { type: 'string' },
        'bucket-size': { type: 'string' },
        'refill-per-second': { type: 'string' },
        'token-quota': { type: 'string' },
        log: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        'list-faults': { type: 'boolean' },
        'list-clients': { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new MockConfigError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  if (values.help) return { kind: 'help' };
  if (values['list-faults']) return { kind: 'list-faults' };
  if (values['list-clients'])
    return { kind: 'list-clients', ...(values.fixtures !== undefined ? { fixtures: nonEmpty('--fixtures', values.fixtures) } : {}) };
  const options: MockServerOptions & { port: number } = { port: integer('--port', values.port, 0, 65_535) ?? DEFAULT_PORT };
  if (values.host !== undefined) options.host = values.host;
  if (values.fixtures !== undefined) options.fixtures = nonEmpty('--fixtures', values.fixtures);
  if (values['signing-key'] !== undefined) options.signingKey = nonEmpty('--signing-key', values['signing-key']);
  if (values.fault)
    options.faults = values.fault
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
  const tls = tlsOption(values.tls, values['tls-cert'], values['tls-key'], values['tls-names']);
  if (tls) options.tls = tls;
  const limit = values['rate-limit'] === undefined ? undefined : parseRateLimit(values['rate-limit']);
  if (limit && 'profile' in limit) options.rateLimitProfile = limit.profile;
  // Client development against a realistic tenant, unless the fixtures say otherwise.
  options.fallbackRateLimitProfile = COMMAND_LINE_DEFAULT_PROFILE;
  const bucketSize = integer('--bucket-size', values['bucket-size'], 1, Number.MAX_SAFE_INTEGER);
  const refillPerSecond = positiveNumber('--refill-per-second', values['refill-per-second']);
  if (limit && 'config' in limit) options.rateLimit = { ...limit.config };
  if (bucketSize !== undefined || refillPerSecond !== undefined) {
    options.rateLimit = {
      ...options.rateLimit,
      ...(bucketSize !== undefined ? { bucketSize } : {}),
      ...(refillPerSecond !== undefined ? { refillPerSecond } : {}),
    };
  }
  if (values['token-quota'] !== undefined) options.tokenQuota = tokenQuota(values['token-quota']);
  if (values.log) options.log = (line) => console.log(line);
  return { kind: 'start', options };
}

/** --tls alone: a generated certificate (with --tls-names, for those names too); --tls-cert with --tls-key: those files (--tls optional then). */
function tlsOption(
  tls: boolean | undefined,
  certFile: string | undefined,
  keyFile: string | undefined,
  namesList: string | undefined,
): MockServerOptions['tls'] {
  if ((certFile === undefined) !== (keyFile === undefined)) throw new MockConfigError('options --tls-cert and --tls-key go together');
  if (namesList !== undefined && certFile !== undefined)
    throw new MockConfigError('option --tls-names is for a generated certificate, not --tls-cert');
  if (namesList !== undefined) {
    const names = namesList.split(',').map((n) => n.trim());
    const bad = names.find(
      (n) =>
        !/^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(n) &&
        isIP(n.replace(/^\[|\]$/g, '')) === 0,
    );
    if (bad !== undefined) throw new MockConfigError(`option --tls-names: "${bad}" is not a host name or an IP address`);
    return { names };
  }
  if (certFile === undefined || keyFile === undefined) return tls ? true : undefined;
  return { cert: readPem('--tls-cert', certFile), key: readPem('--tls-key', keyFile) };
}

function readPem(option: string, file: string): string {
  try {
    return readFileSync(nonEmpty(option, file), 'utf8');
  } catch (error) {
    if (error instanceof MockConfigError) throw error;
    throw new MockConfigError(`option ${option}: ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** PER_HOUR/PER_DAY, e.g. 10/50. */
function tokenQuota(value: string): NonNullable<MockServerOptions['tokenQuota']> {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const perHour = Number(match?.[1]);
  const perDay = Number(match?.[2]);
  if (!match || !Number.isSafeInteger(perHour) || !Number.isSafeInteger(perDay) || perHour < 1 || perDay < 1)
    throw new MockConfigError(
      `option --token-quota must be PER_HOUR/PER_DAY, two integers from 1, such as 10/50 (got ${JSON.stringify(value)})`,
    );
  return { perHour, perDay };
}

function integer(option: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new MockConfigError(`option ${option} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return number;
}

function positiveNumber(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(number > 0) || !Number.isFinite(number))
    throw new MockConfigError(`option ${option} must be a number above 0 (got ${JSON.stringify(value)})`);
  return number;
}

function nonEmpty(option: string, value: string): string {
  if (value.trim() === '') throw new MockConfigError(`option ${option} needs a file path`);
  return value;
}
