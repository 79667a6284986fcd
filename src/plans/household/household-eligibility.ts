import { applicablePercentage } from '../eligibility/applicable-percentage.js';
import { isAptcEligibleMember, monthlyAptc, type AptcResult } from '../eligibility/aptc.js';
import { csrLevel, csrOverrideLevel, type CsrLevel, type CsrOverride } from '../eligibility/csr.js';
import { fplPercent, type FplResult } from '../eligibility/fpl.js';
import {
  inCoverageGap,
  limitsByCategory,
  medicaidChipEligibility,
  type MedicaidLimitsByCategory,
} from '../eligibility/medicaid.js';
import { creditFpl } from '../eligibility/unemployment-2021.js';
import { planError } from '../errors.js';
import { dollarsToCents, type Cents } from '../pricing/money.js';
import type { MedicaidLimits } from '../store/medicaid.js';
import type { Member, SettledHousehold } from './household.js';

/** A state's limits by category, worked out once per loaded limits (they are cached per dataset load). */
const byCategory = new WeakMap<MedicaidLimits, MedicaidLimitsByCategory>();
function categoriesOf(limits: MedicaidLimits): MedicaidLimitsByCategory {
  let known = byCategory.get(limits);
  if (!known) {
    known = limitsByCategory(limits.limits);
    byCategory.set(limits, known);
  }
  return known;
}

/** Per person: the Medicaid/CHIP screen and what follows from it. */
export interface PersonEligibility {
  isMedicaidChip: boolean;
  inCoverageGap: boolean;
  /** In the credit's coverage family: not Medicaid/CHIP, no other MEC, `aptc_eligible` not false. */
  aptcEligible: boolean;
}

export interface HouseholdEligibility {
  people: PersonEligibility[];
  /** FPL % for the credit and CSR (guidelines of year − 1), when the income is known. */
  fpl: FplResult | undefined;
  aptc: AptcResult;
  /** The benchmark the credit was computed from (monthly EHB premium, cents), when one was needed. */
  benchmark: Cents | undefined;
  /** The CSR level the household sees (`csr_override` wins). */
  csr: CsrLevel | null;
}

export interface EligibilityInput {
  year: number;
  state: string;
  household: SettledHousehold;
  /** The state's Medicaid/CHIP limits for the year; undefined = none loaded (1015 when they are needed). */
  medicaid: MedicaidLimits | undefined;
  /** The SLCSP benchmark for the given members (monthly EHB premium in cents), undefined with no silver plan. */
  benchmark: (members: readonly Member[]) => Cents | undefined;
  aptcOverride?: number;
  csrOverride?: CsrOverride;
}

const NO_CREDIT = (reason: 'unknown-year'): AptcResult => ({
  eligible: false,
  aptc: 0,
  aptcExact: 0,
  reason,
});

/**
 * The household's eligibility (docs/decisions.md#eligibility-pipeline): Medicaid/CHIP per person against the
 * state's limits at the Medicaid FPL %, the coverage gap, the credit from the SLCSP of the APTC-eligible
 * members and the applicable percentage of the year, and the CSR level. With an unknown income nothing is
 * screened and no credit is estimated, unless `aptc_override` gives it.
 */
export function householdEligibility(input: EligibilityInput): HouseholdEligibility {
  const { year, state, household } = input;
  const override = input.aptcOverride === undefined ? undefined : dollarsToCents(input.aptcOverride);
  const csrFromOverride = input.csrOverride ? csrOverrideLevel(input.csrOverride) : undefined;
  const people = household.members.map((m) => m.input);
  if (household.income === null) {
    const members = household.members.map((m) => ({
      isMedicaidChip: false,
      inCoverageGap: false,
      aptcEligible: isAptcEligibleMember({ ...m.input, isMedicaidChip: false }),
    }));
    const aptc =
      override === undefined
        ? NO_CREDIT('unknown-year')
        : monthlyAptc({ year, income: 0, fplPercent: 0, benchmark: undefined, override });
    return { people: members, fpl: undefined, aptc, benchmark: undefined, csr: csrFromOverride ?? null };
  }
  const fpl = fplPercent(household.income, people, state, year, 'aptc');
  const medicaidFpl = fplPercent(household.income, people, state, year, 'medicaid');
  if (!fpl || !medicaidFpl) {
    throw planError(1010, `guideline not found for state: ${state}, year: ${year}`);
  }
  // Without the state's limits nobody can be screened: 1015, unless `aptc_override` gives the credit, in
  // which case members are taken as not Medicaid/CHIP-eligible (the caller vouches for the amount).
  if (!input.medicaid && override === undefined) {
    throw planError(
      1015,
      `missing eligibility for fiscal year: ${year}, quarter: 1, state: ${state} (load the medicaid kind)`,
    );
  }
  const limits: MedicaidLimitsByCategory = input.medicaid ? categoriesOf(input.medicaid) : {};
  const credit = creditFpl(year, fpl.percent, household.unemployment, 'aptc');
  const forCsr = creditFpl(year, fpl.percent, household.unemployment, 'csr');
  const screened = household.members.map((m) => {
    const { input } = m;
    const medicaid = medicaidChipEligibility(
      {
        age: m.age,
        is_pregnant: input.is_pregnant,
        pregnant_with: input.pregnant_with,
        is_parent: input.is_parent,
      },
      medicaidFpl.percent,
      limits,
    );
    return {
      isMedicaidChip: medicaid.is_medicaid_chip,
      // Not in the gap when the 2021 unemployment rule makes the household an applicable taxpayer.
      inCoverageGap:
        !m.input.has_mec &&
        !credit.treatedAsApplicable &&
        inCoverageGap(fpl.percent, limits, medicaid.is_medicaid_chip),
      aptcEligible: isAptcEligibleMember({
        has_mec: input.has_mec,
        aptc_eligible: input.aptc_eligible,
        isMedicaidChip: medicaid.is_medicaid_chip,
      }),
    };
  });
  const eligibleMembers = household.members.filter((_, i) => screened[i]!.aptcEligible);
  const benchmark =
    override === undefined && eligibleMembers.length > 0 ? input.benchmark(eligibleMembers) : undefined;
  const aptc =
    eligibleMembers.length === 0 && override === undefined
      ? ({ eligible: false, aptc: 0, aptcExact: 0, reason: 'no-benchmark' } as const)
      : monthlyAptc({
          year,
          income: household.income,
          fplPercent: credit.fplPercent,
          benchmark,
          belowPovertyEligible: credit.treatedAsApplicable,
          override,
        });
  // CSR needs eligibility for the credit (45 CFR 155.305(g)(1)(i)(A)), not a positive amount.
  const creditAllowed =
    eligibleMembers.length > 0 &&
    applicablePercentage(year, forCsr.fplPercent, { belowPovertyEligible: forCsr.treatedAsApplicable })
      .eligible;
  const csr = csrFromOverride ?? csrLevel({ fplPercent: forCsr.fplPercent, aptcEligible: creditAllowed });
  return { people: screened, fpl, aptc, benchmark, csr };
}
