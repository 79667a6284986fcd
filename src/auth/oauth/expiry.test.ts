import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addCalendarMonths, formatGrantExpiration } from './expiry.js';

test('13 calendar months keep the day and time', () => {
  const start = Date.UTC(2026, 10, 22, 20, 49, 56);
  assert.equal(new Date(addCalendarMonths(start, 13)).toISOString(), '2027-12-22T20:49:56.000Z');
});

test('a day that does not exist in the target month clamps to its last day', () => {
  assert.equal(
    new Date(addCalendarMonths(Date.UTC(2026, 0, 31), 13)).toISOString(),
    '2027-02-28T00:00:00.000Z',
  );
  assert.equal(
    new Date(addCalendarMonths(Date.UTC(2026, 10, 29), 15)).toISOString(),
    '2028-02-29T00:00:00.000Z',
  );
});

test('grant expiration is YYYY-MM-DD HH:MM:SSZ (docs/decisions.md#grant-expiration-format)', () => {
  assert.equal(formatGrantExpiration(Date.UTC(2027, 11, 22, 20, 49, 56, 789)), '2027-12-22 20:49:56Z');
});
