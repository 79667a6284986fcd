import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createNpiSet } from './npi-set.js';

test('each NPI is new once, through growth, including 0000000000 and 9999999999', () => {
  const npis = createNpiSet();
  const all = ['0000000000', '9999999999', '1234567893'];
  for (let i = 0; i < 50_000; i++) all.push(String(1_000_000_000 + i * 40_009));
  for (const npi of all) assert.equal(npis.add(npi), true, npi);
  for (const npi of all) assert.equal(npis.add(npi), false, npi);
  assert.equal(npis.size, all.length);
  assert.equal(npis.add('1234567892'), true);
});
