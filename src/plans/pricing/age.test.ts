import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coverageEffectiveDate, rateAgeKey, ratingAge } from './age.js';

test('effective date: the household one, else 1 January of the market year', () => {
  assert.equal(coverageEffectiveDate(2026), '2026-01-01');
  assert.equal(coverageEffectiveDate(2026, '2026-03-01'), '2026-03-01');
});

test('age given wins over dob; else completed years at the effective date', () => {
  assert.equal(ratingAge({ age: 40, dob: '2000-01-01' }, '2026-01-01'), 40);
  assert.equal(ratingAge({ dob: '1986-01-01' }, '2026-01-01'), 40);
  assert.equal(ratingAge({ dob: '1986-01-02' }, '2026-01-01'), 39);
  assert.equal(ratingAge({ dob: '2008-02-29' }, '2026-02-28'), 17);
  assert.equal(ratingAge({ dob: '2008-02-29' }, '2026-03-01'), 18);
  assert.equal(ratingAge({ dob: '2026-01-01' }, '2026-01-01'), 0);
});

test("the issuer's January-1 rule takes the age on 1 January of the effective year", () => {
  assert.equal(ratingAge({ dob: '1986-06-15' }, '2026-07-01'), 40);
  assert.equal(ratingAge({ dob: '1986-06-15' }, '2026-07-01', 'january-1'), 39);
});

test('no age, a bad date or a dob after the effective date is refused', () => {
  assert.throws(() => ratingAge({}, '2026-01-01'), RangeError);
  assert.throws(() => ratingAge({ dob: '1986-02-30' }, '2026-01-01'), RangeError);
  assert.throws(() => ratingAge({ dob: '2027-01-01' }, '2026-01-01'), RangeError);
  assert.throws(() => ratingAge({ age: -1 }, '2026-01-01'), RangeError);
});

test('Rate PUF age keys from plan year 2018: 0-14, 15 … 63, 64 and over', () => {
  assert.equal(rateAgeKey(0, 2018), '0-14');
  assert.equal(rateAgeKey(14, 2026), '0-14');
  assert.equal(rateAgeKey(15, 2026), '15');
  assert.equal(rateAgeKey(20, 2026), '20');
  assert.equal(rateAgeKey(63, 2026), '63');
  assert.equal(rateAgeKey(64, 2026), '64 and over');
  assert.equal(rateAgeKey(80, 2026), '64 and over');
});

test('Rate PUF age keys before 2018: 0-20, 21 … 63, 64 and over', () => {
  assert.equal(rateAgeKey(15, 2017), '0-20');
  assert.equal(rateAgeKey(20, 2014), '0-20');
  assert.equal(rateAgeKey(21, 2016), '21');
  assert.equal(rateAgeKey(64, 2016), '64 and over');
});
