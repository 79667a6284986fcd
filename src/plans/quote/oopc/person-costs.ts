import { perObject } from '../../../shared/memo.js';
import type { OopcPlanTerms } from './plan-terms.js';
import {
  BENEFIT_SERVICES,
  OOPC_SERVICES,
  isDrug,
  type BenefitService,
  type OopcService,
} from './services.js';
import type { ServiceUse } from './utilization.js';

/**
 * Step 1 of the model for one person type under one plan variant: each service's yearly allowed cost
 * (unit cost × units) and its cost-sharing rate, the share of the allowed cost the member pays once the
 * deductible no longer applies (`oopc.go` `initVars`; the workbook's "Solution Procedure", step 1).
 *
 * Services are then summed into eight classes by what limits they count toward: drug or medical, subject
 * to the deductible or not, counted toward the MOOP or not. Every service of a class is in the same
 * deductible and MOOP groups, so it is always in the same phase; its payments are linear in the spend
 * level; so the household's iteration needs only the class sums, and this work is done once per (plan
 * variant, person type) and kept.
 */

export const CLASS_DRUG = 1;
export const CLASS_DEDUCTIBLE = 2;
export const CLASS_MOOP = 4;
export const CLASSES = 8;
/** `op_other`'s class: medical, subject to the deductible and to the MOOP (CMS's fixed rule for it). */
export const OTHER_CLASS = CLASS_DEDUCTIBLE | CLASS_MOOP;

/** One priced line: a service, or a part of one (primary care visits before and after their copays). */
export interface ServiceLine {
  service: OopcService;
  /** `first-copays`: the primary care visits charged the copay alone. */
  part: 'all' | 'first-copays';
  cls: number;
  units: number;
  unitCost: number;
  /** Yearly allowed cost, $. */
  allowed: number;
  /** The member's share once past the deductible; NaN for `op_other`, which takes the household's. */
  rate: number;
  /** The share of the allowed cost that accrues to the deductible while it applies. */
  toDeductible: number;
}

export interface PersonCosts {
  /** Per class: allowed cost, the part that accrues to the deductible, and the member's cost sharing. */
  allowed: Float64Array;
  toDeductible: Float64Array;
  costSharing: Float64Array;
  /** `op_other`'s allowed cost (in class `OTHER_CLASS`; its rate is the household's average). */
  other: number;
  /** Allowed cost and cost sharing of every line but `op_other`: the household average is built from them. */
  ratedAllowed: number;
  ratedCostSharing: number;
  /** Allowed cost of the free primary care visits (in the total allowed, paid by no one's limits). */
  freeCare: number;
}

export interface CostOptions {
  /** CMS's `ACMult`: scales every unit cost (1 from market year 2017 in CMS's code). */
  allowedCostMultiplier: number;
}

const SERVICE_INDEX = new Map(OOPC_SERVICES.map((s, i) => [s, i]));
const IP_PROF = SERVICE_INDEX.get('ip_prof')!;

function classOf(service: OopcService, deductible: boolean, moop: boolean): number {
  return (isDrug(service) ? CLASS_DRUG : 0) | (deductible ? CLASS_DEDUCTIBLE : 0) | (moop ? CLASS_MOOP : 0);
}

/** Step 1, into class sums; with `lines`, each priced line is also kept there (for a breakdown). */
function compile(
  terms: OopcPlanTerms,
  use: ServiceUse,
  options: CostOptions,
  lines?: ServiceLine[],
): PersonCosts {
  const costs: PersonCosts = {
    allowed: new Float64Array(CLASSES),
    toDeductible: new Float64Array(CLASSES),
    costSharing: new Float64Array(CLASSES),
    other: 0,
    ratedAllowed: 0,
    ratedCostSharing: 0,
    freeCare: 0,
  };
  const add = (line: ServiceLine) => {
    lines?.push(line);
    const c = line.cls;
    costs.allowed[c] = costs.allowed[c]! + line.allowed;
    costs.toDeductible[c] = costs.toDeductible[c]! + line.allowed * line.toDeductible;
    if (line.service === 'op_other') {
      costs.other += line.allowed;
      return;
    }
    costs.costSharing[c] = costs.costSharing[c]! + line.allowed * line.rate;
    costs.ratedAllowed += line.allowed;
    costs.ratedCostSharing += line.rate * line.allowed;
  };
  OOPC_SERVICES.forEach((service, i) => {
    const unitCost = options.allowedCostMultiplier * use.unitCosts[i]!;
    let units = use.units[i]!;
    if (service === 'op_other') {
      add({
        service,
        part: 'all',
        cls: OTHER_CLASS,
        units,
        unitCost,
        allowed: unitCost * units,
        rate: NaN,
        toDeductible: 1,
      });
      return;
    }
    const t = terms.services[service as BenefitService];
    if (service === 'op_primcare' && terms.primaryCareFreeVisits > 0) {
      const free = Math.min(units, terms.primaryCareFreeVisits);
      units -= free;
      costs.freeCare += free * unitCost;
    }
    const deductible = t.covered && t.rule.deductible;
    const moop = t.covered && t.rule.moop;
    // Primary care visits charged their copay before the deductible applies to the later ones: a line of
    // their own, copay only and outside the deductible (docs/decisions.md#oopc-method).
    if (service === 'op_primcare' && t.covered && deductible && terms.primaryCareCopaysBeforeDeductible > 0) {
      const first = Math.min(units, terms.primaryCareCopaysBeforeDeductible);
      units -= first;
      const rate = unitCost > 0 ? Math.min(1, t.copay / unitCost) : 0;
      const cls = classOf(service, false, moop);
      add({
        service,
        part: 'first-copays',
        cls,
        units: first,
        unitCost,
        allowed: unitCost * first,
        rate,
        toDeductible: 1,
      });
    }
    let copay = t.covered && t.rule.copay ? t.copay : 0;
    let coinsurance = !t.covered ? 1 : t.rule.coinsurance ? t.coinsurance : 0;
    if (service === 'ip_fac' && t.copayPer === 'stay') {
      // A copay per stay, charged per day: × stays (ip_prof's admissions) ÷ days.
      copay = units > 0 ? (copay * use.units[IP_PROF]!) / units : 0;
    }
    if (service === 'rx_specialty' && unitCost > 0 && terms.specialtyDrugMaxCoinsurance !== null) {
      coinsurance = Math.min(coinsurance, terms.specialtyDrugMaxCoinsurance / unitCost);
    }
    let rate = unitCost > 0 ? (copay + coinsurance * unitCost) / unitCost : 0;
    const maxDays = terms.inpatientCopayMaxDays;
    if (
      service === 'ip_fac' &&
      t.copayPer === 'day' &&
      maxDays !== null &&
      maxDays < units &&
      unitCost * units > 0
    ) {
      // Days past the maximum carry no copay.
      rate -= ((units - maxDays) * copay) / (unitCost * units);
    }
    rate = Math.min(rate, 1);
    const toDeductible = t.rule.copayBeforeDeductible && t.covered ? 1 - rate : 1;
    const cls = classOf(service, deductible, moop);
    add({ service, part: 'all', cls, units, unitCost, allowed: unitCost * units, rate, toDeductible });
  });
  return costs;
}

/** Step 1 line by line, worked out afresh: what a breakdown by service reads. */
export function personLines(terms: OopcPlanTerms, use: ServiceUse, options: CostOptions): ServiceLine[] {
  const lines: ServiceLine[] = [];
  compile(terms, use, options, lines);
  return lines;
}

const classes = perObject<OopcPlanTerms, 0, readonly number[]>();

/** The classes a plan's services can fall in (a class no service falls in never counts toward a limit). */
export function termClasses(terms: OopcPlanTerms): readonly number[] {
  return classes(terms, 0, () => {
    const used = new Set<number>([OTHER_CLASS]);
    for (const service of BENEFIT_SERVICES) {
      const t = terms.services[service];
      used.add(classOf(service, t.covered && t.rule.deductible, t.covered && t.rule.moop));
      // The primary care visits charged their copay before the deductible (compile, below).
      if (service === 'op_primcare' && t.covered) used.add(classOf(service, false, t.rule.moop));
    }
    return [...used].sort((a, b) => a - b);
  });
}

const kept = perObject<OopcPlanTerms, ServiceUse, PersonCosts>(512);

/**
 * Step 1 for a person type under a plan variant, kept while the terms object lives (per use object: a
 * table row is one object for the life of the process). Other multipliers than 1 are worked out afresh.
 */
export function personCosts(terms: OopcPlanTerms, use: ServiceUse, options: CostOptions): PersonCosts {
  if (options.allowedCostMultiplier !== 1) return compile(terms, use, options);
  return kept(terms, use, () => compile(terms, use, options));
}
