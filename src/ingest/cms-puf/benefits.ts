import { write, type Write } from '../engine/writes.js';
import type { BenefitDetail } from '../../plans/store/plan-detail.js';
import { BENEFITS_COLUMNS } from '../../plans/tables/puf-columns.js';
import { Reject, missingFrom, requiredColumns, type TabularFormat } from '../engine/tabular-format.js';
import { PLAN_ID, VARIANT_ID, firstReject, matching, yesNo } from './values.js';
import { costSharingsOf } from './benefits-cost-sharing.js';
import { issuerRows, notAVariantOf, type RowIssuer } from './issuer-rows.js';
import { cell } from './puf-cells.js';

const REQUIRED = requiredColumns(BENEFITS_COLUMNS, [
  'SourceName',
  'ImportDate',
  'EHBVarReason',
  'IsExclFromInnMOOP',
  'IsExclFromOonMOOP',
]);

/**
 * The API's Benefit `type`: the PUF BenefitName upper-cased with every run of other characters collapsed
 * to `_` ("Inpatient Hospital Services (e.g., Hospital Stay)" → INPATIENT_HOSPITAL_SERVICES_E_G_HOSPITAL_STAY),
 * as live answers of the Marketplace API show.
 */
export function benefitType(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** IsCovered: "Covered" / "Not Covered"; older files leave it empty on some rows (not stated: not covered). */
function coveredOf(value: string): boolean | Reject {
  if (/^covered$/i.test(value)) return true;
  if (value === '' || /^not covered$/i.test(value)) return false;
  return new Reject(`IsCovered "${value}" is not Covered or Not Covered`);
}

/** One Benefits and Cost Sharing PUF row: a benefit of a plan variant with its cost sharing per tier. */
function benefitRow(cells: Record<string, string>, year: number, issuer: RowIssuer): Write[] | Reject {
  const planId = matching(cells, 'StandardComponentId', PLAN_ID, 'a 14-character HIOS plan id');
  const variantId = matching(cells, 'PlanId', VARIANT_ID, 'a plan variant id like 12345TX0010001-01');
  const ehb = yesNo(cells, 'IsEHB');
  const limited = yesNo(cells, 'QuantLimitOnSvc');
  const covered = coveredOf(cell(cells, 'IsCovered'));
  // Empty (or absent, in layouts without the column): the row does not say.
  const excluded = cell(cells, 'IsExclFromInnMOOP') === '' ? null : yesNo(cells, 'IsExclFromInnMOOP');
  const bad = firstReject(planId, variantId, ehb, limited, covered, excluded);
  if (bad) return bad;
  const plan = planId as string;
  const variant = variantId as string;
  const notOurs = notAVariantOf(issuer, plan, variant);
  if (notOurs) return notOurs;
  // Names carry stray tabs and quotes in some years.
  const name = cell(cells, 'BenefitName').replace(/[\t"]/g, '').trim();
  if (name === '') return new Reject('BenefitName is empty');
  const quantityText = cell(cells, 'LimitQty');
  const quantity = quantityText === '' ? null : Number(quantityText.replace(/,/g, ''));
  if (quantity !== null && !Number.isFinite(quantity)) {
    return new Reject(`LimitQty "${quantityText}" is not a number`);
  }
  const sharings = costSharingsOf(cells);
  if (sharings instanceof Reject) return sharings;
  const detail: BenefitDetail = {
    name,
    type: benefitType(name),
    covered: covered as boolean,
    explanation: cell(cells, 'Explanation'),
    exclusions: cell(cells, 'Exclusions'),
    has_limits: limited === 1,
    limit_unit: cell(cells, 'LimitUnit'),
    limit_quantity: quantity,
    cost_sharings: sharings,
    excluded_from_inn_moop: excluded === null ? null : excluded === 1,
  };
  return [
    write('plan_benefits', {
      year,
      variant_id: variant,
      plan_id: plan,
      name,
      covered: covered ? 1 : 0,
      is_ehb: ehb as number,
      detail: JSON.stringify(detail),
    }),
  ];
}

/**
 * CMS Benefits and Cost Sharing PUF: one row per plan variant and benefit with its copay and coinsurance
 * per network tier (older years add VersionNum, IssuerId2, StateCode2, RowNumber, IsStateMandate,
 * IsSubjToDedTier1/2, MinimumStay, which this reads past). Year: BusinessYear.
 */
export const benefitsFormat: TabularFormat = {
  kind: 'benefits',
  summary: 'CMS Benefits and Cost Sharing PUF (benefits-and-cost-sharing-puf.zip or .csv)',
  owns: [{ table: 'plan_benefits', scope: 'year' }],
  missingColumns: (header) => missingFrom(header, REQUIRED),
  start: () => issuerRows(benefitRow),
};
