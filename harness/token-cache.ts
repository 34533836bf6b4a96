// Tokens kept between runs, so that a run reuses what an earlier one minted instead of spending
// the tenant's allotment of machine-to-machine tokens (a token lives a day; a run, minutes).
//
// One file per user, outside any repository: $XDG_CACHE_HOME/mgmt-api-conformance/tokens.json,
// else ~/.cache/mgmt-api-conformance/tokens.json, mode 0600 in a 0700 directory. An entry is keyed
// by the token endpoint, the client and the audience, and by the client's secret through a key
// derivation (HKDF-SHA256), never the secret itself; the token is encrypted (AES-256-GCM) with
// another key derived from the same secret. So whoever reads the file without the secret (a CI
// cache a fork's workflow can restore, a backup) gets nothing usable, an entry written by someone
// without the secret does not decrypt, and a new secret finds nothing: the old entries are dead.
//
// Nothing here may fail a run: a file that cannot be read is an empty cache, one that cannot be
// written a cache that remembers nothing, each said once in the report.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export interface TokenCacheKey {
  tokenUrl: string;
  clientId: string;
  audience: string;
  clientSecret: string;
}

interface StoredEntry {
  /** When the token expires (ms since the epoch): in clear, so expired entries are swept without secrets. */
  expiresAt: number;
  iv: string;
  /** The token, encrypted, and the GCM tag after it (base64). */
  data: string;
}

interface CacheFile {
  version: typeof VERSION;
  entries: Record<string, StoredEntry>;
}

const VERSION = 1;
const FILE_NAME = 'tokens.json';
const SALT = 'mgmt-api-conformance token cache v1';
/** Entries kept at most (the soonest to expire dropped first): a cache never grows without bound. */
const MAX_ENTRIES = 200;
/** A file larger than this is not a cache this program wrote: it is ignored and replaced. */
const MAX_FILE_BYTES = 512 * 1024;

/** Where the cache lives: $XDG_CACHE_HOME (an absolute path, as the XDG spec requires) or ~/.cache. */
export function defaultTokenCacheDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'mgmt-api-conformance');
}

function derived(key: TokenCacheKey, purpose: 'id' | 'key'): Buffer {
  const info = JSON.stringify([purpose, key.tokenUrl, key.clientId, key.audience]);
  return Buffer.from(hkdfSync('sha256', key.clientSecret, SALT, info, 32));
}

export class TokenCache {
  readonly dir: string;
  readonly #file: string;
  /** What went wrong reading or writing the file, once each, for the report. */
  readonly problems: string[] = [];

  constructor(dir: string) {
    this.dir = dir;
    this.#file = join(dir, FILE_NAME);
  }

  /** A token of this key that is still valid at `validUntil` (ms since the epoch), if the cache holds one. */
  get(key: TokenCacheKey, validUntil: number): { token: string; expiresAt: number } | undefined {
    const entry = this.#read().entries[derived(key, 'id').toString('hex')];
    if (!entry || entry.expiresAt <= validUntil) return undefined;
    try {
      const iv = Buffer.from(entry.iv, 'base64');
      const data = Buffer.from(entry.data, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', derived(key, 'key'), iv);
      decipher.setAuthTag(data.subarray(data.length - 16));
      const token = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
      return { token, expiresAt: entry.expiresAt };
    } catch {
      // Written with another secret, or by someone without it: not ours to use.
      return undefined;
    }
  }

  put(key: TokenCacheKey, token: string, expiresAt: number): void {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', derived(key, 'key'), iv);
    const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    this.#update((entries) => {
      entries[derived(key, 'id').toString('hex')] = { expiresAt, iv: iv.toString('base64'), data: data.toString('base64') };
    });
  }

  /** Forgets a key's token (the target refused it: a new signing key, a changed grant). */
  drop(key: TokenCacheKey): void {
    const id = derived(key, 'id').toString('hex');
    if (this.#read().entries[id]) this.#update((entries) => delete entries[id]);
  }

  #read(): CacheFile {
    let text: string;
    try {
      if (statSync(this.#file).size > MAX_FILE_BYTES) {
        this.#problem(`${this.#file} is larger than a token cache can be; it is ignored`);
        return empty();
      }
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') this.#problem(`${this.#file} cannot be read (${code ?? String(error)}); no token was reused from it`);
      return empty();
    }
    try {
      const parsed = JSON.parse(text) as Partial<CacheFile>;
      if (parsed.version !== VERSION || typeof parsed.entries !== 'object' || parsed.entries === null) return empty();
      const entries: Record<string, StoredEntry> = {};
      for (const [id, entry] of Object.entries(parsed.entries)) {
        if (
          typeof entry?.expiresAt === 'number' &&
          typeof entry.iv === 'string' &&
          typeof entry.data === 'string' &&
          /^[0-9a-f]{64}$/.test(id)
        )
          entries[id] = entry;
      }
      return { version: VERSION, entries };
    } catch {
      this.#problem(`${this.#file} is not a token cache (not JSON); it will be replaced`);
      return empty();
    }
  }

  /**
   * Read, change, write whole: to a new file (0600) renamed over the old one, so a reader never sees
   * half a file. Two runs writing at once (two shards) may lose one's entries: it costs a token.
   */
  #update(change: (entries: Record<string, StoredEntry>) => void): void {
    const { entries } = this.#read();
    change(entries);
    const now = Date.now();
    const kept = Object.entries(entries)
      .filter(([, entry]) => entry.expiresAt > now)
      .sort(([, a], [, b]) => b.expiresAt - a.expiresAt)
      .slice(0, MAX_ENTRIES);
    const temporary = join(this.dir, `.${FILE_NAME}.${process.pid}.${randomBytes(4).toString('hex')}`);
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      chmodSync(this.dir, 0o700);
      writeFileSync(temporary, JSON.stringify({ version: VERSION, entries: Object.fromEntries(kept) }), { mode: 0o600, flag: 'wx' });
      // The mode is set again: a umask or a file restored by a CI cache may have widened it.
      chmodSync(temporary, 0o600);
      renameSync(temporary, this.#file);
    } catch (error) {
      rmSync(temporary, { force: true });
      this.#problem(`${this.#file} cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}); tokens are not kept`);
    }
  }

  #problem(text: string): void {
    if (!this.problems.includes(text)) this.problems.push(text);
  }
}

function empty(): CacheFile {
  return { version: VERSION, entries: {} };
}
