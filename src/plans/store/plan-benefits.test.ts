import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gatherBenefits } from './plan-benefits.js';
import type { BenefitDetail, CostSharing, CsrVariant } from './plan-detail.js';

const sharing = (display: string): CostSharing => ({
  network_tier: 'In-Network',
  copay_amount: null,
  copay_options: null,
  coinsurance_rate: null,
  coinsurance_options: null,
  display_string: display,
});

const benefit = (explanation: string, display: string): BenefitDetail => ({
  name: 'Primary Care Visit to Treat an Injury or Illness',
  type: 'PRIMARY_CARE_VISIT_TO_TREAT_AN_INJURY_OR_ILLNESS',
  covered: true,
  explanation,
  exclusions: '',
  has_limits: false,
  limit_unit: '',
  limit_quantity: null,
  cost_sharings: [sharing(display)],
});

test('one benefit per name: cost sharings of every variant, each with its CSR; fields of the standard variant', () => {
  const csr = new Map<string, CsrVariant>([
    ['99999TX0010001-00', 'Non-Exchange variant'],
    ['99999TX0010001-01', 'Exchange variant (no CSR)'],
    ['99999TX0010001-06', '94% AV Level Silver Plan CSR'],
  ]);
  const rows = [
    { variant_id: '99999TX0010001-00', detail: JSON.stringify(benefit('off exchange', '$40')) },
    { variant_id: '99999TX0010001-01', detail: JSON.stringify(benefit('standard', '$40')) },
    { variant_id: '99999TX0010001-06', detail: JSON.stringify(benefit('94%', '$5')) },
    { variant_id: '99999TX0010001-09', detail: JSON.stringify(benefit('unknown', '$0')) },
  ];
  const [only, ...rest] = gatherBenefits(rows, csr, '99999TX0010001-01');
  assert.equal(rest.length, 0);
  assert.equal(only!.explanation, 'standard');
  assert.deepEqual(
    only!.cost_sharings.map((c) => [c.csr, c.display_string]),
    [
      ['Non-Exchange variant', '$40'],
      ['Exchange variant (no CSR)', '$40'],
      ['94% AV Level Silver Plan CSR', '$5'],
      ['Unknown CSR', '$0'],
    ],
  );
});

test('IsExclFromInnMOOP stays out of the API benefit; each variant’s own row is kept by name', () => {
  const csr = new Map<string, CsrVariant>([
    ['99999TX0010001-01', 'Exchange variant (no CSR)'],
    ['99999TX0010001-06', '94% AV Level Silver Plan CSR'],
  ]);
  const rows = [
    {
      variant_id: '99999TX0010001-01',
      detail: JSON.stringify({ ...benefit('standard', '$40'), excluded_from_inn_moop: true }),
    },
    { variant_id: '99999TX0010001-06', detail: JSON.stringify({ ...benefit('94%', '$5'), covered: false }) },
  ];
  const byVariant = new Map();
  const [only] = gatherBenefits(rows, csr, '99999TX0010001-01', byVariant);
  assert.equal('excluded_from_inn_moop' in only!, false);
  const name = 'Primary Care Visit to Treat an Injury or Illness';
  assert.deepEqual(byVariant.get('99999TX0010001-01').get(name), {
    covered: true,
    excludedFromInnMoop: true,
  });
  // A row stored before the flag was kept says nothing: null, not false.
  assert.deepEqual(byVariant.get('99999TX0010001-06').get(name), {
    covered: false,
    excludedFromInnMoop: null,
  });
});
