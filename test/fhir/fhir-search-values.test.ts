import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  dayInterval,
  dayRangeMatch,
  parseDateSearch,
  storedDayRange,
  type DayRange,
  type DayRangeMatch,
} from '../../src/fhir/date-search.js';
import { includeAll, parseIncludes } from '../../src/fhir/include.js';
import type { StoredResource } from '../../src/fhir/store/resources.js';
import { InvalidResource, eobSearchFacts, validateResource } from '../../src/fhir/validate.js';

/**
 * The pure parts of the BB2/CARIN searches: the days a stored date spans, which stored spans a date search
 * accepts (the same rules as the one-day `service_date` column), the facts an EOB is filed by, and the
 * `_include:iterate` rounds.
 */

const parsed = (raw: string) => {
  const result = parseDateSearch(raw);
  assert.ok(result.ok, raw);
  return result.value;
};

/** Whether a stored span passes a match (what the SQL of store/resources.ts `withDate` asks). */
function accepts(match: DayRangeMatch, range: DayRange): boolean {
  return match.some((group) =>
    group.every(({ bound, op, day }) => {
      const value = bound === 'first' ? range.first : range.last;
      return op === '>=' ? value >= day : value < day;
    }),
  );
}

/** Whether a one-day column value passes a `dayInterval` (what store/resources.ts `within` asks). */
function inInterval(interval: ReturnType<typeof dayInterval>, day: string): boolean {
  const inside =
    (interval.from === undefined || day >= interval.from) && (interval.to === undefined || day < interval.to);
  return interval.outside ? !inside && (interval.from !== undefined || interval.to !== undefined) : inside;
}

describe('storedDayRange: a FHIR date or dateTime as the days it spans (FHIR R4 §2.1.0)', () => {
  test('a year, a month, a day, a dateTime as written', () => {
    assert.deepEqual(storedDayRange('2024'), { first: '2024-01-01', last: '2024-12-31' });
    assert.deepEqual(storedDayRange('2024-02'), { first: '2024-02-01', last: '2024-02-29' });
    assert.deepEqual(storedDayRange('2023-02'), { first: '2023-02-01', last: '2023-02-28' });
    assert.deepEqual(storedDayRange('2024-06-15'), { first: '2024-06-15', last: '2024-06-15' });
    assert.deepEqual(storedDayRange('2024-06-15T23:30:00-05:00'), {
      first: '2024-06-15',
      last: '2024-06-15',
    });
  });

  test('dates that cannot be are undefined', () => {
    for (const text of ['2024-13', '2023-02-29', '0000', 'June'])
      assert.equal(storedDayRange(text), undefined, text);
  });
});

describe('dayRangeMatch: FHIR R4 §3.1.1.5.6 prefixes on a stored span of days', () => {
  const days = (first: string, last = first) => ({ first, last });

  test('for one day it is exactly dayInterval, for every prefix, precision and day around the value', () => {
    const values = [
      '2024',
      '2024-06',
      '2024-06-15',
      '2024-06-15T12:00:00Z',
      '2024-06-15T00:00:00Z',
      '2024-06-14T23:59:59-05:00',
    ];
    const prefixes = ['', 'eq', 'ne', 'gt', 'ge', 'lt', 'le', 'sa', 'eb'];
    const probe = [
      '2023-12-31',
      '2024-01-01',
      '2024-05-31',
      '2024-06-01',
      '2024-06-14',
      '2024-06-15',
      '2024-06-16',
      '2024-06-30',
      '2024-07-01',
      '2024-12-31',
      '2025-01-01',
    ];
    for (const value of values) {
      for (const prefix of prefixes) {
        const search = parsed(`${prefix}${value}`);
        for (const day of probe) {
          assert.equal(
            accepts(dayRangeMatch(search), days(day)),
            inInterval(dayInterval(search), day),
            `${prefix}${value} on ${day}`,
          );
        }
      }
    }
  });

  test('a month span: eq only within the value; ge/gt reach it; le/lt start before it; sa/eb wholly after/before', () => {
    const june = days('2024-06-01', '2024-06-30');
    const check = (raw: string, expected: boolean) =>
      assert.equal(accepts(dayRangeMatch(parsed(raw)), june), expected, raw);
    check('2024-06', true);
    check('2024', true);
    check('2024-06-15', false);
    check('ne2024-06-15', true);
    check('ne2024', false);
    check('ge2024-06-30', true);
    check('ge2024-07-01', false);
    check('gt2024-06-29', true);
    check('gt2024-06-30', false);
    check('le2024-06-01', true);
    check('le2024-05-31', false);
    check('lt2024-06-02', true);
    check('lt2024-06-01', false);
    check('sa2024-05-31', true);
    check('sa2024-06-01', false);
    check('eb2024-07-01', true);
    check('eb2024-06-30', false);
  });
});

describe('eobSearchFacts: what an EOB is filed by', () => {
  const eob = (extra: Record<string, unknown>) => ({
    identifier: [
      { system: 'https://example.org/claims', value: 'A1' },
      { value: 'B2' },
      { system: 'https://example.org/empty' },
    ],
    billablePeriod: { start: '2024-03-01', end: '2024-03-09' },
    item: [
      { servicedDate: '2024-03-01' },
      { servicedPeriod: { start: '2024-03-04T10:00:00Z', end: '2024-03-05' } },
      { servicedDate: '2024-03-04' },
      {},
    ],
    ...extra,
  });

  test('service-date is the end; tokens with their system (or none); each span of start days once', () => {
    const facts = eobSearchFacts(eob({}));
    assert.equal(facts.serviceDate, '2024-03-09');
    assert.deepEqual(facts.tokens, [
      { param: 'identifier', system: 'https://example.org/claims', value: 'A1' },
      { param: 'identifier', system: '', value: 'B2' },
    ]);
    assert.deepEqual(facts.dates, [
      { param: 'billable-period-start', first: '2024-03-01', last: '2024-03-01' },
      { param: 'service-start-date', first: '2024-03-01', last: '2024-03-01' },
      { param: 'service-start-date', first: '2024-03-04', last: '2024-03-04' },
    ]);
    assert.equal(facts.samhsa, false);
  });

  test('without an end, the start; a partial start spans its month', () => {
    const facts = eobSearchFacts(eob({ billablePeriod: { start: '2024-06' }, item: [] }));
    assert.equal(facts.serviceDate, '2024-06');
    assert.deepEqual(facts.dates, [
      { param: 'billable-period-start', first: '2024-06-01', last: '2024-06-30' },
      { param: 'service-start-date', first: '2024-06-01', last: '2024-06-30' },
    ]);
  });

  test('dates that cannot be are refused with their path', () => {
    for (const [extra, message] of [
      [{ billablePeriod: { start: '2024-02-30' } }, 'billablePeriod.start must be a FHIR date'],
      [
        { billablePeriod: { start: '2024-02-01', end: 'soon' } },
        'billablePeriod.end must be a FHIR dateTime',
      ],
      [{ item: [{ servicedDate: '2024-02-01T10:00:00Z' }] }, 'item[0].servicedDate must be a FHIR date'],
      [
        { item: [{ servicedPeriod: { start: '2024-13-01' } }] },
        'item[0].servicedPeriod.start must be a FHIR dateTime',
      ],
    ] as const) {
      assert.throws(
        () => eobSearchFacts(eob(extra)),
        (e: Error) => e instanceof InvalidResource && e.message === message,
      );
    }
  });

  test('a SAMHSA-coded claim is marked (fhir/bfd/samhsa.ts); other resources are filed by nothing more', () => {
    const coded = eob({
      type: {
        coding: [{ system: 'https://bluebutton.cms.gov/resources/codesystem/eob-type', code: 'CARRIER' }],
      },
      diagnosis: [
        {
          diagnosisCodeableConcept: {
            coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'F10.20' }],
          },
        },
      ],
    });
    assert.equal(eobSearchFacts(coded).samhsa, true);
    const coverage = validateResource({
      resourceType: 'Coverage',
      id: 'c1',
      status: 'active',
      beneficiary: { reference: 'Patient/p1' },
      payor: [{ identifier: { value: 'CMS' } }],
    });
    assert.deepEqual(
      [coverage.tokens, coverage.dates, coverage.samhsa, coverage.serviceDate],
      [[], [], false, null],
    );
  });
});

describe('_include:iterate rounds (FHIR R4 §3.1.1.5.5)', () => {
  const body = (resource: Record<string, unknown>) => JSON.stringify(resource);
  const store = new Map<string, StoredResource>(
    [
      {
        resourceType: 'Coverage',
        id: 'c1',
        payor: [{ reference: 'Organization/o1' }, { reference: 'Patient/p1' }],
      },
      { resourceType: 'Coverage', id: 'c2', payor: [{ reference: 'Organization/o1' }] },
      { resourceType: 'Organization', id: 'o1' },
      { resourceType: 'Patient', id: 'p1' },
    ].map((r) => [
      `${r.resourceType}/${r.id}`,
      {
        resourceType: r.resourceType,
        id: r.id,
        patientId: r.resourceType === 'Organization' ? '' : 'p1',
        eobType: null,
        serviceDate: null,
        lastUpdated: 0,
        body: body(r),
      },
    ]),
  );
  const find = (refs: { resourceType: string; id: string }[]) =>
    Promise.resolve(refs.flatMap((r) => store.get(`${r.resourceType}/${r.id}`) ?? []));
  const eobs = [
    body({
      resourceType: 'ExplanationOfBenefit',
      id: 'e1',
      patient: { reference: 'Patient/p1' },
      insurance: [{ coverage: { reference: 'Coverage/c1' } }, { coverage: { reference: 'Coverage/c2' } }],
    }),
  ];
  const run = async (include: string[], iterate: string[], visible = (_: StoredResource) => true) => {
    const parsedIncludes = parseIncludes('ExplanationOfBenefit', include, iterate);
    const entries = await includeAll('ExplanationOfBenefit', eobs, parsedIncludes, find, visible);
    return entries.map((e) => `${e.type}/${e.id}`);
  };

  test('parseIncludes: an iterate value may name any type with reference parameters', () => {
    const { iterate, appliedIterate } = parseIncludes(
      'ExplanationOfBenefit',
      [],
      [
        'Coverage:payor:Organization',
        'ExplanationOfBenefit:coverage',
        'Patient:*',
        'Coverage:nope',
        'Coverage:payor:Coverage',
      ],
    );
    assert.deepEqual(appliedIterate, ['Coverage:payor:Organization', 'ExplanationOfBenefit:coverage']);
    assert.deepEqual(iterate, [
      { param: 'payor', target: 'Organization', source: 'Coverage' },
      { param: 'coverage', source: 'ExplanationOfBenefit' },
    ]);
  });

  test('round after round, each once, in order of rounds; the plain include alone does not iterate', async () => {
    assert.deepEqual(await run(['ExplanationOfBenefit:coverage'], []), ['Coverage/c1', 'Coverage/c2']);
    assert.deepEqual(await run(['ExplanationOfBenefit:coverage'], ['Coverage:payor']), [
      'Coverage/c1',
      'Coverage/c2',
      'Organization/o1',
      'Patient/p1',
    ]);
    assert.deepEqual(await run(['ExplanationOfBenefit:*'], ['Coverage:payor:Organization']), [
      'Patient/p1',
      'Coverage/c1',
      'Coverage/c2',
      'Organization/o1',
    ]);
    assert.deepEqual(await run([], ['Coverage:payor']), []);
  });

  test('what the token may not read is neither included nor followed', async () => {
    const noC1 = (r: StoredResource) => r.id !== 'c1';
    assert.deepEqual(await run(['ExplanationOfBenefit:coverage'], ['Coverage:payor'], noC1), [
      'Coverage/c2',
      'Organization/o1',
    ]);
  });
});
