import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CMS_COST_SHARING_RULES, costSharingRule, readPhrases } from './cost-sharing-rules.js';

const flags = (copay: string | null, coins: string | null) => {
  const { rule, source } = costSharingRule(copay, coins);
  return [rule.copay, rule.coinsurance, rule.deductible, rule.copayBeforeDeductible, source];
};

test('CMS’s table first, blind to case and spacing; a bare amount has no phrase', () => {
  assert.deepEqual(flags(null, 'Coinsurance after deductible'), [true, true, true, false, 'table']);
  assert.deepEqual(flags('copay  BEFORE deductible', 'no charge'), [true, false, true, true, 'table']);
  // Kept as CMS codes it, though the words say otherwise: a bare coinsurance next to "Copay before
  // deductible" drops the copay; "Copay per Stay" with a bare coinsurance drops the coinsurance.
  assert.deepEqual(flags('Copay before deductible', null), [false, true, true, false, 'table']);
  assert.deepEqual(flags('Copay per Stay', null), [true, false, true, false, 'table']);
});

test('read word by word, CMS’s own entries come out as its table says, but for four', () => {
  const differ: string[] = [];
  for (const [copay, coins, ...expected] of CMS_COST_SHARING_RULES) {
    const rule = readPhrases(copay || null, coins || null)!;
    const read = [rule.copay, rule.coinsurance, rule.deductible, rule.copayBeforeDeductible];
    if (JSON.stringify(read) !== JSON.stringify([expected[0], expected[1], expected[2], expected[4]]))
      differ.push(`${copay}..${coins}`);
  }
  // CMS's choices: no copay with a bare coinsurance after "Copay before deductible"; no coinsurance and a
  // deductible for a bare "Copay per Stay"; both charges for a per-stay copay before and a coinsurance
  // after the deductible; and a per-day copay "before deductible" that does not go before it.
  assert.deepEqual(differ, [
    'Copay before deductible..',
    'Copay per Stay..',
    'Copay per Stay before deductible..Coinsurance after deductible',
    'Copay per Day before deductible..Not Applicable',
  ]);
});

test('phrases CMS’s table lacks are read word by word', () => {
  // "$500 Copay with deductible" / "20%": the copay first, the rest toward the deductible.
  assert.deepEqual(flags('Copay with deductible', null), [true, true, true, true, 'parsed']);
  assert.deepEqual(flags('Copay with deductible', 'Not Applicable'), [true, false, true, true, 'parsed']);
  assert.deepEqual(flags('Copay per Day with deductible', 'No Charge'), [true, false, true, true, 'parsed']);
  assert.deepEqual(flags('Copay per Stay after deductible', null), [true, true, true, false, 'parsed']);
  // A copay before and a coinsurance after the deductible: the "after" one is kept, as CMS's table does.
  assert.deepEqual(flags('Copay with deductible', 'Coinsurance after deductible'), [
    false,
    true,
    true,
    false,
    'parsed',
  ]);
});

test('an unknown phrase: what is stated is charged after the deductible, never an error', () => {
  assert.deepEqual(flags('Copay per Visit', 'No Charge'), [true, true, true, false, 'fallback']);
  assert.deepEqual(flags(null, '20% up to $500'), [true, true, true, false, 'fallback']);
});
