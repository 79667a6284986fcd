import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { writeRxnormFiles } from '../helpers/rxnorm-fixture.js';
import { ingest, skipWithoutSharedData } from '../helpers/shared-data.js';
import { assertPlanError, planApiSuite } from './plan-api.js';

interface Drug {
  id: string;
  rxcui: string;
  name: string;
  strength?: string;
  route?: string;
  rxnorm_dose_form?: string;
}

describe(
  'drugs: typeahead and search over RxNorm (real RxCUIs and names)',
  {
    skip: skipWithoutSharedData('drugs/rxnorm_common_drugs.csv'),
  },
  () => {
    const api = planApiSuite([]);
    before(async () => {
      const files = writeRxnormFiles(mkdtempSync(join(tmpdir(), 'drugs-api-')));
      await ingest(api.running.service.storage, 'rxnorm', files);
    });

    // Equal lengths (the 325 MG and 500 MG tablets) are ordered by RxCUI.
    test('autocomplete answers a bare array of Drug, shortest names first', async () => {
      const drugs = await api.json<Drug[]>('/drugs/autocomplete?q=acetamin');
      assert.ok(Array.isArray(drugs));
      assert.ok(drugs.length > 2 && drugs.length <= 10);
      assert.deepEqual(drugs[0], {
        id: '198440',
        name: 'Acetaminophen 500 MG Oral Tablet',
        rxcui: '198440',
        strength: '500 MG',
        route: 'Oral',
        full_name: 'Acetaminophen 500 MG Oral Tablet',
        rxnorm_dose_form: 'Oral Tablet',
      });
      const lengths = drugs.map((d) => d.name.length);
      assert.deepEqual(
        lengths,
        [...lengths].sort((a, b) => a - b),
      );
      for (const drug of drugs) assert.match(drug.name, /\bacetaminophen/i);
    });

    test('every word of q narrows: "tylenol 500" finds the brand; a word inside a name matches its start', async () => {
      assert.deepEqual(
        (await api.json<Drug[]>('/drugs/autocomplete?q=tyle%20500')).map((d) => d.rxcui),
        ['209459'],
      );
      const oxy = await api.json<Drug[]>('/drugs/autocomplete?q=oxycod');
      assert.ok(oxy.some((d) => d.rxcui === '1049221'));
      assert.deepEqual(await api.json<Drug[]>('/drugs/autocomplete?q=zzzzz'), []);
    });

    test('q shorter than 3 characters, or missing → 1003 naming q', async () => {
      for (const path of ['/drugs/autocomplete?q=ty', '/drugs/autocomplete']) {
        await assertPlanError(await api.get(path), {
          code: '1003',
          status: '400',
          message: 'invalid drugs autocomplete request',
          error: 'q: at least 3 characters are required',
        });
      }
    });

    test('search pages with next and prev links (without the key)', async () => {
      const first = await api.json<{ drugs: Drug[]; next?: string; prev?: string }>(
        '/drugs/search?q=acetaminophen&limit=2',
      );
      assert.equal(first.drugs.length, 2);
      assert.equal(first.prev, undefined);
      assert.equal(first.next, '/api/v1/drugs/search?q=acetaminophen&limit=2&offset=2');
      const second = await api.json<{ drugs: Drug[]; next?: string; prev?: string }>(
        first.next!.replace('/api/v1', ''),
      );
      assert.notDeepEqual(second.drugs, first.drugs);
      assert.equal(second.prev, '/api/v1/drugs/search?q=acetaminophen&limit=2&offset=0');
      await assertPlanError(await api.get('/drugs/search?q=a&limit=500'), {
        code: '1003',
        status: '400',
        message: 'invalid drugs search request',
        error: 'limit: must be <= 100',
      });
    });
  },
);
