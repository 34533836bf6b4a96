// Small readers the sixth round's faults share: the path of an issuer as a path normaliser sees it,
// and a signature left-padded to the key's size as a lenient RSA verifier pads it.
import { posix } from 'node:path';

/** An http(s) URL with its path passed through path.posix.normalize ("/./" becomes "/"); else undefined. */
export function withNormalisedPath(url: string): string | undefined {
  const match = /^(https?:\/\/[^/]+)(\/.*)$/.exec(url);
  if (!match) return undefined;
  const normalised = `${match[1]!}${posix.normalize(match[2]!)}`;
  return normalised === url ? undefined : normalised;
}

/** The bytes of a base64url signature left-padded with zero bytes to `size`; undefined when it is not shorter. */
export function leftPadded(signature: string, size: number): string | undefined {
  const bytes = Buffer.from(signature, 'base64url');
  if (bytes.length === 0 || bytes.length >= size) return undefined;
  return Buffer.concat([Buffer.alloc(size - bytes.length), bytes]).toString('base64url');
}
