// The faults every operation gets from its card (specs/cards/): its success answered as text, one
// record answered for every id it echoes, each path id cut to its limit's width
// (support/answer-faults.ts). A card added to the project gets them at once.
import { cards } from '../../specs/cards/index.ts';
import { faultFamily } from './fault.ts';
import { answerFaultsOf } from './support/answer-faults.ts';

export const operationAnswerFaults = faultFamily(Object.values(cards).flatMap(answerFaultsOf));
