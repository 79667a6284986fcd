import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { relationshipsOf } from '../../../src/ingest/cms-puf/business-rules.js';
import { ingest, sharedData, skipWithoutSharedData } from '../../helpers/shared-data.js';
import { failedIngest, ingestSuite, rejectLines } from '../../helpers/ingest-suite.js';

const FILE = 'marketplace_puf/legacy_2014/Business_Rules_PUF_2014.csv';
const suite = ingestSuite('business-rules');

async function rules(year: number, issuerId: string, scopeId: string) {
  const row = await suite.storage.db
    .selectFrom('business_rules')
    .selectAll()
    .where('year', '=', year)
    .where('issuer_id', '=', issuerId)
    .where('scope_id', '=', scopeId)
    .executeTakeFirstOrThrow();
  return { ...row, detail: JSON.parse(row.detail) as Record<string, unknown> };
}

describe('business-rules: the CohabitationRule cell', () => {
  it('lists the accepted dependent relationships with their cohabitation requirement', () => {
    assert.deepEqual(relationshipsOf('Spouse,No;Child,Yes'), [
      { relationship: 'Spouse', cohabitation_required: false },
      { relationship: 'Child', cohabitation_required: true },
    ]);
    assert.deepEqual(relationshipsOf(''), []);
  });
});

const realFile = skipWithoutSharedData(FILE);

describe('business-rules: the real PY2014 Business Rules PUF', { skip: realFile }, () => {
  it('stores one rule set per plan, product or issuer: 2,103 rows, 1,953 scopes', async () => {
    const summary = await ingest(suite.storage, 'business-rules', [sharedData(FILE)]);
    assert.equal(summary.read, 2103);
    assert.equal(summary.rejectedCount, 0);
    assert.deepEqual(summary.years, [2014]);
    assert.equal(await suite.count('business_rules', 2014), 1953);
  });

  it('keeps a plan’s rules as the PUF states them', async () => {
    const { state, detail } = await rules(2014, '82285', '82285AL0010006');
    assert.equal(state, 'AL');
    assert.deepEqual(detail.eligible_dependents, [
      'Spouse',
      'Adopted Child',
      'Foster Child',
      'Ward',
      'Stepson or Stepdaughter',
      'Child',
      'Life Partner',
    ]);
    assert.equal(detail.dependent_max_age, 26);
    assert.equal(detail.age_determination_rule, 'Age on effective date');
    assert.equal(detail.minimum_tobacco_free_months, null, '"Not Applicable"');
    assert.equal(detail.two_parent_family_max_dependents, '3 or more');
    assert.equal(detail.domestic_partner_as_spouse, true);
  });

  it('keys issuer-wide rules by the issuer id, and keeps the individual market’s row of a repeated scope', async () => {
    const issuer = await rules(2014, '23307', '23307');
    assert.equal(issuer.detail.minimum_tobacco_free_months, 6);
    assert.deepEqual(issuer.detail.eligible_dependents, [
      'Spouse',
      'Adopted Child',
      'Stepson or Stepdaughter',
      'Child',
      'Dependent on a Minor Dependent',
    ]);
    // 38344 lists its issuer-wide rules three times: HIOS (no market), OPM Individual (tobacco 6), OPM SHOP.
    const premera = await rules(2014, '38344', '38344');
    assert.equal(premera.detail.market, 'Individual');
    assert.equal(premera.detail.minimum_tobacco_free_months, 6);
    assert.equal(premera.detail.dependent_max_age, 25);
  });

  it('re-running replaces the year', async () => {
    await ingest(suite.storage, 'business-rules', [sharedData(FILE)]);
    assert.equal(await suite.count('business_rules', 2014), 1953);
  });
});

// Lines of the PY2026 Business Rules PUF as CMS publishes it (MaximumUnderageDependent; no family-size rules).
const CURRENT = [
  'BusinessYear,StateCode,IssuerId,SourceName,ImportDate,MedicalDentalBoth,ProductId,StandardComponentId,MedicalDentalIndicator,MaximumUnderageDependent,DependentMaximumAgRule,AgeDeterminationRule,MinimumTobaccoFreeMonthsRule,CohabitationRule,MarketCoverage,DentalOnlyPlan',
  '2026,AK,38344,HIOS,2026-07-23,Both,38344AK106,38344AK1060001,Medical,3,25,Age on effective date,6,"Brother or Sister,No;Child,No;Collateral Dependent,No;Ex-Spouse,No;Foster Child,No;Grandson or Granddaughter,No;Life Partner,No;Nephew or Niece,No;Other Relationship,No;Other Relative,No;Self,Yes;Sponsored Dependent,No;Spouse,No;Stepson or Stepdaughter,No;Ward,No",Individual,No',
  '2026,AL,28725,HIOS,2025-10-15,Dental,28725AL010,28725AL0100003,Dental,3,Not Applicable,Age on effective date,Not Applicable,"Child,No;Foster Child,No;Life Partner,Yes;Self,Yes;Spouse,Yes;Stepson or Stepdaughter,No;Ward,No",Individual,Yes',
];

describe('business-rules: the current layout', () => {
  it('reads MaximumUnderageDependent and prefers the plan id to the product id', async () => {
    const summary = await ingest(suite.storage, 'business-rules', [
      suite.file('business-rules-puf.csv', CURRENT.join('\n')),
    ]);
    assert.equal(summary.rejectedCount, 0);
    const moda = await rules(2026, '38344', '38344AK1060001');
    assert.equal(moda.detail.max_underage_dependents, '3');
    assert.equal(moda.detail.minimum_tobacco_free_months, 6);
    assert.equal(moda.detail.dental_only, false);
    assert.ok((moda.detail.eligible_dependents as string[]).includes('Ex-Spouse'));
    assert.ok(!(moda.detail.eligible_dependents as string[]).includes('Self'));
    const dental = await rules(2026, '28725', '28725AL0100003');
    assert.equal(dental.detail.dependent_max_age, null);
    assert.equal(dental.detail.dental_only, true);
  });

  it('fails on bad rows with file:line and keeps the previous data', async () => {
    const lines = [
      ...CURRENT,
      '2026,AK,38344,HIOS,2026-07-23,Both,38344AK106,38344AK10600,Medical,3,25,Age on effective date,6,,Individual,No',
      '2026,AK,38344,HIOS,2026-07-23,Both,38344AK106,38344AK1060002,Medical,3,twenty-six,Age on effective date,6,,Individual,No',
      '2026,AK,38344,HIOS,2026-07-23,Both,38344AK106,38344AK1060003,Medical,3,26,Age on effective date,6,"Spouse;Child,No",Individual,No',
      '2026,AK,38344,HIOS,2026-07-23,Both,38344AK106,12345AK1060003,Medical,3,26,Age on effective date,6,,Individual,No',
    ];
    const file = suite.file('bad-rules.csv', lines.join('\n'));
    const error = await failedIngest(suite.storage, 'business-rules', [file]);
    assert.deepEqual(rejectLines(error.summary), [
      'bad-rules.csv:4: StandardComponentId "38344AK10600" is not a 14-character HIOS plan id',
      'bad-rules.csv:5: DependentMaximumAgRule "twenty-six" is not a number',
      'bad-rules.csv:6: CohabitationRule entry "Spouse" is not "Relationship,Yes|No"',
      'bad-rules.csv:7: 12345AK1060003 is not a plan or product of issuer 38344 in AK',
    ]);
    assert.equal(await suite.count('business_rules', 2026), 2);
  });
});
