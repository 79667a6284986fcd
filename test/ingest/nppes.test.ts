import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { failedIngest, ingestSuite } from '../helpers/ingest-suite.js';
import { nppesCsv, nuccCsv, registryRecords } from '../helpers/npi-fixture.js';
import { ingest, skipWithoutSharedData } from '../helpers/shared-data.js';
import { nppesFormat } from '../../src/ingest/nppes/format.js';
import { runIngest } from '../../src/ingest/engine/run.js';
import { tabularKind } from '../../src/ingest/engine/tabular-kind.js';

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

    test('an individual whose primary taxonomy is listed third, and an organisation: the whole row', async () => {
      // NPI 1043467608 (api-f7d8ea.json): taxonomies 363LG0600X, 282N00000X, 363LA2100X (primary), sex F,
      // practice location 35 COLLIER RD NW / SUITE 635, ATLANTA GA 303091613, phone as the API publishes it.
      const wansky = await db()
        .selectFrom('providers')
        .selectAll()
        .where('npi', '=', '1043467608')
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        { ...wansky, taxonomies: JSON.parse(wansky.taxonomies) as string[] },
        {
          npi: '1043467608',
          type: 'Individual',
          name: 'MICHELLE STELLA WANSKY, GNP',
          gender: 'Female',
          taxonomy: '363LA2100X',
          taxonomies: ['363LA2100X', '363LG0600X', '282N00000X'],
          street_1: '35 COLLIER RD NW',
          street_2: 'SUITE 635',
          city: 'ATLANTA',
          state: 'GA',
          zip: '30309',
          phone: '404-367-3014',
        },
      );
      const words = (npi: string) =>
        db()
          .selectFrom('provider_terms')
          .select(['zip', 'term', 'type'])
          .where('npi', '=', npi)
          .orderBy('term')
          .execute();
      // The credential (GNP) is not a name word.
      assert.deepEqual(await words('1043467608'), [
        { zip: '30309', term: 'michelle', type: 'Individual' },
        { zip: '30309', term: 'stella', type: 'Individual' },
        { zip: '30309', term: 'wansky', type: 'Individual' },
      ]);
      // NPI 1740355304 (api-1f9cef.json): an organisation, named by its legal business name, no sex.
      const athletic = await db()
        .selectFrom('providers')
        .select(['type', 'name', 'gender', 'taxonomy', 'zip'])
        .where('npi', '=', '1740355304')
        .executeTakeFirstOrThrow();
      assert.deepEqual(athletic, {
        type: 'Facility',
        name: 'ATHLETIC SPINE REHABILITATION, LLC',
        gender: null,
        taxonomy: '225100000X',
        zip: '30060',
      });
      assert.deepEqual(
        (await words('1740355304')).map((w) => w.term),
        ['athletic', 'llc', 'rehabilitation', 'spine'],
      );
    });

    test('the published layout: every cell quoted, the sex column under its newer name', async () => {
      const before = await db().selectFrom('providers').selectAll().orderBy('npi').execute();
      const [header, ...rows] = parse(nppesCsv()) as string[][];
      const renamed = header!.map((name) => (name === 'Provider Gender Code' ? 'Provider Sex Code' : name));
      const quoted = [renamed, ...rows]
        .map((cells) => cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(','))
        .join('\r\n');
      const summary = await ingest(suite.storage, 'nppes', [
        suite.file('npidata_pfile.csv', quoted + '\r\n'),
      ]);
      assert.equal(summary.rejectedCount, 0, JSON.stringify(summary.rejected));
      assert.deepEqual(await db().selectFrom('providers').selectAll().orderBy('npi').execute(), before);
    });

    test("read in a worker thread: the same rows as read on the load's own thread, and its errors as they were", async () => {
      const file = suite.file('same.csv', nppesCsv());
      const tables = async () => ({
        providers: await db().selectFrom('providers').selectAll().orderBy('npi').execute(),
        terms: await db().selectFrom('provider_terms').selectAll().orderBy(['zip', 'term', 'npi']).execute(),
      });
      const threaded = await runIngest(tabularKind(nppesFormat), [file], db(), { now: Date.now() });
      const viaThread = await tables();
      assert.ok(nppesFormat.threadModule, 'NPPES files are read in a worker thread');
      const here = await runIngest(tabularKind({ ...nppesFormat, threadModule: undefined }), [file], db(), {
        now: Date.now(),
      });
      assert.deepEqual(here, threaded);
      assert.deepEqual(await tables(), viaThread);
      assert.equal(viaThread.providers.length, registryRecords().length);

      const lines = nppesCsv().trimEnd().split('\n');
      // A file cut inside a quoted cell: a malformed CSV, nothing stored.
      const cut = suite.file(
        'cut.csv',
        [...lines, lines[1]!.slice(0, 40).replace(/,"?[^,]*$/, ',"UNCLOSED')].join('\n'),
      );
      const malformed = await failedIngest(suite.storage, 'nppes', [cut]);
      assert.match(malformed.message, /^malformed CSV \(Quote Not Closed.*; nothing was stored$/);
      const missing = await failedIngest(suite.storage, 'nppes', [suite.file('gone.csv', '') + '.absent']);
      assert.match(missing.message, /^no such file: .*gone\.csv\.absent; nothing was stored$/);
      // More refused rows than a load reports: it stops reading (and its thread) at once.
      const bad = Array.from({ length: 150 }, (_, i) => lines[1]!.replace(/^"?\d{10}/, String(i)));
      const refused = await failedIngest(suite.storage, 'nppes', [
        suite.file('bad.csv', [lines[0], ...bad].join('\n')),
      ]);
      assert.match(refused.message, /more than 100 rows rejected; stopped reading/);
      assert.deepEqual(
        [refused.summary?.rejected[0]?.line, refused.summary?.rejected[100 - 1]?.line],
        [2, 101],
      );
      assert.deepEqual(await tables(), viaThread, 'the failed loads left the directory as it was');
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
      // Reactivated after its deactivation: an active NPI again, stored.
      const reactivated = [...cells];
      reactivated[header.findIndex((h) => h.includes('NPI Reactivation Date'))] = '06/01/2020';
      const again = await ingest(suite.storage, 'nppes', [
        suite.file('reactivated.csv', [lines[0], reactivated.join(','), ...lines.slice(2)].join('\n') + '\n'),
      ]);
      assert.deepEqual([again.rejectedCount, await suite.count('providers')], [0, before]);

      const loaded = await ingest(suite.storage, 'nppes', [
        suite.file('deactivated.csv', [lines[0], cells.join(','), ...lines.slice(2)].join('\n') + '\n'),
      ]);
      assert.equal(loaded.rejectedCount, 0);
      assert.equal(loaded.read, before, 'the deactivated record is read, not refused');
      // The load replaced the directory: the deactivated NPI and its name words are gone.
      assert.equal(await suite.count('providers'), before - 1);
      const npi = cells[0]!.replace(/"/g, '');
      const left = await db().selectFrom('provider_terms').select('npi').where('npi', '=', npi).execute();
      assert.deepEqual(left, []);

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
