// Paths of the three operations for the default fixtures, built from the spec's templates.
import { basePath, operation, type OperationKey } from '../../../specs/index.ts';

export function pathOf(key: OperationKey, params: Record<string, string>): string {
  return `${basePath}${operation(key).pathTemplate.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '')}`;
}

/** Ids of mock/fixtures/default.yaml, as the suite's targets/mock.yaml names them. */
export const fixtureIds = {
  stream: 'est_AQXiyfL3iDNFp5RV9YTEMv',
  otherStream: 'est_2A7uEXPcA5d5UuDX1WwJ9U',
  failedEvent: 'evt_wx3cBnTHxX2mVaYMaBVtL8',
  deliveredEvent: 'evt_x7WnjtmQKy9VdWg4eUQg85',
  pendingEvent: 'evt_7frvF43rJLRL2xXUgdPW1L',
  otherStreamEvent: 'evt_aBuvuqxYoQwc9NWDCocNz7',
  profile: 'ssp_9KgfU2kfX7fonvodDzoqxD',
  connectionName: 'acme-existing-sso',
  vaultFull: 'ac_NbWaizZTo4vfWnCwDq76Vj',
  vaultMinimal: 'ac_AkoqqjxmLJhPJThFBi7J1v',
  vaultLongest: 'ac_p6dM9Csyp6GMBtiChuWHEqh9iZS',
} as const;

export const redeliverPath = (id: string, eventId: string) => pathOf('redeliver', { id, event_id: eventId });
export const ticketPath = (id: string) => pathOf('sso-ticket', { id });
export const vaultPath = (id: string) => pathOf('vault', { id });
