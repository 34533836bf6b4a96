// Replies a held-out fault answers in place of the route's: an error of the catalogue keeping the
// X-RateLimit headers the limiter put on the original (the request still cost its token), and
// nothing else of it (no challenge header of a 401 the fault answered otherwise).
import { observed } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';

const RATE_LIMIT_HEADERS = new Set(Object.values(observed.rate_limit.headers).map((name) => name.toLowerCase()));

export function answeredInstead(original: Reply, replacement: Reply): Reply {
  const kept = Object.fromEntries(Object.entries(original.headers).filter(([name]) => RATE_LIMIT_HEADERS.has(name.toLowerCase())));
  return { ...replacement, headers: { ...replacement.headers, ...kept } };
}

/** The reply's header, whatever the letter case of its name. */
export function headerOf(reply: Reply, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(reply.headers).find(([key]) => key.toLowerCase() === wanted)?.[1];
}

/** The reply with one header set, replacing it under whatever letter case it had. */
export function withHeader(reply: Reply, name: string, value: string): Reply {
  const wanted = name.toLowerCase();
  const headers = Object.fromEntries(Object.entries(reply.headers).filter(([key]) => key.toLowerCase() !== wanted));
  return { ...reply, headers: { ...headers, [name]: value } };
}
