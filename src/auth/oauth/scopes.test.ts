import assert from 'node:assert/strict';
import { test } from 'node:test';
import { condenseScopes, isSubScope, parseScope, scopesForNewApp, scopesToOffer } from './scopes.js';

test('.r and .s condense to .rs; .rs absorbs them', () => {
  assert.deepEqual(condenseScopes(['patient/Coverage.r', 'patient/Coverage.s']), ['patient/Coverage.rs']);
  assert.deepEqual(condenseScopes(['patient/Patient.rs', 'patient/Patient.r', 'profile']), [
    'patient/Patient.rs',
    'profile',
  ]);
  assert.deepEqual(condenseScopes(['patient/ExplanationOfBenefit.s']), ['patient/ExplanationOfBenefit.s']);
});

test('no scope asked means the defaults the app may hold', () => {
  const allowed = scopesForNewApp(false);
  const offered = scopesToOffer([], allowed);
  assert.ok(offered.includes('patient/ExplanationOfBenefit.rs'));
  assert.ok(!offered.includes('profile'));
  assert.ok(!offered.includes('patient/Patient.rs'));
});

test('scope strings split on spaces, once each', () => {
  assert.deepEqual(parseScope(' profile  openid profile '), ['profile', 'openid']);
  assert.deepEqual(parseScope(undefined), []);
});

test('SMART sub-scopes of a held scope may be asked for at refresh', () => {
  assert.ok(isSubScope('patient/Coverage.r', ['patient/Coverage.rs']));
  assert.ok(isSubScope('patient/Coverage.s', ['patient/Coverage.read']));
  assert.ok(!isSubScope('patient/Coverage.rs', ['patient/Coverage.r']));
  assert.ok(!isSubScope('profile', ['patient/Patient.rs']));
});
