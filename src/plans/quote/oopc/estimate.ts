import { roundHalfAwayFromZero } from '../../pricing/money.js';
import { CLASSES, personCosts, personLines, type CostOptions } from './person-costs.js';
import type { OopcPlanTerms } from './plan-terms.js';
import type { OopcService } from './services.js';
import { spendLevels, type DeductibleAccrual, type SpendResult } from './spend-levels.js';
import type { ServiceUse } from './utilization.js';

/**
 * A household's estimated yearly out-of-pocket cost under one plan variant: step 1 per person type (kept
 * per variant, `person-costs.ts`), then the spend-level iteration over the household (`spend-levels.ts`).
 * Money is worked in floating dollars as the model does; the result is rounded once, to the cent, half away
 * from zero (the plan API's rule, `pricing/money.ts`).
 */

export interface EstimateOptions {
  accrual?: DeductibleAccrual;
  /** CMS's `ACMult` (default 1: unit costs as the table gives them, as CMS does from 2017). */
  allowedCostMultiplier?: number;
}

export interface Estimate {
  /** Dollars, rounded to the cent. */
  oopc: number;
  /** The household's yearly allowed cost, dollars, rounded to the cent. */
  allowed: number;
  iterations: number;
}

const cents = (dollars: number) => roundHalfAwayFromZero(dollars * 100) / 100;

function costOptions(options: EstimateOptions): CostOptions {
  return { allowedCostMultiplier: options.allowedCostMultiplier ?? 1 };
}

/** The iteration for a household, unrounded; undefined when it does not settle. */
export function spendResult(
  terms: OopcPlanTerms,
  uses: readonly ServiceUse[],
  options: EstimateOptions = {},
  spans?: Float64Array,
): SpendResult | undefined {
  const cost = costOptions(options);
  const persons = uses.map((use) => personCosts(terms, use, cost));
  return spendLevels(terms, persons, options.accrual, spans);
}

/** The estimate for a household (one use per member), or undefined when the model does not settle. */
export function estimate(
  terms: OopcPlanTerms,
  uses: readonly ServiceUse[],
  options: EstimateOptions = {},
): Estimate | undefined {
  const result = spendResult(terms, uses, options);
  if (!result) return undefined;
  return {
    oopc: cents(result.oopc),
    allowed: cents(result.allowed),
    iterations: result.iterations,
  };
}

/** What one person paid and what the plan paid for one service line over the year, $ (unrounded). */
export interface LineResult {
  person: number;
  service: OopcService;
  part: 'all' | 'first-copays';
  units: number;
  unitCost: number;
  allowed: number;
  rate: number;
  paidToDeductible: number;
  paidCostSharing: number;
  planCostSharingPhase: number;
  planMoopPhase: number;
}

/** The year service by service (the workbook's "DataDump"): for explanations and tests. */
export function breakdown(
  terms: OopcPlanTerms,
  uses: readonly ServiceUse[],
  options: EstimateOptions = {},
): { result: SpendResult; lines: LineResult[] } | undefined {
  const spans = new Float64Array(uses.length * CLASSES * 3);
  const result = spendResult(terms, uses, options, spans);
  if (!result) return undefined;
  const cost = costOptions(options);
  const lines: LineResult[] = [];
  uses.forEach((use, person) => {
    for (const line of personLines(terms, use, cost)) {
      const at = (person * CLASSES + line.cls) * 3;
      const [deductible, costSharing, moop] = [0, 1, 2].map((k) => spans[at + k]!);
      const rate = line.service === 'op_other' ? result.averageRate : line.rate;
      lines.push({
        person,
        service: line.service,
        part: line.part,
        units: line.units,
        unitCost: line.unitCost,
        allowed: line.allowed,
        rate,
        paidToDeductible: line.allowed * line.toDeductible * deductible!,
        paidCostSharing: line.allowed * ((1 - line.toDeductible) * deductible! + rate * costSharing!),
        planCostSharingPhase: line.allowed * (1 - rate) * costSharing!,
        planMoopPhase: line.allowed * moop!,
      });
    }
  });
  return { result, lines };
}
