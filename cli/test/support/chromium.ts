// Opens a local page in headless Chromium (Debian's package) and returns the DOM after its script
// ran, and what the page wrote to the console (a blocked fetch, a script error). The process is
// bounded: its whole process group is killed at the time limit, and after it exits.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_MISSING = `${CHROMIUM} is not installed: apt-get install --no-install-recommends chromium (Debian's package chromium)`;

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // The page's console (CSP violations, script errors) on stderr.
  '--enable-logging=stderr',
  '--v=0',
];

export interface Opened {
  /** The DOM as Chromium serializes it, after the page's script ran. */
  dom: string;
  /** Console messages of the page. */
  console: string[];
}

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM);
}

export function openInChromium(file: string, timeoutMs = 20_000): Promise<Opened> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  return new Promise((resolve, reject) => {
    const child = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, '--dump-dom', pathToFileURL(file).href], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`Chromium did not finish within ${timeoutMs} ms opening ${file}\n${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // Chromium's helpers may outlive it: end them with it, then read what it wrote.
    child.on('exit', killGroup);
    child.on('close', (code) => {
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true });
      if (code !== 0) reject(new Error(`Chromium exited with ${code} opening ${file}\n${stderr}`));
      else resolve({ dom: stdout, console: stderr.split('\n').filter((line) => line.includes(':CONSOLE')) });
    });
  });
}
