import type { PlansDeps } from '../deps.js';
import type { HouseholdEligibility } from '../household/household-eligibility.js';
import type { SettledHousehold } from '../household/household.js';
import type { MarketContext } from './priced-context.js';
import type { CountyMarket } from '../market/county-market.js';
import type { DatasetInfo } from '../../storage/datasets.js';
import { PLAN_KINDS as KINDS } from '../tables/plan-kinds.js';
import { SAMPLE_COUNTIES } from '../sample/geography.js';

const PLAN_KINDS: readonly string[] = KINDS;

/**
 * `data_notes` of an answer (our addition to the CMS shape): what the loaded data could not tell, said once
 * for the whole answer instead of leaving zeros or empty lists to be read as facts. Absent when nothing is
 * missing.
 */
export interface DataNotes {
  /** Why the answer has no plans at all: none of the year's loaded plans is sold at the place. */
  plans?: string;
  /** Why no plan of the answer has a premium, and that the tax credit was therefore not computed. */
  premiums?: string;
  /** Why every plan's `benefits` is empty. */
  benefits?: string;
  /** Why no plan is flagged `is_ineligible`: no Business Rules PUF loaded for the year. */
  business_rules?: string;
  /** Why the credit may leave out the pediatric dental portion of its benchmark (quote/pediatric-dental.ts). */
  pediatric_dental?: string;
  /** Why the dental coverage criteria of a search were not applied, or left plans out (search/dental-filter.ts). */
  dental_coverage?: string;
  /** Why plans have no yearly out-of-pocket estimate (`oopc` -1: quote/yearly-cost.ts). */
  oopc?: string;
}

const loadedFor = (datasets: readonly DatasetInfo[], kind: string, year: number) =>
  datasets.some((d) => d.kind === kind && d.year === year);

/** True when the market has plans and none of them has a rate (no Rate PUF or landscape premium). */
export function unratedMarket(market: CountyMarket): boolean {
  return market.plans.length > 0 && market.plans.every((p) => p.rateSource === 'none');
}

/**
 * Why the market's plans have no rates at all: no Rate PUF loaded for the year, or one loaded that has no
 * rate for them in the place's rating area. Undefined when some plan has rates.
 */
export function missingRates(market: CountyMarket, datasets: readonly DatasetInfo[]): string | undefined {
  if (!unratedMarket(market)) return undefined;
  const { year, place, ratingArea } = market;
  return loadedFor(datasets, 'rates', year)
    ? `the Rate PUF loaded for ${year} has no rates for the plans sold in county ${place.countyfips} ` +
        `(${place.state} rating area ${ratingArea})`
    : `no Rate PUF is loaded for ${year} (openenroll ingest rates)`;
}

/**
 * The notes of a priced answer. `anyPremium`: some plan of the answer has a premium for the household;
 * `creditComputed`: the tax credit was worked out (or given by `aptc_override`).
 */
export function dataNotes(
  market: CountyMarket,
  datasets: readonly DatasetInfo[],
  anyPremium: boolean,
  creditComputed: boolean,
): DataNotes | undefined {
  const notes: DataNotes = {};
  if (market.plans.length === 0) notes.plans = noPlansHere(market, datasets);
  const rates = missingRates(market, datasets);
  if (rates && !anyPremium) {
    notes.premiums =
      `No premiums: ${rates}, so every plan has null premiums (see premium_unavailable) and the ` +
      `premium ranges are null` +
      (creditComputed ? '.' : '; the premium tax credit (APTC) was not computed (no SLCSP benchmark).');
  }
  if (market.plans.length > 0) notes.benefits = missingBenefits(datasets, market.year);
  return Object.values(notes).some((note) => note !== undefined) ? notes : undefined;
}

/**
 * Why nothing is flagged `is_ineligible`: no Business Rules PUF loaded for the year, while the household
 * has dependents whom an issuer's rules could refuse.
 */
export function missingBusinessRules(
  datasets: readonly DatasetInfo[],
  year: number,
  household: SettledHousehold,
): string | undefined {
  const enrolling = household.members.filter((m) => !m.input.has_mec);
  if (enrolling.length < 2 || loadedFor(datasets, 'business-rules', year)) return undefined;
  return (
    `No Business Rules PUF is loaded for ${year} (openenroll ingest business-rules): the issuers' rules on ` +
    'who may be a dependent (relationships, maximum age) are not checked, so no plan is flagged ' +
    'is_ineligible.'
  );
}

/** Why plans of `year` list no benefits (no Benefits and Cost Sharing PUF loaded); undefined when one is. */
export function missingBenefits(datasets: readonly DatasetInfo[], year: number): string | undefined {
  if (loadedFor(datasets, 'benefits', year)) return undefined;
  return (
    `No Benefits and Cost Sharing PUF is loaded for ${year} (openenroll ingest benefits): ` +
    'every plan lists no benefits; an empty list does not mean nothing is covered.'
  );
}

/** Why a place has no plans: the year's plans are sold elsewhere, or the year has only the sample. */
function noPlansHere(market: CountyMarket, datasets: readonly DatasetInfo[]): string {
  const { year, place } = market;
  const plans = datasets.filter((d) => d.year === year && PLAN_KINDS.includes(d.kind));
  const where = `county ${place.countyfips} (${place.state}, ZIP ${place.zipcode})`;
  if (plans.length > 0 && plans.every((d) => d.sample)) {
    return (
      `No plan of ${year} is sold in ${where}: ${year} has only the generated sample market, which ` +
      `covers Texas counties ${SAMPLE_COUNTIES.map((c) => c.fips).join(', ')} (GET /market-years)`
    );
  }
  return `No plan loaded for ${year} is sold in ${where} (the loaded files have none for this place).`;
}

/** The tax credit was not worked out for want of a benchmark, though someone is eligible for it. */
export function creditWithoutBenchmark(eligibility: HouseholdEligibility | undefined): boolean {
  return (
    eligibility !== undefined &&
    !eligibility.aptc.eligible &&
    eligibility.aptc.reason === 'no-benchmark' &&
    eligibility.people.some((p) => p.aptcEligible)
  );
}

/**
 * The notes of a priced answer whose plans `anyPremium` (some plan has a premium for the household), with
 * the notes only the caller knows (`more`: a search's dental criteria).
 */
export async function answerNotes(
  deps: PlansDeps,
  context: MarketContext & { eligibility?: HouseholdEligibility; benchmarkNote?: string },
  anyPremium: boolean,
  more: DataNotes = {},
): Promise<DataNotes | undefined> {
  const datasets = await deps.samples.datasets();
  const { market, household } = context;
  const notes: DataNotes = {
    ...dataNotes(market, datasets, anyPremium, !creditWithoutBenchmark(context.eligibility)),
    ...(market.plans.length > 0
      ? { business_rules: missingBusinessRules(datasets, market.year, household) }
      : {}),
    pediatric_dental: context.benchmarkNote,
    ...more,
  };
  const present = Object.entries(notes).filter(([, note]) => note !== undefined);
  return present.length > 0 ? (Object.fromEntries(present) as DataNotes) : undefined;
}
