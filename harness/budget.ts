// The request budget of a run: the suite never sends more requests than the user allowed.
import { HarnessError } from './errors.ts';

export class RequestBudget {
  readonly max: number;
  #used = 0;

  constructor(max: number) {
    this.max = max;
  }

  get used(): number {
    return this.#used;
  }

  /** Takes one request from the budget, or refuses when none is left. */
  take(): void {
    if (this.#used >= this.max) {
      throw new HarnessError('BUDGET_EXHAUSTED', `the request budget of ${this.max} is spent (raise it with --max-requests)`);
    }
    this.#used += 1;
  }
}
