// The length bounds of the tenant-custom-domain header, from the limit clause of specs/.
import { closedLimit, type Bounds } from '../../specs/index.ts';

export function customDomainBounds(): Required<Bounds> {
  return closedLimit('sso-ticket.header.custom-domain.length');
}
