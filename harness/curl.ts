// A curl command line that replays a request, credentials redacted, for failure messages.
import type { OutgoingRequest } from './http.ts';
import { redactor } from './redact.ts';

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function toCurl(request: OutgoingRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method, quote(request.url)];
  for (const [name, values] of Object.entries(request.headers))
    for (const value of [values].flat()) {
      // The token is left to the shell ($TOKEN), so the line is safe to paste into a ticket.
      if (name.toLowerCase() === 'authorization') parts.push('-H', `"${name}: ${schemeOf(value)}$TOKEN"`);
      else parts.push('-H', quote(`${name}: ${value}`));
    }
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  return redactor.redact(parts.join(' '));
}

function schemeOf(value: string): string {
  const space = value.indexOf(' ');
  return space > 0 ? `${value.slice(0, space).replace(/[^A-Za-z]/g, '')} ` : '';
}
