// The clients of a fixtures file as a table (`npm run mock -- --list-clients`): what a developer
// needs to ask the mock for a token, each client's management scopes as the mock grants them (its
// role's, made from the operation cards, and its own). The development secrets of the default
// fixtures are public; a fixtures file of yours is printed as it is.
import type { LoadedFixtures } from './fixtures.ts';
import { Store } from './store.ts';

export function clientListing(fixtures: LoadedFixtures): string {
  const store = new Store(fixtures.data);
  const rows = fixtures.data.clients.map((fixture) => {
    const client = store.client(fixture.client_id)!;
    const grants = [...client.grants].map(([audience, scopes]) => `${audience}: ${scopes.join(' ')}`);
    return [
      fixture.name,
      fixture.client_id,
      fixture.client_secret ?? '(a client assertion: private_key_jwt)',
      client.global ? 'global' : 'not global',
      [client.managementGrant ? client.scopes.join(' ') || '(no scope)' : '(no management grant)', ...grants].join('; '),
    ];
  });
  const header = ['name', 'client_id', 'client_secret', 'global', 'scopes'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `${cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}\n`;
  return `# ${fixtures.source}\n${line(header)}${rows.map(line).join('')}`;
}
