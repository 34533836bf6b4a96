// Every round of held-out faults, by its number: each written apart from the suite at its own time
// (docs/held-out-faults.md). The bench measures them (bench/held-out-faults.ts) and each round's
// probes check that no id of theirs is another round's (mock/test/support/held-out-round.ts).
// A new round is a folder and a line here.
import { heldOutFaults } from './catalogue.ts';
import { heldOutRound2Faults } from './round-2/catalogue.ts';
import { heldOutRound3Faults } from './round-3/catalogue.ts';
import { heldOutRound4Faults } from './round-4/catalogue.ts';
import { heldOutRound5Faults } from './round-5/catalogue.ts';
import { heldOutRound6Faults } from './round-6/catalogue.ts';
import { heldOutRound7Faults } from './round-7/catalogue.ts';
import { heldOutRound8Faults } from './round-8/catalogue.ts';
import { heldOutRound9Faults } from './round-9/catalogue.ts';
import { heldOutRound10Faults } from './round-10/catalogue.ts';
import { heldOutRound11Faults } from './round-11/catalogue.ts';
import { heldOutRound12Faults } from './round-12/catalogue.ts';
import { heldOutRound13Faults } from './round-13/catalogue.ts';
import { heldOutRound14Faults } from './round-14/catalogue.ts';
import { heldOutRound15Faults } from './round-15/catalogue.ts';
import { heldOutRound16Faults } from './round-16/catalogue.ts';
import { heldOutRound17Faults } from './round-17/catalogue.ts';
import { heldOutRound18Faults } from './round-18/catalogue.ts';
import { heldOutRound19Faults } from './round-19/catalogue.ts';
import { heldOutRound20Faults } from './round-20/catalogue.ts';
import { heldOutRound21Faults } from './round-21/catalogue.ts';
import { heldOutRound22Faults } from './round-22/catalogue.ts';
import { heldOutRound23Faults } from './round-23/catalogue.ts';
import { heldOutRound24Faults } from './round-24/catalogue.ts';
import { heldOutRound25Faults } from './round-25/catalogue.ts';
import { heldOutRound26Faults } from './round-26/catalogue.ts';
import { heldOutRound27Faults } from './round-27/catalogue.ts';
import { heldOutRound28Faults } from './round-28/catalogue.ts';
import { heldOutRound29Faults } from './round-29/catalogue.ts';
import { heldOutRound30Faults } from './round-30/catalogue.ts';
import { heldOutRound31Faults } from './round-31/catalogue.ts';
import { heldOutRound32Faults } from './round-32/catalogue.ts';
import { heldOutRound33Faults } from './round-33/catalogue.ts';
import { heldOutRound34Faults } from './round-34/catalogue.ts';
import { heldOutRound35Faults } from './round-35/catalogue.ts';
import { heldOutRound36Faults } from './round-36/catalogue.ts';
import { heldOutRound37Faults } from './round-37/catalogue.ts';
import { heldOutRound38Faults } from './round-38/catalogue.ts';
import { heldOutRound39Faults } from './round-39/catalogue.ts';
import { heldOutRound40Faults } from './round-40/catalogue.ts';
import { heldOutRound41Faults } from './round-41/catalogue.ts';
import { heldOutRound42Faults } from './round-42/catalogue.ts';
import { heldOutRound43Faults } from './round-43/catalogue.ts';
import type { HeldOutFault } from './held-out-fault.ts';

export const heldOutRounds: Readonly<Record<string, readonly HeldOutFault[]>> = {
  '1': heldOutFaults,
  '2': heldOutRound2Faults,
  '3': heldOutRound3Faults,
  '4': heldOutRound4Faults,
  '5': heldOutRound5Faults,
  '6': heldOutRound6Faults,
  '7': heldOutRound7Faults,
  '8': heldOutRound8Faults,
  '9': heldOutRound9Faults,
  '10': heldOutRound10Faults,
  '11': heldOutRound11Faults,
  '12': heldOutRound12Faults,
  '13': heldOutRound13Faults,
  '14': heldOutRound14Faults,
  '15': heldOutRound15Faults,
  '16': heldOutRound16Faults,
  '17': heldOutRound17Faults,
  '18': heldOutRound18Faults,
  '19': heldOutRound19Faults,
  '20': heldOutRound20Faults,
  '21': heldOutRound21Faults,
  '22': heldOutRound22Faults,
  '23': heldOutRound23Faults,
  '24': heldOutRound24Faults,
  '25': heldOutRound25Faults,
  '26': heldOutRound26Faults,
  '27': heldOutRound27Faults,
  '28': heldOutRound28Faults,
  '29': heldOutRound29Faults,
  '30': heldOutRound30Faults,
  '31': heldOutRound31Faults,
  '32': heldOutRound32Faults,
  '33': heldOutRound33Faults,
  '34': heldOutRound34Faults,
  '35': heldOutRound35Faults,
  '36': heldOutRound36Faults,
  '37': heldOutRound37Faults,
  '38': heldOutRound38Faults,
  '39': heldOutRound39Faults,
  '40': heldOutRound40Faults,
  '41': heldOutRound41Faults,
  '42': heldOutRound42Faults,
  '43': heldOutRound43Faults,
};
