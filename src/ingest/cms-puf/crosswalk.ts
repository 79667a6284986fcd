import { write } from '../engine/writes.js';
import { Reject, type TabularFormat } from '../engine/tabular-format.js';
import { stateOfFips, FIPS_COUNTY, STATE, ZIP5 } from '../geography/codes.js';
import { cell } from './puf-cells.js';

/**
 * The plan years of a crosswalk file, from its `PlanID_{N-1}` / `PlanID_N` columns (the column names
 * carry the years: PlanID_2025, PlanID_2026, AgeOffPlanID_2026, …).
 */
export function crosswalkYears(columns: Iterable<string>): { from: number; to: number } | undefined {
  const years: number[] = [];
  for (const name of columns) {
    const match = /^PlanID_(\d{4})$/.exec(name);
    if (match) years.push(Number(match[1]));
  }
  years.sort();
  if (years.length !== 2 || years[1] !== years[0]! + 1) return undefined;
  return { from: years[0]!, to: years[1]! };
}

/** A plan id cell: the 14-character standard component id; a variant suffix ("-01") is dropped. */
function planIdOf(cells: Record<string, string>, column: string, optional: boolean): string | null | Reject {
  const value = cell(cells, column);
  if (value === '' && optional) return null;
  const match = /^(\d{5}[A-Z]{2}\d{7})(?:-\d{2})?$/.exec(value);
  return match ? match[1]! : new Reject(`${column} "${value}" is not a 14-character HIOS plan id`);
}

function level(cells: Record<string, string>, column: string, max: number): number | Reject {
  const value = cell(cells, column);
  return /^\d+$/.test(value) && Number(value) <= max
    ? Number(value)
    : new Reject(`${column} "${value}" is not a code from 0 to ${max}`);
}

/**
 * CMS Plan ID Crosswalk PUF (PY N−1 → N): where each plan's enrollees are re-enrolled, per county or
 * ZIP. Stored under the earlier plan year N−1, found from the `PlanID_YYYY` column pair. CrosswalkLevel
 * 0–5 (0–3 same plan / plan / county / ZIP level mapping, 4–5 no re-enrollment option);
 * ReasonForCrosswalk is a numeric code.
 */
export const crosswalkFormat: TabularFormat = {
  kind: 'crosswalk',
  summary: 'CMS Plan ID Crosswalk PUF (PlanID_{N-1} → PlanID_N), stored under plan year N-1',
  owns: [{ table: 'crosswalks', scope: 'year' }],
  missingColumns(header) {
    const years = crosswalkYears(header);
    if (!years) return ['PlanID_<year>', 'PlanID_<year + 1>'];
    const required = ['State', 'FIPSCode', 'ZipCode', 'CrosswalkLevel', 'ReasonForCrosswalk'];
    return required.filter((name) => !header.includes(name));
  },
  start() {
    let years: { from: number; to: number } | undefined;
    const yearsOf = (cells: Record<string, string>) => (years ??= crosswalkYears(Object.keys(cells))!);
    return {
      yearOf: (cells) => yearsOf(cells).from,
      row(cells, year) {
        const { from, to } = yearsOf(cells);
        const state = cell(cells, 'State');
        if (!STATE.test(state)) return new Reject(`State "${state}" is not a two-letter state code`);
        const oldPlan = planIdOf(cells, `PlanID_${from}`, false);
        if (oldPlan instanceof Reject) return oldPlan;
        if (oldPlan!.slice(5, 7) !== state)
          return new Reject(`PlanID_${from} ${oldPlan} is not a plan of ${state}`);
        const newPlan = planIdOf(cells, `PlanID_${to}`, true);
        if (newPlan instanceof Reject) return newPlan;
        const ageOff = planIdOf(cells, `AgeOffPlanID_${to}`, true);
        if (ageOff instanceof Reject) return ageOff;
        const fips = cell(cells, 'FIPSCode');
        if (!FIPS_COUNTY.test(fips))
          return new Reject(`FIPSCode "${fips}" is not a 5-digit county FIPS code`);
        if (stateOfFips(fips.slice(0, 2)) !== state)
          return new Reject(`FIPSCode ${fips} is not a county of ${state}`);
        const zip = cell(cells, 'ZipCode');
        if (!ZIP5.test(zip))
          return new Reject(`ZipCode "${zip}" is not a 5-digit ZIP code (00000 for the county)`);
        const crosswalkLevel = level(cells, 'CrosswalkLevel', 5);
        if (crosswalkLevel instanceof Reject) return crosswalkLevel;
        const reason = level(cells, 'ReasonForCrosswalk', 99);
        if (reason instanceof Reject) return reason;
        return [
          write('crosswalks', {
            year,
            state,
            old_plan_id: oldPlan as string,
            fips,
            zip,
            level: crosswalkLevel,
            reason,
            new_plan_id: newPlan,
            ageoff_plan_id: ageOff,
          }),
        ];
      },
    };
  },
};
