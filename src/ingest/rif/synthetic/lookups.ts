/**
 * The names of the synthetic sandbox claims: BFD-shaped claims name providers, drugs and diagnoses by code
 * only and take their displays from reference data (docs/claims-rif.md#names). The sandbox's sample providers
 * are in no NPPES file and its sample codes in no loaded code list, so the sandbox load looks them up here
 * first — the sample directory's organisations and clinicians by NPI (src/fhir/directory.ts), the sample
 * drugs by product NDC and the sample diagnoses and the knee replacement's procedure by ICD-10 code (their
 * displays in src/fhir/sample-codes.ts) — and anything else in the loaded directories. Every name here is
 * SAMPLE data, labelled so where it is defined.
 */
import type { ClaimLookups, NpiRecord } from '../../../fhir/bfd/lookups.js';
import { DIAGNOSES, DRUGS } from '../../../fhir/sample-codes.js';
import { storedLookups, type BatchLookups } from '../lookups.js';
import { icdCode } from './format.js';
import { RIF_CLINICIANS, RIF_PROVIDERS } from './providers.js';

function npiRecords(): Map<string, NpiRecord> {
  const records = new Map<string, NpiRecord>();
  for (const provider of Object.values(RIF_PROVIDERS).flat()) {
    records.set(provider.npi, { entityType: '2', organizationName: provider.name });
  }
  for (const clinician of RIF_CLINICIANS) {
    const [firstName, lastName] = clinician.name.split(' ') as [string, string];
    records.set(clinician.npi, {
      entityType: '1',
      prefix: 'Dr.',
      firstName,
      lastName,
      taxonomyCode: clinician.taxonomy.code,
      taxonomyDisplay: clinician.taxonomy.display,
    });
  }
  return records;
}

const NPIS = npiRecords();
/** Sample drug names by product NDC (`labeler-product`); the pairings are illustrative only. */
const DRUG_NAMES = new Map(DRUGS.map((d) => [d.ndc.split('-').slice(0, 2).join('-'), d.name]));
/** Descriptions of the sample ICD-10 codes, as CCW writes them (no dot). */
const ICD_DESCRIPTIONS = new Map([
  ...DIAGNOSES.map((d) => [icdCode(d.code), d.display] as const),
  ['0SRC0J9', 'Replacement of right knee joint with synthetic substitute, cemented, open approach'] as const,
]);

/** The sample names, over `base` (what the loaded reference data says of anything else). */
export function sampleLookups(base: ClaimLookups): ClaimLookups {
  return {
    npi: (npi) => NPIS.get(npi) ?? base.npi(npi),
    drugName: (ndc) => DRUG_NAMES.get(ndc) ?? base.drugName(ndc),
    codeDescription: (system, code) =>
      (system.includes('icd-10') ? ICD_DESCRIPTIONS.get(code) : undefined) ??
      base.codeDescription(system, code),
  };
}

/** The lookups of the sandbox's RIF load: the sample names, then this database's directories. */
export const sandboxLookups: BatchLookups = async (trx, npis) =>
  sampleLookups(await storedLookups(trx, npis));
