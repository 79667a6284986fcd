/** RIF records → their FHIR resources, by record type (docs/claims-rif.md). */
import { conformToCarin } from './carin-conformance.js';
import { carrierEob } from './carrier.js';
import { coverageResources } from './coverage.js';
import { dmeEob } from './dme.js';
import type { Json } from './elements.js';
import { hhaEob } from './hha.js';
import { hospiceEob } from './hospice.js';
import { inpatientEob } from './inpatient.js';
import { outpatientEob } from './outpatient.js';
import { patientResource } from './patient.js';
import { pdeEob } from './pde.js';
import type { RifBeneficiary, RifClaim, RifClaimType, TransformContext } from './rif-record.js';
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

/** One RIF claim → its ExplanationOfBenefit as BFD makes it. */
export function claimEob(claim: RifClaim, context: TransformContext): Json {
  return TRANSFORMS[claim.type](claim, context);
}

/**
 * What the service stores and serves for RIF records: BFD's resources with the changes CARIN Blue Button 2.0.0
 * needs (carin-conformance.ts, docs/claims-rif.md#carin).
 */
export const servedTransforms = {
  claimEob: (claim: RifClaim, context: TransformContext): Json => conformToCarin(claimEob(claim, context)),
  patientResource: (record: RifBeneficiary, context: TransformContext): Json =>
    conformToCarin(patientResource(record, context)),
  coverageResources: (record: RifBeneficiary, context: TransformContext): Json[] =>
    coverageResources(record, context).map(conformToCarin),
};
