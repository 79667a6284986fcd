import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeChallenge, verifierMatches } from './pkce.js';

// RFC 7636 Appendix B.
const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

test('the RFC 7636 example verifier matches its challenge', () => {
  assert.ok(verifierMatches(verifier, challenge));
  assert.ok(!verifierMatches(verifier.slice(0, -1) + 'Y', challenge));
});

test('a padded challenge compares equal to the unpadded one', () => {
  assert.equal(normalizeChallenge(`${challenge}=`), challenge);
  assert.ok(verifierMatches(verifier, `${challenge}=`));
});
