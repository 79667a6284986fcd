/**
 * The JSON kept in `plans.detail`, `plan_variants.detail` and `plan_benefits.detail`: the parts of the
 * API's Plan object that no query filters on, already in the API's vocabulary, so a plan-details
 * answer is an assembly, not a translation. Amounts are dollars as JSON numbers (the API's unit).
 */

/** `CostSharingReductionEnum` of the CMS document (response form). */
export type CsrVariant =
  | 'Exchange variant (no CSR)'
  | 'Zero Cost Sharing Plan Variation'
  | 'Limited Cost Sharing Plan Variation'
  | '73% AV Level Silver Plan CSR'
  | '87% AV Level Silver Plan CSR'
  | '94% AV Level Silver Plan CSR'
  | 'Non-Exchange variant'
  | 'Unknown CSR';

export type NetworkTier =
  'In-Network' | 'In-Network Tier 2' | 'Out-of-Network' | 'Combined In-Out of Network';
export type FamilyCost = 'Individual' | 'Family Per Person' | 'Family';

/** A deductible or a maximum out-of-pocket amount (CMS `Deductible` / `MOOP`). */
export interface CostLimit {
  type: string;
  amount: number | null;
  csr: CsrVariant;
  network_tier: NetworkTier;
  family_cost: FamilyCost;
  individual: boolean;
  family: boolean;
  display_string: string;
}

export interface SbcScenario {
  deductible: number | null;
  copay: number | null;
  coinsurance: number | null;
  limit: number | null;
}

/** `plans.detail` */
export interface PlanDetail {
  issuer_name: string;
  is_new_plan: boolean | null;
  child_only_offering: string | null;
  disease_mgmt_programs: string[];
  specialist_referral_required: boolean;
  has_national_network: boolean;
  guaranteed_rate: boolean;
  wellness_program: boolean;
  formulary_url: string | null;
  brochure_url: string | null;
  benefits_url: string | null;
  network_url: string | null;
  enrollment_payment_url: string | null;
  effective_date: string | null;
  expiration_date: string | null;
  /**
   * A stand-alone dental plan's `EHBPediatricDentalApportionmentQuantity` as a fraction (the share of its
   * child premium that is pediatric dental EHB); absent or null when the file states none.
   */
  pediatric_dental_ehb_share?: number | null;
}

/** `plan_variants.detail` */
export interface VariantDetail {
  csr: CsrVariant;
  deductibles: CostLimit[];
  moops: CostLimit[];
  sbcs: { baby: SbcScenario; diabetes: SbcScenario; fracture: SbcScenario } | null;
  issuer_actuarial_value: string | null;
  hsa_eligible: boolean;
  /**
   * Plan Attributes PUF cells the out-of-pocket estimate reads (absent in rows stored before they were
   * kept, and from the QHP Landscape): `SpecialtyDrugMaximumCoinsurance` in dollars per prescription,
   * `InpatientCopaymentMaximumDays`, `BeginPrimaryCareCostSharingAfterNumberOfVisits` and
   * `BeginPrimaryCareDeductibleCoinsuranceAfterNumberOfCopays`, as published; null when the cell is empty.
   */
  specialty_drug_max_coinsurance?: number | null;
  inpatient_copay_max_days?: number | null;
  primary_care_cost_sharing_after_visits?: number | null;
  primary_care_deductible_after_copays?: number | null;
}

export interface CostSharing {
  network_tier: NetworkTier;
  copay_amount: number | null;
  copay_options: string | null;
  coinsurance_rate: number | null;
  coinsurance_options: string | null;
  display_string: string;
}

/** `plan_benefits.detail` (the API's Benefit without the variant's `csr`, added when assembled). */
export interface BenefitDetail {
  name: string;
  type: string;
  covered: boolean;
  explanation: string;
  exclusions: string;
  has_limits: boolean;
  limit_unit: string;
  limit_quantity: number | null;
  cost_sharings: CostSharing[];
  /**
   * `IsExclFromInnMOOP` of the Benefits and Cost Sharing PUF: in-network cost sharing of this benefit does
   * not count toward the MOOP. Null when the cell is empty; absent in rows stored before it was kept. Not
   * part of the API's Benefit: the out-of-pocket estimate reads it (plan-details.ts `COST_TERMS`).
   */
  excluded_from_inn_moop?: boolean | null;
}
