import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchsetBundle, type Page } from './bundle.js';

const page = (entries: Page['entries'], included?: Page['included']): Page => ({
  base: 'https://api.example',
  type: 'ExplanationOfBenefit',
  total: 3,
  startIndex: 0,
  count: 10,
  before: false,
  after: false,
  echo: [],
  entries,
  ...(included ? { included } : {}),
  now: Date.UTC(2026, 0, 1),
});

const bodies = [
  { id: 'a', body: '{"resourceType":"ExplanationOfBenefit","id":"a","note":"Zoë — 50 µg"}' },
  { id: 'b', body: '{"resourceType":"ExplanationOfBenefit","id":"b"}' },
];

/** The same Bundle whether bodies come as text or as bytes: its id is random, so compared without it. */
const withoutId = (text: string) => {
  const bundle = JSON.parse(text) as Record<string, unknown>;
  delete bundle.id;
  return bundle;
};

const patient = { type: 'Patient', id: 'p', body: '{"resourceType":"Patient","id":"p"}' };

test('a Bundle of text bodies is text; with some bodies as bytes, the same JSON as UTF-8 bytes', () => {
  const asText = searchsetBundle(page(bodies, [patient]));
  assert.equal(typeof asText, 'string');
  const asBytes = searchsetBundle(
    page(
      [{ ...bodies[0]!, bytes: Buffer.from(bodies[0]!.body) }, bodies[1]!],
      [{ ...patient, bytes: Buffer.from(patient.body) }],
    ),
  );
  assert.ok(Buffer.isBuffer(asBytes));
  const decoded = asBytes.toString('utf8');
  assert.deepEqual(withoutId(decoded), withoutId(asText as string));
  assert.equal((withoutId(decoded).entry as unknown[]).length, 3);
  assert.match(decoded, /"note":"Zoë — 50 µg"/);
});
