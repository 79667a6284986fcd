/** One RIF claim → its ExplanationOfBenefit, by record type (docs/claims-rif.md). */
import { carrierEob } from './carrier.js';
import { dmeEob } from './dme.js';
import type { Json } from './elements.js';
import { hhaEob } from './hha.js';
import { hospiceEob } from './hospice.js';
import { inpatientEob } from './inpatient.js';
import { outpatientEob } from './outpatient.js';
import { pdeEob } from './pde.js';
import type { RifClaim, RifClaimType, TransformContext } from './rif-record.js';
import { snfEob } from './snf.js';

const TRANSFORMS: Record<RifClaimType, (claim: RifClaim, context: TransformContext) => Json> = {
  carrier: carrierEob,
  dme: dmeEob,
  hha: hhaEob,
  hospice: hospiceEob,
  inpatient: inpatientEob,
  outpatient: outpatientEob,
  snf: snfEob,
  pde: pdeEob,
};

export function claimEob(claim: RifClaim, context: TransformContext): Json {
  return TRANSFORMS[claim.type](claim, context);
}
