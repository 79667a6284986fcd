import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dayInterval, instantInterval, parseDateSearch, type DateSearch } from './date-search.js';

function parsed(raw: string): DateSearch {
  const result = parseDateSearch(raw);
  assert.ok(result.ok, `${raw}: ${JSON.stringify(result)}`);
  return result.value;
}

const iso = (ms: number) => new Date(ms).toISOString();
const range = (raw: string) => {
  const { instant } = parsed(raw);
  return [iso(instant.start), iso(instant.end)];
};

describe('FHIR R4 §2.1.0 / §3.1.1.5.6: a date value is the range its precision spans', () => {
  test('year, year-month, date', () => {
    assert.deepEqual(range('ge2024'), ['2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']);
    assert.deepEqual(range('ge2024-02'), ['2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z']);
    assert.deepEqual(range('ge2024-12'), ['2024-12-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']);
    assert.deepEqual(range('ge2024-02-29'), ['2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z']);
  });

  test('dateTime to the minute, second and fraction, with Z or an offset', () => {
    assert.deepEqual(range('ge2024-06-01T10:30Z'), ['2024-06-01T10:30:00.000Z', '2024-06-01T10:31:00.000Z']);
    assert.deepEqual(range('ge2024-06-01T00:00:00Z'), [
      '2024-06-01T00:00:00.000Z',
      '2024-06-01T00:00:01.000Z',
    ]);
    assert.deepEqual(range('ge2024-06-01T00:00:00.5Z'), [
      '2024-06-01T00:00:00.500Z',
      '2024-06-01T00:00:00.600Z',
    ]);
    assert.deepEqual(range('ge2024-06-01T00:00:00.123456Z'), [
      '2024-06-01T00:00:00.123Z',
      '2024-06-01T00:00:00.124Z',
    ]);
    assert.deepEqual(range('ge2024-06-01T10:00:00+05:00'), [
      '2024-06-01T05:00:00.000Z',
      '2024-06-01T05:00:01.000Z',
    ]);
    assert.deepEqual(range('ge2024-06-01T23:00:00-05:00'), [
      '2024-06-02T04:00:00.000Z',
      '2024-06-02T04:00:01.000Z',
    ]);
  });

  test('an unencoded + of a zone arrives as a space and is read as +', () => {
    assert.deepEqual(range('ge2024-06-01T10:00:00 05:00'), range('ge2024-06-01T10:00:00+05:00'));
  });

  test('a dateTime without a zone is read as UTC (the server’s zone)', () => {
    assert.deepEqual(range('ge2024-06-01T10:00:00'), range('ge2024-06-01T10:00:00Z'));
  });

  test('the wall clock keeps the date as written, whatever the zone', () => {
    const { wallClock } = parsed('ge2024-06-01T23:00:00-05:00');
    assert.equal(iso(wallClock.start), '2024-06-01T23:00:00.000Z');
  });

  test('years below 100 are those years, not 19xx', () => {
    assert.deepEqual(range('ge0099'), ['0099-01-01T00:00:00.000Z', '0100-01-01T00:00:00.000Z']);
  });
});

describe('FHIR R4 §3.1.1.4: prefixes', () => {
  test('no prefix is eq; eq ne lt le gt ge sa eb are read', () => {
    assert.equal(parsed('2024').prefix, 'eq');
    for (const prefix of ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'sa', 'eb']) {
      assert.equal(parsed(`${prefix}2024-06-01`).prefix, prefix);
    }
  });

  test('an unknown prefix (or ap, whose tolerance is not defined here) is an operator problem', () => {
    for (const raw of ['ap2024', 'xx2024', 'GE2024', 'foo', 'Infinity']) {
      assert.deepEqual(parseDateSearch(raw), { ok: false, problem: 'operator' }, raw);
    }
  });
});

describe('FHIR R4 §2.1.0: impossible dates are refused', () => {
  for (const raw of [
    'ge2023-13-45',
    'ge2023-13',
    'ge2023-00',
    'ge2023-02-29',
    'ge2024-02-30',
    'ge2024-04-31',
    'ge2024-06-00',
    'ge2024-06-01T25:00:00Z',
    'ge2024-06-01T10:60:00Z',
    'ge2024-06-01T10:00:61Z',
    'ge2024-06-01T10:00:00+15:00',
    'ge0000',
    'ge24',
    'ge2024-6-1',
    'ge2024-06-01T10',
    'ge2024-06-01 10:00:00Z',
    'ge',
    'geyesterday',
    '1e309',
  ]) {
    test(raw, () => assert.deepEqual(parseDateSearch(raw), { ok: false, problem: 'value' }));
  }
});

describe('FHIR R4 §3.1.1.5.6: instant columns (last_updated)', () => {
  const ms = (text: string) => Date.parse(text);
  test('ge2024 on/after 2024-01-01; gt2024 after the end of 2024; lt2024-06 before June; le2024-06 before July', () => {
    assert.deepEqual(instantInterval(parsed('ge2024')), { from: ms('2024-01-01T00:00:00Z') });
    assert.deepEqual(instantInterval(parsed('gt2024')), { from: ms('2025-01-01T00:00:00Z') });
    assert.deepEqual(instantInterval(parsed('lt2024-06')), { to: ms('2024-06-01T00:00:00Z') });
    assert.deepEqual(instantInterval(parsed('le2024-06')), { to: ms('2024-07-01T00:00:00Z') });
  });
  test('eq is within the range, ne outside it; sa after its end, eb before its start', () => {
    const [start, end] = [ms('2024-06-01T00:00:00Z'), ms('2024-06-02T00:00:00Z')];
    assert.deepEqual(instantInterval(parsed('2024-06-01')), { from: start, to: end });
    assert.deepEqual(instantInterval(parsed('ne2024-06-01')), { from: start, to: end, outside: true });
    assert.deepEqual(instantInterval(parsed('sa2024-06-01')), { from: end });
    assert.deepEqual(instantInterval(parsed('eb2024-06-01')), { to: start });
  });
});

describe('FHIR R4 §3.1.1.5.6: date-only columns (service_date)', () => {
  test('values of day precision or coarser are calendar comparisons', () => {
    assert.deepEqual(dayInterval(parsed('ge2024')), { from: '2024-01-01' });
    assert.deepEqual(dayInterval(parsed('gt2024')), { from: '2025-01-01' });
    assert.deepEqual(dayInterval(parsed('lt2024-06')), { to: '2024-06-01' });
    assert.deepEqual(dayInterval(parsed('le2024-06')), { to: '2024-07-01' });
    assert.deepEqual(dayInterval(parsed('2024-06')), { from: '2024-06-01', to: '2024-07-01' });
    assert.deepEqual(dayInterval(parsed('eq2024-06-15')), { from: '2024-06-15', to: '2024-06-16' });
    assert.deepEqual(dayInterval(parsed('ne2024')), { from: '2024-01-01', to: '2025-01-01', outside: true });
    assert.deepEqual(dayInterval(parsed('sa2024-06-15')), { from: '2024-06-16' });
    assert.deepEqual(dayInterval(parsed('eb2024-06-15')), { to: '2024-06-15' });
  });

  test('a stored day is the whole day: it overlaps a dateTime inside it', () => {
    // The day 2024-06-01 reaches past noon (ge, gt) and starts before it (lt, le), but is not within one
    // second (eq) nor wholly after or before it (sa, eb).
    assert.deepEqual(dayInterval(parsed('ge2024-06-01T12:00:00Z')), { from: '2024-06-01' });
    assert.deepEqual(dayInterval(parsed('gt2024-06-01T12:00:00Z')), { from: '2024-06-01' });
    assert.deepEqual(dayInterval(parsed('lt2024-06-01T12:00:00Z')), { to: '2024-06-02' });
    assert.deepEqual(dayInterval(parsed('le2024-06-01T12:00:00Z')), { to: '2024-06-02' });
    assert.deepEqual(dayInterval(parsed('sa2024-06-01T12:00:00Z')), { from: '2024-06-02' });
    assert.deepEqual(dayInterval(parsed('eb2024-06-01T12:00:00Z')), { to: '2024-06-01' });
    const eq = dayInterval(parsed('eq2024-06-01T12:00:00Z'));
    assert.ok(eq.from! >= eq.to!, 'an empty interval');
  });

  test('midnight at the start of a day is day precision again', () => {
    assert.deepEqual(dayInterval(parsed('ge2024-06-01T00:00:00Z')), { from: '2024-06-01' });
    assert.deepEqual(dayInterval(parsed('lt2024-06-01T00:00:00Z')), { to: '2024-06-01' });
  });

  test('a zone does not move the calendar date: the wall clock as written is compared', () => {
    assert.deepEqual(dayInterval(parsed('ge2024-06-01T23:00:00-05:00')), { from: '2024-06-01' });
    assert.deepEqual(dayInterval(parsed('ge2024-06-01T01:00:00+09:00')), { from: '2024-06-01' });
  });

  test('bounds past year 9999 stay comparable', () => {
    assert.deepEqual(dayInterval(parsed('gt9999')), { from: '9999-99-99' });
    assert.deepEqual(dayInterval(parsed('le9999')), { to: '9999-99-99' });
  });
});
