// How a benchmark server child talks to the bench: it reports its URL once it listens, and on
// "stop" reports its peak resident set size, closes and exits.
export interface ReadyMessage {
  kind: 'ready';
  url: string;
}

export interface StoppedMessage {
  kind: 'stopped';
  /** process.resourceUsage().maxRSS, in kilobytes. */
  maxRssKb: number;
}

export function serveUntilStopped(url: string, close: () => Promise<void>): void {
  if (!process.send) throw new Error('run this file as a child process with an IPC channel (bench/mock-throughput.ts does)');
  process.send({ kind: 'ready', url } satisfies ReadyMessage);
  process.on('message', (message: { kind?: string }) => {
    if (message.kind !== 'stop') return;
    const maxRssKb = process.resourceUsage().maxRSS;
    void close().finally(() => process.send!({ kind: 'stopped', maxRssKb } satisfies StoppedMessage, () => process.exit(0)));
  });
}
