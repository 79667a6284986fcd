import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { failedIngest, ingestSuite } from '../helpers/ingest-suite.js';
import { commonDrugs, writeRxnormFiles } from '../helpers/rxnorm-fixture.js';
import { ingest, skipWithoutSharedData } from '../helpers/shared-data.js';

describe(
  'ingest rxnorm (RRF layout, the shared list of real RxCUIs and names)',
  {
    skip: skipWithoutSharedData('drugs/rxnorm_common_drugs.csv'),
  },
  () => {
    const suite = ingestSuite('rxnorm');
    const drug = (rxcui: string) =>
      suite.storage.db.selectFrom('drugs').selectAll().where('rxcui', '=', rxcui).executeTakeFirstOrThrow();

    test('every drug of the list, with strength, dose form, route and brand → generic', async () => {
      const files = writeRxnormFiles(dirname(suite.file('placeholder', '')));
      const summary = await ingest(suite.storage, 'rxnorm', files);
      assert.equal(summary.rejectedCount, 0, JSON.stringify(summary.rejected));
      assert.equal(await suite.count('drugs'), commonDrugs().length);
      assert.deepEqual(await drug('198440'), {
        rxcui: '198440',
        name: 'Acetaminophen 500 MG Oral Tablet',
        tty: 'SCD',
        strength: '500 MG',
        route: 'Oral',
        full_name: 'Acetaminophen 500 MG Oral Tablet',
        rxnorm_dose_form: 'Oral Tablet',
        rxterms_dose_form: '',
        generic_rxcui: null,
      });
      const tylenol = await drug('209459');
      assert.equal(tylenol.name, 'acetaminophen 500 MG Oral Tablet [Tylenol]');
      assert.equal(tylenol.generic_rxcui, '198440');
      assert.equal((await drug('1049640')).generic_rxcui, '1049221');
      // No RXN_AVAILABLE_STRENGTH for it in the files: the strengths read from the name.
      assert.equal((await drug('1049221')).strength, '325 MG / 5 MG');
      // No dose form relation for it in the files: no route is made up.
      assert.equal((await drug('895994')).route, '');
    });

    test('a directory holding the files is read as the release', async () => {
      const dir = dirname(suite.file('placeholder', ''));
      const summary = await ingest(suite.storage, 'rxnorm', [dir]);
      assert.equal(summary.rejectedCount, 0);
      assert.equal(await suite.count('drugs'), commonDrugs().length);
    });

    test('a line of the wrong width is refused with file:line, and nothing changes', async () => {
      const dir = dirname(suite.file('placeholder', ''));
      const conso = join(dir, 'RXNCONSO.RRF');
      const lines = readFileSync(conso, 'utf8').split('\n');
      const bad = join(dir, 'bad', 'RXNCONSO.RRF');
      mkdirSync(dirname(bad), { recursive: true });
      writeFileSync(bad, ['198440|ENG|truncated', ...lines.slice(1, 3)].join('\n') + '\n');
      const error = await failedIngest(suite.storage, 'rxnorm', [bad]);
      assert.match(error.message, /1 row rejected/);
      assert.deepEqual(error.summary?.rejected[0], {
        file: bad,
        line: 1,
        reason: 'expected 18 |-ended fields of RXNCONSO.RRF, found 2',
      });
      assert.equal(await suite.count('drugs'), commonDrugs().length);
    });

    test('without RXNCONSO.RRF, or with a file that is not RxNorm, nothing is stored', async () => {
      const dir = dirname(suite.file('placeholder', ''));
      const onlyRel = await failedIngest(suite.storage, 'rxnorm', [join(dir, 'RXNREL.RRF')]);
      assert.match(onlyRel.message, /needs RXNCONSO\.RRF/);
      const other = await failedIngest(suite.storage, 'rxnorm', [suite.file('drugs.csv', 'a,b\n')]);
      assert.match(other.message, /is not an RxNorm file/);
      mkdirSync(join(dir, 'empty'), { recursive: true });
      const none = suite.file('empty/RXNCONSO.RRF', '');
      assert.match((await failedIngest(suite.storage, 'rxnorm', [none])).message, /no drugs/);
      assert.equal(await suite.count('drugs'), commonDrugs().length);
    });
  },
);
