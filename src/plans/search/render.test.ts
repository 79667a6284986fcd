import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchAnswer } from './render.js';

test('search answers cut from shared slabs stay intact while later answers are written', () => {
  const answers: { bytes: Buffer; expected: string }[] = [];
  // Enough answers of ~20 kB (and a few over a quarter slab) to go through several slabs.
  for (let n = 0; n < 60; n++) {
    const plans = Array.from({ length: 3 }, (_, i) => ({
      base: Buffer.from(`{"id":"plan-${n}-${i}","name":"${'é'.repeat(n % 7 === 0 ? 40_000 : 3_000)}"`),
      premiums: `,"premium":${n}.${i},"note":"café ${n}"}`,
    }));
    const rest = `{"total":${n},"facet_groups":[]}`;
    const expected = `{"plans":[${plans.map((p) => `${p.base.toString()}${p.premiums}`).join(',')}],"total":${n},"facet_groups":[]}`;
    answers.push({ bytes: searchAnswer(plans, rest), expected });
  }
  for (const { bytes, expected } of answers) {
    assert.equal(bytes.toString('utf8'), expected);
    assert.equal(bytes.length, Buffer.byteLength(expected));
    assert.doesNotThrow(() => JSON.parse(bytes.toString('utf8')));
  }
});
