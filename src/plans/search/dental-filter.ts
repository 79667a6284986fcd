import type { MarketPlan } from '../market/county-market.js';
import type { DentalCoverage } from '../market/dental-coverage.js';

/**
 * The `child_dental_coverage` and `adult_dental_coverage` criteria of plan search: `true` keeps the plans
 * that cover that kind of dental care (the Benefits PUF rows they list, market/dental-coverage.ts);
 * `false` or absent asks nothing. Where no plan of the market lists benefits (no Benefits and Cost Sharing
 * PUF loaded), the criterion cannot be decided: it is not applied and the answer's `data_notes` says so
 * (docs/decisions.md#dental-coverage).
 */

export interface DentalAsked {
  child_dental_coverage?: boolean;
  adult_dental_coverage?: boolean;
}

type Kind = keyof DentalCoverage;

function asked(filter: DentalAsked | undefined): Kind[] {
  const kinds: Kind[] = [];
  if (filter?.child_dental_coverage === true) kinds.push('child');
  if (filter?.adult_dental_coverage === true) kinds.push('adult');
  return kinds;
}

/** Whether any plan of the market lists its benefits: otherwise dental coverage is unknown everywhere. */
const benefitsKnown = (plans: readonly MarketPlan[]) => plans.some((p) => p.dentalCoverage.child !== null);

/** The dental criteria as a test of a plan; undefined when none applies. */
export function dentalTest(
  plans: readonly MarketPlan[],
  filter: DentalAsked | undefined,
): ((plan: MarketPlan) => boolean) | undefined {
  const kinds = asked(filter);
  if (kinds.length === 0 || !benefitsKnown(plans)) return undefined;
  return (plan) => kinds.every((kind) => plan.dentalCoverage[kind] === true);
}

const FIELD: Record<Kind, string> = { child: 'child_dental_coverage', adult: 'adult_dental_coverage' };

/** What the answer's `data_notes.dental_coverage` says of the criteria asked, when the data cannot decide. */
export function dentalFilterNote(
  plans: readonly MarketPlan[],
  filter: DentalAsked | undefined,
): string | undefined {
  const kinds = asked(filter);
  if (kinds.length === 0 || plans.length === 0) return undefined;
  const fields = kinds.map((k) => FIELD[k]).join(' and ');
  if (!benefitsKnown(plans)) {
    return (
      `filter.${fields} not applied: no plan at the place lists its benefits (no Benefits and Cost ` +
      `Sharing PUF loaded for the year), so whether a plan covers dental care is unknown.`
    );
  }
  const unknown = plans.filter((p) => p.dentalCoverage.child === null).length;
  return unknown === 0
    ? undefined
    : `filter.${fields}: ${unknown} plan(s) at the place list no benefits (none in the loaded Benefits and ` +
        `Cost Sharing PUF), so their dental coverage is unknown and they were left out.`;
}
