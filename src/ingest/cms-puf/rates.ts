import { write, type Write } from '../engine/writes.js';
import { RATE_COLUMNS } from '../../plans/tables/puf-columns.js';
import { Reject, missingFrom, requiredColumns, type TabularFormat } from '../engine/tabular-format.js';
import { PLAN_ID, matching } from './values.js';
import { issuerRows, notAPlanOf, type RowIssuer } from './issuer-rows.js';
import { cell, dateCell } from './puf-cells.js';

/** Family-tier columns (rated by family composition where a state requires it, e.g. NY, VT) → JSON keys. */
const FAMILY_COLUMNS = [
  ['Couple', 'couple'],
  ['PrimarySubscriberAndOneDependent', 'primary_subscriber_and_one_dependent'],
  ['PrimarySubscriberAndTwoDependents', 'primary_subscriber_and_two_dependents'],
  ['PrimarySubscriberAndThreeOrMoreDependents', 'primary_subscriber_and_three_or_more_dependents'],
  ['CoupleAndOneDependent', 'couple_and_one_dependent'],
  ['CoupleAndTwoDependents', 'couple_and_two_dependents'],
  ['CoupleAndThreeOrMoreDependents', 'couple_and_three_or_more_dependents'],
] as const;

// A file without the tobacco or family-tier rates reads them as empty; the HIOS source columns go unused.
const REQUIRED = requiredColumns(RATE_COLUMNS, [
  'SourceName',
  'ImportDate',
  'IndividualTobaccoRate',
  ...FAMILY_COLUMNS.map(([column]) => column),
]);

/**
 * Age bands of the Rate PUF: single ages, "0-14" / "0-20" (the child band before and after PY2018's
 * age-curve change), "64 and over" (older files "65 and over"), and "Family Option" for family-tier rates.
 */
const AGE = /^(?:\d{1,2}|\d{1,2}-\d{1,2}|\d{1,2} and over|Family Option)$/;

/** A rate in dollars ("157", "172.72") → cents; null when empty; Reject when not an amount. */
function cents(cells: Record<string, string>, column: string): number | null | Reject {
  const value = cell(cells, column);
  if (value === '') return null;
  if (!/^\$?\d[\d,]*(?:\.\d+)?$/.test(value)) return new Reject(`${column} "${value}" is not an amount`);
  return Math.round(Number(value.replace(/[$,]/g, '')) * 100);
}

/** One Rate PUF row: a monthly premium of a plan, rating area, age band and tobacco use. */
function rateRow(cells: Record<string, string>, year: number, issuer: RowIssuer): Write[] | Reject {
  const planId = matching(cells, 'PlanId', PLAN_ID, 'a 14-character HIOS plan id');
  if (planId instanceof Reject) return planId;
  const notOurs = notAPlanOf(issuer, 'PlanId', planId);
  if (notOurs) return notOurs;
  const areaText = cell(cells, 'RatingAreaId');
  const area = /^Rating Area (\d{1,3})$/i.exec(areaText);
  if (!area || Number(area[1]) < 1) return new Reject(`RatingAreaId "${areaText}" is not "Rating Area N"`);
  const age = cell(cells, 'Age');
  if (!AGE.test(age)) return new Reject(`Age "${age}" is not an age band of the Rate PUF`);
  const tobacco = cell(cells, 'Tobacco');
  if (tobacco === '') return new Reject('Tobacco is empty');
  const effective = dateCell(cells, 'RateEffectiveDate');
  if (effective instanceof Reject) return effective;
  if (effective === null) return new Reject('RateEffectiveDate is empty');
  const expiration = dateCell(cells, 'RateExpirationDate');
  if (expiration instanceof Reject) return expiration;
  if (expiration === null) return new Reject('RateExpirationDate is empty');
  const individual = cents(cells, 'IndividualRate');
  if (individual instanceof Reject) return individual;
  if (individual === null) return new Reject('IndividualRate is empty');
  const tobaccoRate = cents(cells, 'IndividualTobaccoRate');
  if (tobaccoRate instanceof Reject) return tobaccoRate;
  const family: Record<string, number> = {};
  for (const [column, key] of FAMILY_COLUMNS) {
    const value = cents(cells, column);
    if (value instanceof Reject) return value;
    if (value !== null) family[key] = value;
  }
  return [
    write('plan_rates', {
      year,
      plan_id: planId,
      state: issuer.state,
      rating_area: Number(area[1]),
      age,
      tobacco,
      effective_date: effective,
      expiration_date: expiration,
      individual_rate: individual,
      tobacco_rate: tobaccoRate,
      family: Object.keys(family).length > 0 ? JSON.stringify(family) : null,
    }),
  ];
}

/**
 * CMS Rate PUF: monthly premiums per plan, rating area, age band and tobacco use (older years add
 * VersionNum, IssuerId2, FederalTIN, RowNumber; `NA` is an empty cell). Quarterly rows (effective dates
 * other than January 1) are kept with their dates. Year: BusinessYear.
 */
export const ratesFormat: TabularFormat = {
  kind: 'rates',
  summary: 'CMS Rate PUF (rate-puf.zip or .csv): premiums by plan, rating area, age and tobacco use',
  owns: [{ table: 'plan_rates', scope: 'year' }],
  missingColumns: (header) => missingFrom(header, REQUIRED),
  start: () => issuerRows(rateRow),
};
