import { planBenefitTerms } from './benefits.js';
import { issuerSite } from './catalogue.js';
import type { CostSharing, SbcScenario, Variant } from './cost-sharing.js';
import { SAMPLE_STATE } from './geography.js';
import type { SampleMarket, SamplePlan } from './market.js';
import type { PlanAttributesColumn } from '../tables/puf-columns.js';

type Row = Partial<Record<PlanAttributesColumn, string>>;

// How the PUF writes amounts: "$4,500" for an individual, "$4500 per person", "$9000 per group".
const individual = (dollars: number) => `$${dollars.toLocaleString('en-US')}`;
const perPerson = (dollars: number) => `$${dollars} per person`;
const perGroup = (dollars: number) => `$${dollars} per group`;
const NOT_APPLICABLE = ['Not Applicable', 'per person not applicable', 'per group not applicable'] as const;

/** The three cells (individual, family per person, family per group) of one amount; family = 2×. */
function amountCells(dollars: number | null): [string, string, string] {
  return dollars === null
    ? [...NOT_APPLICABLE]
    : [individual(dollars), perPerson(dollars), perGroup(dollars * 2)];
}

type Tier = 'InnTier1' | 'InnTier2' | 'OutOfNet' | 'CombInnOon';

/** One network tier of a grid: the amount, or null for "Not Applicable", or undefined for empty cells. */
type TierAmounts = Record<Tier, number | null | undefined>;

/**
 * The network tiers of one amount: HMO and EPO plans pay nothing out of network, so their combined
 * in-and-out limit is the in-network one; PPO plans pay out of network at twice the in-network amounts,
 * with no combined limit. A second in-network tier costs 1.5× the first.
 */
function tiers(plan: SamplePlan, inNetwork: number): TierAmounts {
  const ppo = plan.spec.type === 'PPO';
  return {
    InnTier1: inNetwork,
    InnTier2: plan.spec.secondTier ? Math.round(inNetwork * 1.5) : undefined,
    OutOfNet: ppo ? inNetwork * 2 : null,
    CombInnOon: ppo ? null : inNetwork,
  };
}

/** Fills `{prefix}{tier}{Individual,FamilyPerPerson,FamilyPerGroup}{suffix}` for every tier. */
function grid(row: Row, prefix: string, suffix: string, amounts: TierAmounts): void {
  for (const tier of ['InnTier1', 'InnTier2', 'OutOfNet', 'CombInnOon'] as const) {
    const amount = amounts[tier];
    if (amount === undefined) continue;
    const [ind, person, group] = amountCells(amount);
    row[`${prefix}${tier}Individual${suffix}` as PlanAttributesColumn] = ind;
    row[`${prefix}${tier}FamilyPerPerson${suffix}` as PlanAttributesColumn] = person;
    row[`${prefix}${tier}FamilyPerGroup${suffix}` as PlanAttributesColumn] = group;
  }
}

/** Deductibles: one combined (T) grid, or medical (M) and drug (D) grids when drugs have their own. */
function deductibles(row: Row, plan: SamplePlan, sharing: CostSharing): void {
  const coinsurance = `${sharing.coinsurance.toFixed(2)}%`;
  const sections: [string, number][] =
    sharing.drugDeductible === null
      ? [['TEHBDed', sharing.deductible]]
      : [
          ['MEHBDed', sharing.deductible],
          ['DEHBDed', sharing.drugDeductible],
        ];
  for (const [prefix, amount] of sections) {
    grid(row, prefix, '', tiers(plan, amount));
    row[`${prefix}InnTier1Coinsurance` as PlanAttributesColumn] = coinsurance;
    if (plan.spec.secondTier)
      row[`${prefix}InnTier2Coinsurance` as PlanAttributesColumn] =
        `${(sharing.coinsurance / 2).toFixed(2)}%`;
  }
}

function sbc(
  row: Row,
  name: 'HavingaBaby' | 'HavingDiabetes' | 'HavingSimplefracture',
  s: SbcScenario,
): void {
  row[`SBC${name}Deductible`] = individual(s.deductible);
  row[`SBC${name}Copayment`] = individual(s.copayment);
  row[`SBC${name}Coinsurance`] = individual(s.coinsurance);
  row[`SBC${name}Limit`] = individual(s.limit);
}

const yesNo = (value: boolean | undefined) => (value ? 'Yes' : 'No');

/** One Plan Attributes PUF row: a plan variant, every column in the published vocabulary. */
export function planAttributesRow(market: SampleMarket, plan: SamplePlan, variant: Variant): Row {
  const { spec, issuer } = plan;
  const site = issuerSite(issuer.spec);
  const variantId = `${plan.id}-${variant.suffix}`;
  const ppo = spec.type === 'PPO';
  // The cells of the plan's benefit design that the Plan Attributes PUF carries (benefits.ts).
  const terms = planBenefitTerms(market, plan);
  const row: Row = {
    BusinessYear: String(market.year),
    StateCode: SAMPLE_STATE,
    IssuerId: issuer.spec.id,
    IssuerMarketPlaceMarketingName: issuer.name,
    SourceName: 'HIOS',
    ImportDate: `${market.year - 1}-10-15 00:00:00`,
    MarketCoverage: 'Individual',
    DentalOnlyPlan: 'No',
    StandardComponentId: plan.id,
    PlanMarketingName: plan.name,
    HIOSProductId: plan.id.slice(0, 10),
    NetworkId: plan.networkId,
    ServiceAreaId: plan.serviceAreaId,
    FormularyId: `${SAMPLE_STATE}F001`,
    IsNewPlan: plan.isNew ? 'New' : 'Existing',
    PlanType: spec.type,
    MetalLevel: spec.metal,
    DesignType: spec.design,
    UniquePlanDesign: yesNo(spec.design === 'Not Applicable'),
    QHPNonQHPTypeId: 'Both',
    IsNoticeRequiredForPregnancy: 'No',
    IsReferralRequiredForSpecialist: yesNo(spec.type === 'HMO'),
    SpecialistRequiringReferral:
      spec.type === 'HMO' ? 'All specialists except obstetrics, gynecology and behavioral health' : '',
    IndianPlanVariationEstimatedAdvancedPaymentAmountPerEnrollee: '$0.00',
    CompositeRatingOffered: 'No',
    ChildOnlyOffering: 'Allows Adult and Child-Only',
    WellnessProgramOffered: yesNo(plan.wellness),
    DiseaseManagementProgramsOffered: 'Asthma, Heart Disease, Diabetes',
    EHBPercentTotalPremium: String(plan.ehbPercent === 1 ? '1.0' : plan.ehbPercent),
    PlanEffectiveDate: `${market.year}-01-01`,
    PlanExpirationDate: `${market.year}-12-31`,
    OutOfCountryCoverage: yesNo(ppo),
    OutOfCountryCoverageDescription: ppo ? 'Emergency services only' : '',
    OutOfServiceAreaCoverage: yesNo(ppo),
    OutOfServiceAreaCoverageDescription: ppo ? 'Covered at the out-of-network level' : '',
    NationalNetwork: yesNo(spec.nationalNetwork),
    URLForEnrollmentPayment: `${site}/pay`,
    FormularyURL: `${site}/formulary-${market.year}.pdf`,
    PlanId: variantId,
    PlanVariantMarketingName: plan.name,
    CSRVariationType: variant.csrType,
    IssuerActuarialValue: variant.av === null ? '' : `${(variant.av * 100).toFixed(2)}%`,
    AVCalculatorOutputNumber: variant.av === null ? '' : String(variant.av === 1 ? '1.0' : variant.av),
    MedicalDrugDeductiblesIntegrated: yesNo(variant.sharing.drugDeductible === null),
    MedicalDrugMaximumOutofPocketIntegrated: 'Yes',
    MultipleInNetworkTiers: yesNo(spec.secondTier),
    FirstTierUtilization: spec.secondTier ? '80%' : '100%',
    SecondTierUtilization: spec.secondTier ? '20%' : '',
    SpecialtyDrugMaximumCoinsurance: terms.specialtyCap === null ? '' : individual(terms.specialtyCap),
    InpatientCopaymentMaximumDays: String(terms.inpatientMaxDays),
    BeginPrimaryCareCostSharingAfterNumberOfVisits: String(terms.freeVisits),
    // Catastrophic plans cover three primary care visits before the deductible (45 CFR 156.155(a)(3)).
    BeginPrimaryCareDeductibleCoinsuranceAfterNumberOfCopays: String(terms.copaysBeforeDeductible),
    // The zero-cost-sharing variant has no deductible, so it is no high-deductible health plan.
    IsHSAEligible: yesNo(spec.hsa && variant.suffix !== '02'),
    URLForSummaryofBenefitsCoverage: `${site}/sbc/${variantId}-${market.year}.pdf`,
    PlanBrochure: `${site}/brochure-${market.year}.pdf`,
  };
  sbc(row, 'HavingaBaby', variant.sbc.baby);
  sbc(row, 'HavingDiabetes', variant.sbc.diabetes);
  sbc(row, 'HavingSimplefracture', variant.sbc.fracture);
  grid(row, 'TEHB', 'MOOP', tiers(plan, variant.sharing.moop));
  deductibles(row, plan, variant.sharing);
  return row;
}
