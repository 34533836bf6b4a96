// Time for everything that depends on it (the rate limiter, token issuing, token expiry checks and
// the Date header), injected so that tests move time instead of sleeping.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  #now: number;

  /** Starts at `startMs`; by default a fixed instant, so runs repeat exactly. */
  constructor(startMs: number = Date.UTC(2025, 0, 1)) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`a clock only moves forward (advance(${ms}))`);
    this.#now += ms;
  }

  set(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`not a time: ${ms}`);
    this.#now = ms;
  }
}
