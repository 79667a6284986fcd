import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prefixesOf, wordsOf } from './words.js';

describe('wordsOf: the words a name is found by', () => {
  it('lower case, split on anything but letters and digits', () => {
    assert.deepEqual(wordsOf('Albuterol 0.09 MG/ACTUAT Metered Dose Inhaler'), [
      'albuterol',
      '0',
      '09',
      'mg',
      'actuat',
      'metered',
      'dose',
      'inhaler',
    ]);
    assert.deepEqual(wordsOf("  O'BRIEN-SMITH, JR.  "), ['o', 'brien', 'smith', 'jr']);
  });

  it('drops accents and folds compatibility forms, as a query typed without them finds the name', () => {
    assert.deepEqual(wordsOf('JOSÉ NÚÑEZ'), ['jose', 'nunez']);
    assert.deepEqual(wordsOf('Jose\u0301 N\u0303'), ['jose', 'n']);
    assert.deepEqual(wordsOf('ＡＢＣ ﬁsh'), ['abc', 'fish']);
  });

  it('prefixes of every word, each once', () => {
    assert.deepEqual([...prefixesOf('Ana Anabel')], ['a', 'an', 'ana', 'anab', 'anabe', 'anabel']);
  });
});
