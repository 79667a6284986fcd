import type { PlanRecord } from './records.js';

/** One plan of plans.json in one of its years, with how many providers the network files list for it. */
export interface PlanYear {
  plan: PlanRecord;
  year: number;
  issuerId: string;
  providers: number;
}

export const issuerOf = (planId: string) => planId.slice(0, 5);

/**
 * The plans a load's plans.json gives (for `--year` only, when given): what the load replaces, and what
 * the formulary and network files may name.
 */
export function createPlanYears(onlyYear: number | undefined) {
  const planYears = new Map<string, PlanYear>();
  /** Every plan id of plans.json, whatever its years. */
  const known = new Set<string>();
  const issuersByYear = new Map<number, Set<string>>();
  const key = (planId: string, year: number) => `${year}:${planId}`;

  return {
    add(plan: PlanRecord): void {
      known.add(plan.planId);
      const issuerId = issuerOf(plan.planId);
      for (const year of plan.years) {
        if (onlyYear !== undefined && year !== onlyYear) continue;
        planYears.set(key(plan.planId, year), { plan, year, issuerId, providers: 0 });
        issuersByYear.set(year, (issuersByYear.get(year) ?? new Set()).add(issuerId));
      }
    },

    get size() {
      return planYears.size;
    },

    all: () => [...planYears.values()],

    /** The issuers of each year: whose data of that year the load replaces. */
    issuersByYear: () => [...issuersByYear].map(([year, issuers]) => ({ year, issuerIds: [...issuers] })),

    /**
     * The plan years an entry of a formulary or network file names, or why the entry is refused: its plan
     * is not in plans.json, or not for a year the load replaces for its issuer. Years the load does not
     * replace for the issuer (a network file listing last year too, or `--year`) are left out.
     */
    listed(planId: string, years: number[]): PlanYear[] | string {
      if (!known.has(planId)) return `plan ${planId} is not in the plans file`;
      const listed: PlanYear[] = [];
      for (const year of years) {
        if (!issuersByYear.get(year)?.has(issuerOf(planId))) continue;
        const planYear = planYears.get(key(planId, year));
        if (!planYear) return `plan ${planId} is not in the plans file for ${year}`;
        listed.push(planYear);
      }
      return listed;
    },
  };
}

export type PlanYears = ReturnType<typeof createPlanYears>;
