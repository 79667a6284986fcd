import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ALL_SCOPES,
  condenseScopes,
  isSubScope,
  parseScope,
  scopesForNewApp,
  scopesToOffer,
  SUPPORTED_SCOPES,
  TOKEN_SCOPES,
} from './scopes.js';

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

test('SMART offline_access and fhirUser may be asked for by any app; they are not stored among its scopes', () => {
  // SMART App Launch 2.0: `permission-offline` (offline_access) and `sso-openid-connect` (fhirUser).
  for (const scope of ['offline_access', 'fhirUser']) {
    assert.ok(SUPPORTED_SCOPES.includes(scope), scope);
    assert.ok(TOKEN_SCOPES.has(scope), scope);
    assert.ok(!ALL_SCOPES.includes(scope), scope);
    assert.ok(!scopesForNewApp(true).includes(scope), scope);
  }
  // A refresh may keep asking for it (RFC 6749 §6).
  assert.ok(isSubScope('offline_access', ['openid', 'offline_access']));
});
