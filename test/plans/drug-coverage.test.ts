import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { writeRxnormFiles } from '../helpers/rxnorm-fixture.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { assertPlanError, planApiSuite } from './plan-api.js';

interface Coverage {
  rxcui: string;
  plan_id: string;
  coverage: string;
  generic_rxcui?: string;
}

// Real RxCUIs and names (RxNorm); the CMS MR-PUF examples (CMS's fictional Vandelay plans, 2020, listing
// the real RxCUIs 209459 and 248656); and, for GenericCovered, a formulary of a fictional issuer (99999)
// written in the same schema that lists only the generic of Tylenol 500.
describe(
  'drugs covered by plan formularies (MR-PUF)',
  {
    skip: skipWithoutSharedData('drugs/rxnorm_common_drugs.csv', 'mr_puf_examples/cms-data-index.json'),
  },
  () => {
    const api = planApiSuite([]);
    before(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'drug-coverage-'));
      const storage = api.running.service.storage;
      await ingest(storage, 'rxnorm', writeRxnormFiles(dir));
      await ingest(storage, 'mr-puf', [sharedData('mr_puf_examples/cms-data-index.json')]);
      const file = (name: string, value: unknown) => {
        writeFileSync(join(dir, name), JSON.stringify(value));
        return join(dir, name);
      };
      const plan = {
        plan_id_type: 'HIOS-PLAN-ID',
        plan_id: '99999TX0010001',
        marketing_name: 'Fixture Silver',
        years: [2020],
      };
      const listing = {
        plan_id_type: 'HIOS-PLAN-ID',
        plan_id: '99999TX0010001',
        drug_tier: 'GENERIC',
        prior_authorization: false,
        step_therapy: false,
        quantity_limit: false,
        years: [2020],
      };
      await ingest(storage, 'mr-puf', [
        file('plans.json', [plan, { ...plan, plan_id: '99999TX0010002', marketing_name: 'Fixture Gold' }]),
        file('drugs.json', [
          { rxnorm_id: '198440', drug_name: 'Acetaminophen 500 MG Oral Tablet', plans: [listing] },
        ]),
      ]);
    });

    const covered = async (drugs: string, plans: string) =>
      (await api.json<{ coverage: Coverage[] }>(`/drugs/covered?drugs=${drugs}&planids=${plans}&year=2020`))
        .coverage;

    test("the examples' formulary: Covered where listed, NotCovered where not", async () => {
      assert.deepEqual(await covered('209459,248656', '12345XX9876543,12345XX9876541'), [
        { rxcui: '209459', plan_id: '12345XX9876543', coverage: 'Covered' },
        { rxcui: '209459', plan_id: '12345XX9876541', coverage: 'Covered' },
        { rxcui: '248656', plan_id: '12345XX9876543', coverage: 'Covered' },
        { rxcui: '248656', plan_id: '12345XX9876541', coverage: 'NotCovered' },
      ]);
    });

    test('a brand whose generic the plan lists → GenericCovered with the generic; no formulary → DataNotProvided', async () => {
      assert.deepEqual(
        await covered('209459,198440,313782', '99999TX0010001,99999TX0010002,88888TX0010001'),
        [
          { rxcui: '209459', plan_id: '99999TX0010001', coverage: 'GenericCovered', generic_rxcui: '198440' },
          // Published in plans.json but its issuer listed no drug for it: unknown, not "not covered".
          { rxcui: '209459', plan_id: '99999TX0010002', coverage: 'DataNotProvided' },
          { rxcui: '209459', plan_id: '88888TX0010001', coverage: 'DataNotProvided' },
          { rxcui: '198440', plan_id: '99999TX0010001', coverage: 'Covered' },
          { rxcui: '198440', plan_id: '99999TX0010002', coverage: 'DataNotProvided' },
          { rxcui: '198440', plan_id: '88888TX0010001', coverage: 'DataNotProvided' },
          { rxcui: '313782', plan_id: '99999TX0010001', coverage: 'NotCovered' },
          { rxcui: '313782', plan_id: '99999TX0010002', coverage: 'DataNotProvided' },
          { rxcui: '313782', plan_id: '88888TX0010001', coverage: 'DataNotProvided' },
        ],
      );
    });

    test('loading another issuer kept the first: the examples still answer', async () => {
      assert.equal((await covered('209459', '12345XX9876542'))[0]?.coverage, 'Covered');
    });

    test('1014 for an RxCUI known nowhere; 1003 naming the list for a bad id', async () => {
      await assertPlanError(await api.get('/drugs/covered?drugs=9999999&planids=12345XX9876543&year=2020'), {
        code: '1014',
        status: '404',
        message: 'drug not found',
        error: 'no drug with RxCUI 9999999 (RxNorm or 2020 formularies)',
      });
      await assertPlanError(await api.get('/drugs/covered?drugs=209459,abc&planids=12345XX9876543'), {
        code: '1003',
        status: '400',
        message: 'invalid drugs covered request',
        error: 'drugs: "abc" is not one of RxCUIs (1 to 10 digits), comma-joined',
      });
      await assertPlanError(await api.get('/drugs/covered?drugs=209459&planids=12345XX987654'), {
        code: '1003',
        status: '400',
        message: 'invalid drugs covered request',
        error: 'planids: "12345XX987654" is not one of 14-character HIOS plan ids, comma-joined',
      });
      await assertPlanError(await api.get('/drugs/covered?planids=12345XX9876543'), {
        code: '1003',
        status: '400',
        message: 'invalid drugs covered request',
        error: 'drugs: comma-joined RxCUIs are required',
      });
    });
  },
);
