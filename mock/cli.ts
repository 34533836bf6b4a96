// The mock as a program: `npx tsx mock/cli.ts [options]` (npm run mock -- [options]).
// Prints one line with its URLs once it listens; stops cleanly on SIGINT and SIGTERM. A bad option,
// fixtures file, signing key file or fault id is one line on stderr and exit code 2; failing to
// listen (say, the port is taken) is exit code 1.
import { parseCli, usage } from './cli-options.ts';
import { MockConfigError } from './config-error.ts';
import { clientListing } from './client-listing.ts';
import { loadFixtures } from './fixtures.ts';
import { createMockServer, faultCatalogue } from './index.ts';

async function main(argv: readonly string[]): Promise<void> {
  const command = parseCli(argv);
  if (command.kind === 'help') {
    process.stdout.write(usage);
    return;
  }
  if (command.kind === 'list-faults') {
    // A reader that stops early (| head) closes the pipe: that ends the listing, not in an error.
    process.stdout.on('error', () => process.exit(0));
    process.stdout.write(faultCatalogue.map((fault) => `${fault.id}\t${fault.clause}\t${fault.description}\n`).join(''));
    return;
  }
  if (command.kind === 'list-clients') {
    process.stdout.on('error', () => process.exit(0));
    process.stdout.write(clientListing(loadFixtures(command.fixtures)));
    return;
  }
  const mock = await createMockServer(command.options);
  // The signal handlers come before the start-up line: a reader that sends SIGTERM as soon as it
  // reads the URL must find them installed (written after, a loaded machine killed the mock by the
  // signal's default action in the gap between the write and the next statement).
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`mock: ${signal} received, closing`);
    mock.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // One write for every start-up line: a reader that waits for the first (the URL) has the rest too.
  const lines = [`mock listening on ${mock.url} (API base ${mock.apiBaseUrl})`];
  if (mock.tls?.certPath)
    lines.push(
      `mock: ${mock.tls.source === 'generated' ? 'made a' : 'reusing the'} self-signed TLS certificate ${mock.tls.certPath}; trust it with NODE_EXTRA_CA_CERTS=${mock.tls.certPath}`,
    );
  const { management, token } = mock.rateLimits;
  lines.push(
    `mock: rate limit ${management.bucketSize} burst, ${management.refillPerSecond}/s (token endpoint ${token.bucketSize}, ${token.refillPerSecond}/s)`,
  );
  const source = mock.keys.source;
  if (source.kind === 'created-file') lines.push(`mock: wrote a new signing key to ${source.path} (kid ${mock.keys.kid})`);
  if (source.kind === 'file') lines.push(`mock: signing with the key in ${source.path} (kid ${mock.keys.kid})`);
  if (mock.faults.length > 0) lines.push(`mock: faults installed: ${mock.faults.join(', ')}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof MockConfigError) {
    process.stderr.write(`mock: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`mock: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
