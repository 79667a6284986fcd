import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { identifiersMatch, parseTokenAlternatives } from './token-search.js';

const MBI = 'http://hl7.org/fhir/sid/us-mbi';
const identifiers = [{ system: MBI, value: '1SA0A00AA00' }, { value: 'no-system' }];
const matches = (...values: string[]) => identifiersMatch(identifiers, values.map(parseTokenAlternatives));

describe('FHIR R4 §3.1.1.5.5: token search on identifiers', () => {
  test('code, system|code, |code, system|', () => {
    assert.equal(matches('1SA0A00AA00'), true);
    assert.equal(matches(`${MBI}|1SA0A00AA00`), true);
    assert.equal(matches(`${MBI}|`), true);
    assert.equal(matches('|no-system'), true);
    assert.equal(matches('|1SA0A00AA00'), false, 'the MBI has a system');
    assert.equal(matches(`http://other|1SA0A00AA00`), false);
    assert.equal(matches(`http://other|`), false);
    assert.equal(matches('1sa0a00aa00'), false, 'identifiers are case-sensitive');
    assert.equal(matches('nope'), false);
  });

  test('§3.1.1.3.1: a comma is OR, a repeated parameter AND', () => {
    assert.equal(matches('nope,1SA0A00AA00'), true);
    assert.equal(matches('1SA0A00AA00', '|no-system'), true);
    assert.equal(matches('1SA0A00AA00', 'nope'), false);
  });

  test('§3.1.1.6: escaped separators are literal', () => {
    assert.deepEqual(parseTokenAlternatives('a\\,b'), [{ system: undefined, code: 'a,b' }]);
    assert.deepEqual(parseTokenAlternatives('s\\|x|c'), [{ system: 's|x', code: 'c' }]);
    assert.deepEqual(parseTokenAlternatives('a\\\\,b'), [
      { system: undefined, code: 'a\\' },
      { system: undefined, code: 'b' },
    ]);
  });

  test('a resource without identifiers matches nothing', () => {
    assert.equal(identifiersMatch(undefined, [parseTokenAlternatives('x')]), false);
  });
});
