// The bounds of ttl_sec, from the limit clause of specs/.
import { closedLimit, type Bounds } from '../../specs/index.ts';

export function ttlSecRange(): Required<Bounds> {
  return closedLimit('sso-ticket.body.ttl_sec.range');
}
