import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { failedIngest, ingestSuite } from '../helpers/ingest-suite.js';
import { nppesCsv, nuccCsv, registryRecords } from '../helpers/npi-fixture.js';
import { ingest, skipWithoutSharedData } from '../helpers/shared-data.js';

describe(
  'ingest nppes and nucc-taxonomy (real NPI Registry records in the NPPES file layout)',
  {
    skip: skipWithoutSharedData('providers/npi_registry_api_samples'),
  },
  () => {
    const suite = ingestSuite('nppes');
    const db = () => suite.storage.db;

    test('every record: name, type, sex, taxonomies primary first, practice address, name words by ZIP', async () => {
      const summary = await ingest(suite.storage, 'nppes', [suite.file('npidata.csv', nppesCsv())]);
      assert.equal(summary.rejectedCount, 0, JSON.stringify(summary.rejected));
      assert.equal(await suite.count('providers'), registryRecords().length);
      const steinberg = await db()
        .selectFrom('providers')
        .selectAll()
        .where('npi', '=', '1396949913')
        .executeTakeFirstOrThrow();
      assert.equal(steinberg.type, 'Individual');
      assert.match(steinberg.name, /^AMIR .*STEINBERG/);
      assert.equal(steinberg.taxonomy, '207RX0202X');
      assert.equal(steinberg.zip, '10029');
      assert.equal(steinberg.city, 'NEW YORK');
      const terms = await db()
        .selectFrom('provider_terms')
        .select('term')
        .where('npi', '=', '1396949913')
        .execute();
      assert.ok(terms.some((t) => t.term === 'steinberg') && terms.some((t) => t.term === 'amir'));
      // An organisation (NPI-2) is a Facility named by its legal business name.
      const csp = await db()
        .selectFrom('providers')
        .selectAll()
        .where('npi', '=', '1568946812')
        .executeTakeFirstOrThrow();
      assert.deepEqual([csp.type, csp.name, csp.taxonomy], ['Facility', 'CSP ANESTHESIA LLC', '207L00000X']);
      // Listed twice (primary and not): the primary first, each code once.
      const rowell = await db()
        .selectFrom('providers')
        .selectAll()
        .where('npi', '=', '1003142399')
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(rowell.taxonomies), ['225700000X']);
    });

    test('the NUCC list names the codes', async () => {
      const summary = await ingest(suite.storage, 'nucc-taxonomy', [suite.file('nucc.csv', nuccCsv())]);
      assert.equal(summary.rejectedCount, 0);
      const row = await db()
        .selectFrom('provider_taxonomies')
        .selectAll()
        .where('code', '=', '207RX0202X')
        .executeTakeFirstOrThrow();
      assert.equal(row.display_name, 'Internal Medicine Medical Oncology');
    });

    test('a bad NPI is refused with file:line; a deactivated NPI is passed over; a missing column stores nothing', async () => {
      const before = await suite.count('providers');
      const lines = nppesCsv().trimEnd().split('\n');
      const bad = suite.file(
        'bad.csv',
        [lines[0], lines[1]!.replace(/^"?\d{10}/, '12345'), ...lines.slice(2)].join('\n') + '\n',
      );
      const error = await failedIngest(suite.storage, 'nppes', [bad]);
      assert.equal(error.summary?.rejected[0]?.line, 2);
      assert.match(error.summary!.rejected[0]!.reason, /NPI "12345" is not 10 digits/);

      const header = lines[0]!.split(',');
      const deactivatedAt = header.findIndex((h) => h.includes('NPI Deactivation Date'));
      const cells = lines[1]!.split(',');
      assert.equal(cells.length, header.length, 'the fixture row has no quoted commas');
      cells[deactivatedAt] = '05/17/2019';
      const loaded = await ingest(suite.storage, 'nppes', [
        suite.file('deactivated.csv', [lines[0], cells.join(','), ...lines.slice(2)].join('\n') + '\n'),
      ]);
      assert.equal(loaded.rejectedCount, 0);
      assert.equal(await suite.count('providers'), before - 1);

      const missing = suite.file(
        'missing.csv',
        lines
          .map((l) =>
            l
              .split(',')
              .filter((_, i) => i !== 0)
              .join(','),
          )
          .join('\n') + '\n',
      );
      const refused = await failedIngest(suite.storage, 'nppes', [missing]);
      assert.match(refused.message, /missing column "NPI"/);
      assert.equal(await suite.count('providers'), before - 1);
    });
  },
);
