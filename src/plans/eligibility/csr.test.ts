import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csrLevel, csrOverrideLevel, csrVariantForPlan } from './csr.js';

const level = (fplPercent: number, aptcEligible = true, aian = false) =>
  csrLevel({ fplPercent, aptcEligible, aian });

test('45 CFR 155.305(g)(2): 100–150 → 94, over 150–200 → 87, over 200–250 → 73, above → none', () => {
  assert.equal(level(100), '94% AV Level Silver Plan CSR');
  assert.equal(level(150), '94% AV Level Silver Plan CSR');
  assert.equal(level(150.01), '87% AV Level Silver Plan CSR');
  assert.equal(level(200), '87% AV Level Silver Plan CSR');
  assert.equal(level(200.01), '73% AV Level Silver Plan CSR');
  assert.equal(level(250), '73% AV Level Silver Plan CSR');
  assert.equal(level(250.01), null);
  assert.equal(level(120, false), null);
});

test('45 CFR 155.350: Indians get zero cost sharing to 300 % with APTC, limited cost sharing otherwise', () => {
  assert.equal(level(300, true, true), 'Zero Cost Sharing Plan Variation');
  assert.equal(level(300.01, true, true), 'Limited Cost Sharing Plan Variation');
  assert.equal(level(120, false, true), 'Limited Cost Sharing Plan Variation');
});

test('45 CFR 156.420: silver-only variations, AI/AN variations at every metal level', () => {
  assert.equal(csrVariantForPlan('87% AV Level Silver Plan CSR', 'Silver'), '87% AV Level Silver Plan CSR');
  assert.equal(csrVariantForPlan('87% AV Level Silver Plan CSR', 'Gold'), 'Exchange variant (no CSR)');
  assert.equal(
    csrVariantForPlan('Zero Cost Sharing Plan Variation', 'Bronze'),
    'Zero Cost Sharing Plan Variation',
  );
  assert.equal(csrVariantForPlan(null, 'Silver'), 'Exchange variant (no CSR)');
});

test('csr_override replaces the household level', () => {
  assert.equal(csrOverrideLevel('CSR73'), '73% AV Level Silver Plan CSR');
  assert.equal(csrVariantForPlan(null, 'Silver', 'CSR94'), '94% AV Level Silver Plan CSR');
  assert.equal(
    csrVariantForPlan('94% AV Level Silver Plan CSR', 'Silver', 'CSR73'),
    '73% AV Level Silver Plan CSR',
  );
  assert.equal(csrVariantForPlan(null, 'Platinum', 'CSR94'), 'Exchange variant (no CSR)');
  assert.equal(csrVariantForPlan(null, 'Gold', 'LimitedCSR'), 'Limited Cost Sharing Plan Variation');
});
