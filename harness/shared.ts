// Requests sent once per run and read by every test that declares them (a role's token, the
// JWKS, a read of a fixture, one ticket, the rate-limit exhaustion). The first test to need one
// pays for it; the others read the same answer. Each key must always name the same request: a key
// reused for another request is a suite bug, refused.
import { HarnessError } from './errors.ts';

interface Entry {
  identity: string;
  promise: Promise<unknown>;
  requests: number;
  paidBy: string | undefined;
  /** Method and status of each answer it got: whether it is safe to send again (harness/confirm.ts). */
  answers: Array<{ method: string; status: number }>;
}

export class SharedRequests {
  readonly #entries = new Map<string, Entry>();
  /** The keys in the order they were first asked for: a test's own are those after its start. */
  readonly #order: string[] = [];
  /** Keys being fetched right now, innermost last: requests sent meanwhile are theirs. */
  readonly #active: string[] = [];

  /** The key the requests sent now belong to, if any. */
  get attributedTo(): string | undefined {
    return this.#active[this.#active.length - 1];
  }

  /** The value of a shared request, fetched now if no test fetched it yet in this run. */
  once<T>(key: string, identity: string, payer: string | undefined, fetch: () => Promise<T>): Promise<T> {
    const existing = this.#entries.get(key);
    if (existing) {
      if (existing.identity !== identity) {
        throw new HarnessError(
          'PLAN_VIOLATION',
          `shared request "${key}" was first ${existing.identity} and is now ${identity}: one key, one request`,
        );
      }
      return existing.promise as Promise<T>;
    }
    const entry: Entry = { identity, requests: 0, paidBy: payer, promise: Promise.resolve(), answers: [] };
    this.#entries.set(key, entry);
    this.#order.push(key);
    entry.promise = (async () => {
      this.#active.push(key);
      try {
        return await fetch();
      } finally {
        this.#active.splice(this.#active.lastIndexOf(key), 1);
      }
    })();
    return entry.promise as Promise<T>;
  }

  /** Counts a request sent for the key being fetched. */
  count(key: string): void {
    const entry = this.#entries.get(key);
    if (entry) entry.requests += 1;
  }

  /** Notes an answer the key being fetched got. */
  witness(key: string, answer: { request: { method: string }; status: number }): void {
    this.#entries.get(key)?.answers.push({ method: answer.request.method, status: answer.status });
  }

  /** The method and status of each answer a key got (none when it was not fetched). */
  answersOf(key: string): ReadonlyArray<{ method: string; status: number }> {
    return this.#entries.get(key)?.answers ?? [];
  }

  /** How many keys were asked for so far: `summary(size)` later names only the keys asked for since. */
  get size(): number {
    return this.#order.length;
  }

  /** What each shared key first asked for after the first `since` cost, and which test paid for it. */
  summary(since = 0): Array<{ key: string; requests: number; paidBy: string | undefined }> {
    return this.#order.slice(since).map((key) => {
      const entry = this.#entries.get(key)!;
      return { key, requests: entry.requests, paidBy: entry.paidBy };
    });
  }
}
