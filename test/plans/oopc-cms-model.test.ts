import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { CMS_COST_SHARING_RULES, costSharingRule } from '../../src/plans/quote/oopc/cost-sharing-rules.js';
import { breakdown, estimate } from '../../src/plans/quote/oopc/estimate.js';
import type { OopcPlanTerms, ServiceTerms } from '../../src/plans/quote/oopc/plan-terms.js';
import { BENEFIT_SERVICES, SERVICE_BENEFITS, isDrug } from '../../src/plans/quote/oopc/services.js';
import {
  ageGroupOf,
  levelDecile,
  tableUse,
  type Sex,
  type UtilizationLevel,
} from '../../src/plans/quote/oopc/utilization.js';
import { OOPC_TABLE_SERVICES, OOPC_UTILIZATION_2014 } from '../../src/plans/tables/oopc-utilization-2014.js';
import { sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';

/**
 * Our OOPC tables and engine against CMS's model, as extracted from CMSgov/oopc-calculations (the workbook
 * of commit febbfe5 and oopc.go) into ../shared/data/oopc: this suite reads those files in place.
 */

const DIR = 'oopc';
const files = ['utilization-2014.csv', 'services.csv', 'cost-sharing-rules.csv', 'decile-mapping.csv'];
const skip = skipWithoutSharedData(...files.map((f) => `${DIR}/${f}`), `${DIR}/golden-example.json`);

/** A small CSV reader for these files (quoted cells with commas, no line breaks inside cells). */
function csv(name: string): Record<string, string>[] {
  const lines = readFileSync(sharedData(`${DIR}/${name}`), 'utf8')
    .trim()
    .split(/\r?\n/);
  const split = (line: string) => {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') {
        cells.push(cell);
        cell = '';
      } else cell += ch;
    }
    cells.push(cell);
    return cells;
  };
  const header = split(lines[0]!);
  return lines.slice(1).map((line) => {
    const cells = split(line);
    return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
  });
}

describe('the shipped tables are CMS’s', { skip }, () => {
  test('the utilization table equals the workbook extraction row for row (3,888 rows)', () => {
    const rows = csv('utilization-2014.csv');
    assert.equal(rows.length, 3888);
    let at = 0;
    for (const [ageGroup, sex, decile, people, values] of OOPC_UTILIZATION_2014) {
      OOPC_TABLE_SERVICES.forEach((service, i) => {
        const row = rows[at++]!;
        const where = `${row.source_row}: ${ageGroup} ${sex} ${decile} ${service}`;
        assert.deepEqual(
          [row.service, row.age_group, row.sex, Number(row.decile), Number(row.n_obs)],
          [service, ageGroup, sex, decile, people],
          where,
        );
        // Same doubles, not merely close: both are the cell's stored value.
        assert.equal(values[i * 2], Number(row.unit_cost), where);
        assert.equal(values[i * 2 + 1], Number(row.units_per_member_year), where);
      });
    }
    assert.equal(at, rows.length);
  });

  test('each service reads the benefit oopc.go reads', () => {
    const rows = csv('services.csv').filter((r) => r.in_oopc_go === 'yes');
    assert.deepEqual(
      rows.map((r) => r.service),
      [...BENEFIT_SERVICES, 'op_other'].sort((a, b) => (a < b ? -1 : 1)),
    );
    for (const row of rows) {
      if (row.service === 'op_other') continue;
      assert.equal(SERVICE_BENEFITS[row.service as keyof typeof SERVICE_BENEFITS], row.benefit_name);
      assert.equal(isDrug(row.service as 'rx_generic') ? 'drug' : 'medical', row.type, row.service);
    }
  });

  test('the cost-sharing rules equal csRulesMap entry for entry, in source order', () => {
    const rows = csv('cost-sharing-rules.csv');
    assert.equal(CMS_COST_SHARING_RULES.length, rows.length);
    const flag = (v: string) => v === 'true';
    rows.forEach((row, i) => {
      assert.deepEqual(CMS_COST_SHARING_RULES[i], [
        row.copay_options,
        row.coinsurance_options,
        flag(row.copay_applies!),
        flag(row.coinsurance_applies!),
        flag(row.subject_to_deductible!),
        flag(row.subject_to_moop!),
        flag(row.copay_before_deductible!),
      ]);
      const { rule, source } = costSharingRule(row.copay_options || null, row.coinsurance_options || null);
      assert.equal(source, 'table');
      assert.equal(rule.copayBeforeDeductible, flag(row.copay_before_deductible!), row.go_key);
    });
  });

  test('Low / Medium / High → age group and decile as oopc.go maps them (market years 2017 on)', () => {
    const rows = csv('decile-mapping.csv').filter((r) => r.market_year_from === '2017');
    assert.equal(rows.length, 42);
    for (const row of rows) {
      const ages = [Number(row.age_min), row.age_max === '' ? 99 : Number(row.age_max)];
      for (const age of ages) {
        const group = ageGroupOf(age);
        assert.equal(group, row.age_group, `age ${age}`);
        const decile = levelDecile(row.utilization_level as UtilizationLevel, 2025, group, row.sex as Sex);
        assert.equal(`Decile ${decile}`, row.decile, `${row.utilization_level} ${row.sex} ${age}`);
      }
    }
    // Before 2017 Low is decile 3 for everyone; our one table has no decile 3 for males 18–25, whose lowest
    // row (decile 4) stands for deciles 1–4.
    assert.equal(levelDecile('Low', 2016, '18-25', 'M'), 3);
    assert.equal(tableUse('18-25', 'M', 3), tableUse('18-25', 'M', 4));
  });
});

interface GoldenService {
  service: string;
  copay: number;
  coinsurance: number;
  deductible_applies: string;
  subject_to_moop: string;
  cs_before_after_deductible: string;
}

interface GoldenLine {
  person: number;
  service: string;
  units: number;
  unit_cost: number;
  total_allowed: number;
  ben_payment_deductible: number;
  ben_payment_cs: number;
  plan_payment_cs_phase: number;
  plan_payment_moop_phase: number;
  cs_rate: number;
}

describe('the workbook’s worked example: two people 55+, Medium', { skip }, () => {
  const golden = skip
    ? undefined
    : (JSON.parse(readFileSync(sharedData(`${DIR}/golden-example.json`), 'utf8')) as {
        inputs: { plan: { services: GoldenService[] } };
        expected: {
          oopc_rounded_to_cents: number;
          total_allowed_rounded_to_cents: number;
          totals: { all_benefit_cs_rate: number };
          per_person_service: GoldenLine[];
        };
      });

  /** The plan of the example: combined MOOP $3,500 per person and $9,400 for the family, no deductible. */
  function terms(service: (s: GoldenService) => ServiceTerms): OopcPlanTerms {
    const byName = new Map(golden!.inputs.plan.services.map((s) => [s.service, s]));
    return {
      services: Object.fromEntries(
        BENEFIT_SERVICES.map((s) => [s, service(byName.get(s)!)]),
      ) as OopcPlanTerms['services'],
      deductibles: { individual: {}, familyPerPerson: {}, family: {} },
      moops: {
        individual: { combined: 3500 },
        familyPerPerson: { combined: 3500 },
        family: { combined: 9400 },
      },
      specialtyDrugMaxCoinsurance: null,
      inpatientCopayMaxDays: null,
      primaryCareFreeVisits: 0,
      primaryCareCopaysBeforeDeductible: 0,
    };
  }

  /** The workbook's own inputs: copay and coinsurance amounts and its flags, cell by cell. */
  const workbookTerms = () =>
    terms((s) => ({
      covered: true,
      rule: {
        copay: true,
        coinsurance: true,
        deductible: s.deductible_applies === 'yes',
        moop: s.subject_to_moop === 'yes',
        copayBeforeDeductible: s.cs_before_after_deductible === 'before',
      },
      copay: s.copay,
      coinsurance: s.coinsurance,
      copayPer: s.service === 'ip_fac' ? 'stay' : 'unit',
    }));

  const household = [tableUse('55+', 'M', 5.5), tableUse('55+', 'F', 5.5)];

  test('OOPC $544.60 and allowed $6,737.76, to the cent', () => {
    const result = estimate(workbookTerms(), household)!;
    assert.equal(result.oopc, golden!.expected.oopc_rounded_to_cents);
    assert.equal(result.oopc, 544.6);
    assert.equal(result.allowed, golden!.expected.total_allowed_rounded_to_cents);
    assert.equal(result.allowed, 6737.76);
  });

  test('every person × service row of the workbook’s DataDump, to the cent', () => {
    const { result, lines } = breakdown(workbookTerms(), household)!;
    const rows = golden!.expected.per_person_service.filter((r) => r.service !== 'op_er_prof');
    assert.equal(lines.length, rows.length);
    const toCents = (x: number) => Math.round(x * 100);
    for (const row of rows) {
      const line = lines.find((l) => l.person === row.person - 1 && l.service === row.service)!;
      const where = `person ${row.person} ${row.service}`;
      assert.equal(toCents(line.allowed), toCents(row.total_allowed), where);
      assert.equal(toCents(line.paidToDeductible), toCents(row.ben_payment_deductible), where);
      assert.equal(toCents(line.paidCostSharing), toCents(row.ben_payment_cs), where);
      assert.equal(toCents(line.planCostSharingPhase), toCents(row.plan_payment_cs_phase), where);
      assert.equal(toCents(line.planMoopPhase), toCents(row.plan_payment_moop_phase), where);
      assert.ok(Math.abs(line.rate - row.cs_rate) < 1e-12, where);
    }
    assert.ok(Math.abs(result.averageRate - golden!.expected.totals.all_benefit_cs_rate) < 1e-12);
  });

  test('posed as PUF phrases (a bare copay with "No Charge" coinsurance), the same $544.60', () => {
    const phrased = terms((s) => {
      const { rule } =
        s.copay > 0 ? costSharingRule(null, 'No Charge') : costSharingRule('No Charge', 'No Charge');
      return {
        covered: true,
        rule,
        copay: s.copay,
        coinsurance: 0,
        copayPer: s.service === 'ip_fac' ? 'stay' : 'unit',
      };
    });
    assert.equal(estimate(phrased, household)!.oopc, 544.6);
  });
});
