import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateEnrollee } from './generate.js';
import { storedVersionId, versioned } from './version.js';

/** What a whole parse finds as the resource's own `meta.versionId` (a string), the scanner's reference. */
function parsedVersion(json: string): string | undefined {
  const version = (JSON.parse(json) as { meta?: { versionId?: unknown } }).meta?.versionId;
  return typeof version === 'string' ? version : undefined;
}

test('storedVersionId agrees with a whole parse on every generated resource, compact and indented', () => {
  let checked = 0;
  for (const resource of generateEnrollee(0, 7)) {
    for (const version of [undefined, '1', '12']) {
      const body =
        version === undefined
          ? resource
          : { ...resource, meta: { ...(resource.meta as object), versionId: version } };
      for (const json of [JSON.stringify(body), JSON.stringify(body, null, 2)]) {
        assert.equal(storedVersionId(json), parsedVersion(json), json.slice(0, 120));
        checked += 1;
      }
    }
  }
  assert.ok(checked > 100, `${checked} bodies`);
});

test('only the resource’s own meta counts, wherever it stands, and strings are stepped over whole', () => {
  const cases: [unknown, string | undefined][] = [
    [{ resourceType: 'ExplanationOfBenefit', id: 'a', meta: { versionId: '3' } }, '3'],
    [
      { contained: [{ resourceType: 'Organization', meta: { versionId: '9' } }], meta: { versionId: '4' } },
      '4',
    ],
    [{ contained: [{ resourceType: 'Organization', meta: { versionId: '9' } }] }, undefined],
    [
      { text: '"meta":{"versionId":"8"}', note: 'a \\" b }', meta: { lastUpdated: 'x', versionId: '5' } },
      '5',
    ],
    [{ extension: [{ valueString: 'meta' }], meta: { tag: [{ code: '{[' }], versionId: 'v"q' } }, 'v"q'],
    [{ meta: { versionId: 7 } }, undefined],
    [{ meta: { profile: ['p'] } }, undefined],
    [{ meta: 'versionId' }, undefined],
    [{ n: -1.5e3, t: true, z: null, meta: { versionId: '' } }, ''],
    [{}, undefined],
  ];
  for (const [resource, want] of cases) {
    for (const json of [JSON.stringify(resource), JSON.stringify(resource, null, '\t')]) {
      assert.equal(storedVersionId(json), want, json);
      assert.equal(parsedVersion(json), want, json);
    }
  }
});

test('text cut short gives no version, and versioned still reports bad JSON', () => {
  const json = JSON.stringify({ resourceType: 'Patient', meta: { versionId: '2' } });
  for (let end = 0; end < json.indexOf('"2"') + 2; end += 1) {
    assert.equal(storedVersionId(json.slice(0, end)), undefined, json.slice(0, end));
  }
  assert.throws(() => versioned('{"meta":'), SyntaxError);
});

test('versioned serves a body that names its version as stored, and adds "1" to one that does not', () => {
  const named = '{"resourceType":"Coverage","meta":{"versionId":"6"} , "id":"c"}';
  assert.deepEqual(versioned(named), { body: named, versionId: '6' });
  const unnamed = versioned('{"resourceType":"Coverage","id":"c"}');
  assert.equal(unnamed.versionId, '1');
  assert.deepEqual(JSON.parse(unnamed.body), { resourceType: 'Coverage', id: 'c', meta: { versionId: '1' } });
});
