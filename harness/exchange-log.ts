// Writes recorded exchanges to a file as they happen, one JSON line each (exchanges.ndjson): a line
// is on disk before the next request is sent, and nothing of it stays in memory, however long the
// run. Every line is redacted (harness/redact.ts) after its tokens are decoded (exchange-record.ts).
import { appendFileSync, writeFileSync } from 'node:fs';
import { recordOf, SecretDigester, type RecordedExchange } from './exchange-record.ts';
import { redactor } from './redact.ts';

export class ExchangeLog {
  readonly path: string;
  readonly #digester = new SecretDigester();
  #count = 0;

  /** Starts an empty log at `path` (an earlier file there is replaced). */
  constructor(path: string) {
    this.path = path;
    writeFileSync(path, '');
  }

  get count(): number {
    return this.#count;
  }

  write(exchange: Omit<RecordedExchange, 'tokens' | 'digests'>): void {
    const line = JSON.stringify(recordOf(exchange, this.#digester, (text) => redactor.redact(text)));
    appendFileSync(this.path, `${line}\n`);
    this.#count += 1;
  }
}
