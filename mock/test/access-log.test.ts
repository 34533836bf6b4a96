// The access log: one line per request (method, path, status, duration), and never a secret.
import { expect, test } from 'vitest';
import { tokenPath } from '../../specs/index.ts';
import { call, client, tokenFor, tokenRequest } from './support/http.ts';
import { mockForTest } from './support/mock.ts';
import { fixtureIds as ids, vaultPath } from './support/paths.ts';

test('each request logs method, path, status and duration, and no secret', async () => {
  const lines: string[] = [];
  const mock = await mockForTest({ log: (line) => lines.push(line) });
  const token = await tokenFor(mock, 'global');
  await call(mock, 'GET', `${vaultPath(ids.vaultFull)}?client_secret=${client(mock, 'global').client_secret}`, { token });
  await call(mock, 'POST', tokenPath, { body: tokenRequest(mock, 'global', { client_secret: 'a-wrong-secret' }) });
  await new Promise((resolve) => setImmediate(resolve));
  expect(lines.map((l) => l.replace(/ [\d.]+ms$/, ''))).toEqual([
    'POST /oauth/token 200',
    `GET ${vaultPath(ids.vaultFull)} 200`,
    `POST ${tokenPath} 401`,
  ]);
  const all = lines.join('\n');
  for (const secret of [token, client(mock, 'global').client_secret, 'a-wrong-secret']) expect(all).not.toContain(secret);
});
