import { OOPC_TABLE_SERVICES, OOPC_UTILIZATION_2014 } from '../../tables/oopc-utilization-2014.js';
import { OOPC_SERVICES, type OopcService } from './services.js';

/**
 * Who a person is to the utilization table: age group, sex and spending decile, and what such a person
 * uses in a year. CMS's rules (`oopc.go`, https://github.com/CMSgov/oopc-calculations): Low = decile 3,
 * Medium = decile 5.5 (the mean of deciles 5 and 6), High = decile 10, and from market year 2017 Low =
 * decile 4 for males 18–25, whose table starts there.
 */

export type Sex = 'F' | 'M';
export type UtilizationLevel = 'Low' | 'Medium' | 'High';

/** The table's seven age groups (CMS's grouping from market year 2017). */
export const AGE_GROUPS = ['0-5', '6-17', '18-25', '26-34', '35-44', '45-54', '55+'] as const;
export type AgeGroup = (typeof AGE_GROUPS)[number];

/** The age group of an age in whole years (`ageGroup` of `oopc.go`, 2017 on). */
export function ageGroupOf(age: number): AgeGroup {
  if (age < 6) return '0-5';
  if (age < 18) return '6-17';
  if (age < 26) return '18-25';
  if (age < 35) return '26-34';
  if (age < 45) return '35-44';
  if (age < 55) return '45-54';
  return '55+';
}

/** The decile CMS prices a person of `level` at. */
export function levelDecile(level: UtilizationLevel, year: number, ageGroup: AgeGroup, sex: Sex): number {
  if (level === 'Medium') return 5.5;
  if (level === 'High') return 10;
  return year > 2016 && ageGroup === '18-25' && sex === 'M' ? 4 : 3;
}

/**
 * A person's yearly use of each service of `OOPC_SERVICES`, in its order: mean allowed dollars per unit
 * and units per year. The engine keeps its per-plan work per use object, so a table row is one object.
 */
export interface ServiceUse {
  /** Names the use in caches: `55+|M|5.5` for a table row. */
  readonly key: string;
  readonly unitCosts: Float64Array;
  readonly units: Float64Array;
}

/** Index of each engine service in the table's rows (which also list the unused `op_er_prof`). */
const COLUMN = OOPC_SERVICES.map((s) => (OOPC_TABLE_SERVICES as readonly string[]).indexOf(s));

const uses = new Map<string, ServiceUse>();
/** Deciles each (age group, sex) has a row for, ascending. */
const deciles = new Map<string, number[]>();

for (const [ageGroup, sex, decile, , values] of OOPC_UTILIZATION_2014) {
  const key = `${ageGroup}|${sex}|${decile}`;
  const unitCosts = new Float64Array(OOPC_SERVICES.length);
  const units = new Float64Array(OOPC_SERVICES.length);
  COLUMN.forEach((column, i) => {
    unitCosts[i] = values[column * 2]!;
    units[i] = values[column * 2 + 1]!;
  });
  uses.set(key, { key, unitCosts, units });
  const list = deciles.get(`${ageGroup}|${sex}`) ?? [];
  list.push(decile);
  deciles.set(`${ageGroup}|${sex}`, list);
}
for (const list of deciles.values()) list.sort((a, b) => a - b);

/**
 * The table row of a person type. A decile below the lowest row of its group is that row: the table pools
 * the low-spending deciles of some groups into their lowest row (males 18–25 start at decile 4, which
 * stands for deciles 1–4).
 */
export function tableUse(ageGroup: AgeGroup, sex: Sex, decile: number): ServiceUse {
  const list = deciles.get(`${ageGroup}|${sex}`)!;
  const row = decile < list[0]! ? list[0]! : decile;
  const use = uses.get(`${ageGroup}|${sex}|${row}`);
  if (!use) throw new RangeError(`no utilization row for ${ageGroup} ${sex} decile ${decile}`);
  return use;
}

/** A use built from per-service figures (tests and scenarios); services not named use nothing. */
export function serviceUse(
  key: string,
  figures: Partial<Record<OopcService, { unitCost: number; units: number }>>,
): ServiceUse {
  const unitCosts = new Float64Array(OOPC_SERVICES.length);
  const units = new Float64Array(OOPC_SERVICES.length);
  OOPC_SERVICES.forEach((service, i) => {
    unitCosts[i] = figures[service]?.unitCost ?? 0;
    units[i] = figures[service]?.units ?? 0;
  });
  return { key, unitCosts, units };
}
