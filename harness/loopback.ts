// Whether a URL points at this machine. Writes and deliberate rate-limit exhaustion run against
// anything else only with the user's explicit opt-in.
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', '::1', 'localhost']);

export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}
