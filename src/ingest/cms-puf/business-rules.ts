import { write, type Write } from '../engine/writes.js';
import { Reject, missingFrom, type TabularFormat } from '../engine/tabular-format.js';
import { PLAN_ID, yesNo } from './values.js';
import { issuerRows } from './issuer-rows.js';
import { Preferred, cell, marketOf, marketRank, optionalCell } from './puf-cells.js';

const REQUIRED = [
  'BusinessYear',
  'StateCode',
  'IssuerId',
  'ProductId',
  'StandardComponentId',
  'DependentMaximumAgRule',
  'AgeDeterminationRule',
  'MinimumTobaccoFreeMonthsRule',
  'CohabitationRule',
];

const PRODUCT_ID = /^\d{5}[A-Z]{2}\d{3}$/;

interface Relationship {
  relationship: string;
  cohabitation_required: boolean;
}

/**
 * CohabitationRule, "Spouse,No;Child,Yes": the relationships to the subscriber the issuer accepts as
 * dependents, each with whether the dependent must live with the subscriber (HIOS Business Rules
 * template: "dependent relationships" and their cohabitation rule). A listed relationship is eligible
 * whatever its Yes/No.
 */
export function relationshipsOf(value: string): Relationship[] | Reject {
  const list: Relationship[] = [];
  for (const entry of value.split(';')) {
    if (entry.trim() === '') continue;
    const match = /^\s*([^,]+?)\s*,\s*(Yes|No)\s*$/i.exec(entry);
    if (!match) return new Reject(`CohabitationRule entry "${entry}" is not "Relationship,Yes|No"`);
    list.push({ relationship: match[1]!, cohabitation_required: match[2]!.toLowerCase() === 'yes' });
  }
  return list;
}

/** A whole number of months or years, null for "Not Applicable" or empty. */
function count(cells: Record<string, string>, column: string): number | null | Reject {
  const value = cell(cells, column);
  if (value === '' || /^not applicable$/i.test(value)) return null;
  return /^\d{1,3}$/.test(value) ? Number(value) : new Reject(`${column} "${value}" is not a number`);
}

/**
 * CMS Business Rules PUF: each issuer's enrollment rules (who may be a dependent, up to what age, how
 * age is determined, the tobacco look-back) per plan (StandardComponentId), else per product
 * (ProductId), else for the whole issuer (scope_id = the issuer id). Both the 2014–2016 layout
 * (rate-determination and family-size rules) and the current one (MaximumUnderageDependent). A rule
 * listed once per market keeps the individual market's row. Year: BusinessYear.
 */
export const businessRulesFormat: TabularFormat<Preferred<Write>> = {
  kind: 'business-rules',
  summary: 'CMS Business Rules PUF: dependent, age and tobacco look-back rules per plan or product',
  owns: [{ table: 'business_rules', scope: 'year' }],
  missingColumns: (header) => missingFrom(header, REQUIRED),
  startLoad: () => new Preferred(),
  start({ load: rules }) {
    return issuerRows(
      (cells, year, ids) => {
        const plan = cell(cells, 'StandardComponentId');
        const product = cell(cells, 'ProductId');
        if (plan !== '' && !PLAN_ID.test(plan)) {
          return new Reject(`StandardComponentId "${plan}" is not a 14-character HIOS plan id`);
        }
        if (product !== '' && !PRODUCT_ID.test(product)) {
          return new Reject(`ProductId "${product}" is not a 10-character HIOS product id`);
        }
        const scope = plan || product || ids.issuerId;
        if (scope.slice(0, 5) !== ids.issuerId || (scope.length > 5 && scope.slice(5, 7) !== ids.state)) {
          return new Reject(`${scope} is not a plan or product of issuer ${ids.issuerId} in ${ids.state}`);
        }
        const relationships = relationshipsOf(cell(cells, 'CohabitationRule'));
        if (relationships instanceof Reject) return relationships;
        const maxAge = count(cells, 'DependentMaximumAgRule');
        if (maxAge instanceof Reject) return maxAge;
        const tobacco = count(cells, 'MinimumTobaccoFreeMonthsRule');
        if (tobacco instanceof Reject) return tobacco;
        const market = marketOf(cells, true);
        if (market instanceof Reject) return market;
        const flag = (column: string) => {
          const value = yesNo(cells, column, -1);
          return value instanceof Reject ? value : value === -1 ? null : value === 1;
        };
        const partner = flag('DomesticPartnerAsSpouseIndicator');
        const sameSex = flag('SameSexPartnerAsSpouseIndicator');
        const dental = flag(cells.DentalOnlyPlan === undefined ? 'DentalOnly' : 'DentalOnlyPlan');
        for (const value of [partner, sameSex, dental]) if (value instanceof Reject) return value;

        const detail = {
          eligible_dependents: relationships.map((r) => r.relationship).filter((r) => r !== 'Self'),
          dependent_relationships: relationships,
          dependent_max_age: maxAge,
          age_determination_rule: optionalCell(cells, 'AgeDeterminationRule'),
          minimum_tobacco_free_months: tobacco,
          enrollee_contract_rate_determination: optionalCell(cells, 'EnrolleeContractRateDeterminationRule'),
          two_parent_family_max_dependents: optionalCell(cells, 'TwoParentFamilyMaxDependentsRule'),
          single_parent_family_max_dependents: optionalCell(cells, 'SingleParentFamilyMaxDependentsRule'),
          children_only_contract_max_children: optionalCell(cells, 'ChildrenOnlyContractMaxChildrenRule'),
          max_underage_dependents: optionalCell(cells, 'MaximumUnderageDependent'),
          domestic_partner_as_spouse: partner,
          same_sex_partner_as_spouse: sameSex,
          market,
          dental_only: dental,
        };
        rules.offer(`${year}|${ids.issuerId}|${scope}`, marketRank(market), () =>
          write('business_rules', {
            year,
            issuer_id: ids.issuerId,
            scope_id: scope,
            state: ids.state,
            detail: JSON.stringify(detail),
          }),
        );
        return [];
      },
      () => rules.take(),
    );
  },
};
