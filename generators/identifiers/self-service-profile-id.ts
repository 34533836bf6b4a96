// A self-service profile id of the observed shape (ssp_ and base58).
import type fc from 'fast-check';
import { observed } from '../../specs/index.ts';
import { idOfShape } from './id-of-shape.ts';

export function selfServiceProfileId(): fc.Arbitrary<string> {
  return idOfShape(observed.identifiers.self_service_profile);
}
