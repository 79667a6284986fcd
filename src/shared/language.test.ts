import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pickLanguage } from './language.js';

test('lang wins when it is en or es', () => {
  assert.equal(pickLanguage('es', 'en-US'), 'es');
  assert.equal(pickLanguage('en', 'es-MX'), 'en');
});

test('other lang values fall back to Accept-Language', () => {
  assert.equal(pickLanguage('fr', 'es-MX,es;q=0.9'), 'es');
  assert.equal(pickLanguage(undefined, 'es-MX,es;q=0.9,en;q=0.8'), 'es');
});

test('Spanish only when ranked above English, by q-value then order', () => {
  assert.equal(pickLanguage(undefined, 'en-US,es;q=0.5'), 'en');
  assert.equal(pickLanguage(undefined, 'en;q=0.4,es;q=0.6'), 'es');
  assert.equal(pickLanguage(undefined, 'es,en'), 'es');
  assert.equal(pickLanguage(undefined, 'en,es'), 'en');
  assert.equal(pickLanguage(undefined, 'fr,de;q=0.9'), 'en');
  assert.equal(pickLanguage(undefined, 'es;q=0'), 'en');
});

test('no header means English', () => {
  assert.equal(pickLanguage(undefined, undefined), 'en');
  assert.equal(pickLanguage(null, ''), 'en');
});
