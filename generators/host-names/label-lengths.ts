// How a host name of a given length splits into labels: pure arithmetic, so the arbitraries only
// choose preferences and the exact length is guaranteed here.

/** The longest label of a host name (RFC 1035, section 2.3.4). */
export const LONGEST_LABEL = 63;

/**
 * Lengths of labels that, joined by dots, take exactly `total` characters. Labels take their
 * preferred lengths in turn (cycling), each cut to fit and to LONGEST_LABEL; the last takes the rest.
 */
export function labelLengths(total: number, preferred: readonly number[]): number[] {
  if (!Number.isInteger(total) || total < 1) throw new RangeError(`no labels fill ${total} characters`);
  if (preferred.length === 0) throw new RangeError('labelLengths needs at least one preferred length');
  const lengths: number[] = [];
  let remaining = total;
  for (let turn = 0; remaining > LONGEST_LABEL; turn += 1) {
    // Leave at least a dot and one character for the labels still to come.
    const length = Math.max(1, Math.min(preferred[turn % preferred.length]!, LONGEST_LABEL, remaining - 2));
    lengths.push(length);
    remaining -= length + 1;
  }
  lengths.push(remaining);
  return lengths;
}
