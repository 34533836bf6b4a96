// The parts of a compact token as text, for faults that read a token the way a hand-written
// verifier does: its segments, and the JSON text its header or payload decodes to (not parsed).

export interface Segments {
  header: string;
  payload: string;
  signature: string;
}

/** The three segments of a compact JWS; undefined for another number of segments. */
export function segmentsOf(token: string): Segments | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  return { header, payload, signature };
}

/** The text a base64url segment decodes to. */
export function segmentText(segment: string): string {
  return Buffer.from(segment, 'base64url').toString('utf8');
}

/** A JSON value written as a base64url segment. */
export function segmentOf(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}
