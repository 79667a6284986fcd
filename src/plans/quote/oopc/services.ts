import { OOPC_TABLE_SERVICES } from '../../tables/oopc-utilization-2014.js';

/**
 * The service categories the out-of-pocket cost model prices, and the Benefits and Cost Sharing PUF
 * `BenefitName` whose cost sharing each takes. The list and the names are CMS's: `oopcService` and
 * `OopcServices` of `oopc.go` in https://github.com/CMSgov/oopc-calculations (CC0). The workbook's
 * `op_er_prof` ("not in use", zero everywhere) is left out, as CMS's code leaves it out.
 */

/** The table's services but `op_er_prof`, in the table's order. */
export type OopcService = Exclude<(typeof OOPC_TABLE_SERVICES)[number], 'op_er_prof'>;

export const OOPC_SERVICES: readonly OopcService[] = OOPC_TABLE_SERVICES.filter(
  (s): s is OopcService => s !== 'op_er_prof',
);

/** The services priced from a plan benefit: every one but `op_other`, which takes the household's average rate. */
export type BenefitService = Exclude<OopcService, 'op_other'>;

/**
 * The PUF benefit each service is priced by. Three imaging services share "X-rays and Diagnostic Imaging";
 * the outpatient facility name has two spaces after "e.g.," as the PUF spells it.
 */
export const SERVICE_BENEFITS: Readonly<Record<BenefitService, string>> = {
  ip_fac: 'Inpatient Hospital Services (e.g., Hospital Stay)',
  ip_prof: 'Inpatient Physician and Surgical Services',
  op_ambulance: 'Emergency Transportation/Ambulance',
  op_chiro: 'Chiropractic Care',
  op_ct_mri: 'Imaging (CT/PET Scans, MRIs)',
  op_diagnostic_cardiology: 'X-rays and Diagnostic Imaging',
  op_dialysis: 'Dialysis',
  op_dme: 'Durable Medical Equipment',
  op_er_fac: 'Emergency Room Services',
  op_eye: 'Routine Eye Exam (Adult)',
  op_jcode: 'Chemotherapy',
  op_lab: 'Laboratory Outpatient and Professional Services',
  op_mh: 'Mental/Behavioral Health Outpatient Services',
  op_op_fac: 'Outpatient Facility Fee (e.g.,  Ambulatory Surgery Center)',
  op_prev: 'Preventive Care/Screening/Immunization',
  op_primcare: 'Primary Care Visit to Treat an Injury or Illness',
  op_rehab: 'Outpatient Rehabilitation Services',
  op_speccare: 'Specialist Visit',
  op_surg: 'Outpatient Surgery Physician/Surgical Services',
  op_ultrasound: 'X-rays and Diagnostic Imaging',
  op_xray: 'X-rays and Diagnostic Imaging',
  rx_generic: 'Generic Drugs',
  rx_npbrand: 'Non-Preferred Brand Drugs',
  rx_pbrand: 'Preferred Brand Drugs',
  rx_specialty: 'Specialty Drugs',
};

export const BENEFIT_SERVICES = OOPC_SERVICES.filter((s): s is BenefitService => s !== 'op_other');

/** The distinct benefit names the model reads (23: three services share one). */
export const OOPC_BENEFIT_NAMES: readonly string[] = [...new Set(Object.values(SERVICE_BENEFITS))];

/** Drug services count toward drug and combined limits; the others toward medical and combined ones. */
export const isDrug = (service: OopcService): boolean => service.startsWith('rx_');
