import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { failedIngest, ingestSuite, rejectLines } from '../helpers/ingest-suite.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';

const example = (name: string) => sharedData(`mr_puf_examples/${name}`);
const DATA = ['plans.json', 'drugs-1.json', 'drugs-2.json', 'providers.json'];
const INDEX = 'cms-data-index.json';
const [GOLD, SILVER, BRONZE] = ['12345XX9876543', '12345XX9876542', '12345XX9876541'];

/** A small issuer of our own (67890), for the tests of what a load replaces. */
const OTHER = '67890XX0000001';
const otherPlans = (years: number[]) => [
  { plan_id_type: 'HIOS-PLAN-ID', plan_id: OTHER, marketing_name: 'Fixture Gold', years },
];
const otherDrugs = (years: number[]) => [
  { rxnorm_id: '198440', plans: [{ plan_id: OTHER, drug_tier: 'GENERIC', years }] },
];
const otherProviders = (years: number[]) => [
  {
    npi: '1234567893',
    type: 'INDIVIDUAL',
    name: { first: 'Martin', last: 'Nostrand', suffix: 'Jr' },
    gender: 'male',
    languages: ['Spanish'],
    addresses: [{ address: '1 Elm St', city: 'Albany', state: 'NY', zip: '12207-1234', phone: '' }],
    accepting: 'Accepting in some locations',
    plans: [{ plan_id: OTHER, network_tier: 'TIER-1', years }],
  },
];

describe(
  'ingest mr-puf (the CMS QHP provider and formulary schema examples)',
  { skip: skipWithoutSharedData(...[INDEX, ...DATA].map((d) => `mr_puf_examples/${d}`)) },
  () => {
    const suite = ingestSuite('mr-puf');
    const db = () => suite.storage.db;
    const json = (name: string, value: unknown) => suite.file(name, JSON.stringify(value, null, 1));
    const coverage = async (issuerId = '12345', year = 2020) =>
      (
        await db()
          .selectFrom('coverage_plans')
          .selectAll()
          .where('year', '=', year)
          .where('issuer_id', '=', issuerId)
          .orderBy('plan_id')
          .execute()
      ).map((p) => [p.plan_id, Number(p.drugs), Number(p.providers)]);
    const drugOn = (rxcui: string, planId: string) =>
      db()
        .selectFrom('plan_drugs')
        .select(['drug_tier', 'prior_authorization', 'step_therapy', 'quantity_limit'])
        .where('year', '=', 2020)
        .where('rxcui', '=', rxcui)
        .where('plan_id', '=', planId)
        .executeTakeFirst();
    const provider = (npi: string, issuerId = '12345') =>
      db()
        .selectFrom('network_providers')
        .selectAll()
        .where('year', '=', 2020)
        .where('issuer_id', '=', issuerId)
        .where('npi', '=', npi)
        .executeTakeFirstOrThrow();
    /** What the examples store (each file read once, drugs-1.json before drugs-2.json). */
    const rowsOf = async (
      table: 'coverage_plans' | 'plan_drugs' | 'issuer_drugs' | 'network_providers',
      issuerId = '12345',
    ) =>
      Number(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('year', '=', 2020)
            .where('issuer_id', '=', issuerId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const expectExamples = async () => {
      assert.equal(await rowsOf('coverage_plans'), 3);
      assert.equal(await rowsOf('plan_drugs'), 5);
      assert.equal(await rowsOf('issuer_drugs'), 2);
      assert.equal(await rowsOf('network_providers'), 3);
      assert.deepEqual(await coverage(), [
        [BRONZE, 1, 1],
        [SILVER, 2, 2],
        [GOLD, 2, 2],
      ]);
    };

    test('the index beside its files: formularies, networks with tiers, providers, coverage counts', async () => {
      const summary = await ingest(suite.storage, 'mr-puf', [example(INDEX)]);
      assert.equal(summary.rejectedCount, 0);
      assert.equal(summary.read, 3 + 2 + 2 + 3);
      assert.deepEqual(summary.years, [2020]);
      await expectExamples();

      // drugs-2.json repeats drugs-1.json's RxCUIs under other names and tiers: the first listing stays.
      const generic = { drug_tier: 'GENERIC', prior_authorization: 0, step_therapy: 0, quantity_limit: 0 };
      assert.deepEqual(await drugOn('209459', GOLD), generic);
      assert.deepEqual(await drugOn('209459', BRONZE), generic);
      assert.deepEqual(await drugOn('248656', GOLD), { ...generic, quantity_limit: 1 });
      assert.deepEqual(await drugOn('248656', SILVER), generic);
      assert.equal(await drugOn('248656', BRONZE), undefined);
      const tylenol = await db()
        .selectFrom('issuer_drugs')
        .select('plan_ids')
        .where('rxcui', '=', '209459')
        .executeTakeFirstOrThrow();
      assert.deepEqual(tylenol.plan_ids.split(',').sort(), [BRONZE, SILVER, GOLD]);

      const vanNostrand = await provider('1234567893');
      assert.deepEqual(
        [vanNostrand.type, vanNostrand.name, vanNostrand.gender, vanNostrand.accepting],
        ['Individual', 'Martin Van Nostrand', null, 'not accepting'],
      );
      assert.deepEqual(JSON.parse(vanNostrand.addresses), [
        {
          street_1: '123 Park Ave',
          street_2: 'Suite 120',
          city: 'New York',
          state: 'NY',
          zipcode: '10003',
          phone: '2125551212',
        },
      ]);
      assert.deepEqual(JSON.parse(vanNostrand.specialties), ['Dermatology', 'Oncology']);
      assert.deepEqual(JSON.parse(vanNostrand.languages), []);
      // The same plan listed twice, with two network tiers: one plan, both tiers.
      assert.equal(vanNostrand.plan_ids, `${GOLD},${SILVER}`);
      assert.deepEqual(JSON.parse(vanNostrand.network_tiers), {
        [GOLD]: ['PREFERRED', 'NON-PREFERRED'],
        [SILVER]: ['PREFERRED', 'NON-PREFERRED'],
      });
      const varnsen = await provider('1234567892');
      assert.deepEqual(
        [varnsen.name, varnsen.accepting, varnsen.plan_ids, JSON.parse(varnsen.addresses).length],
        ['Kel Varnsen', 'accepting', `${SILVER},${BRONZE}`, 2],
      );
      const hospital = await provider('1234567891');
      assert.deepEqual(
        [
          hospital.type,
          hospital.name,
          JSON.parse(hospital.facility_types),
          hospital.accepting,
          hospital.plan_ids,
          JSON.parse(hospital.network_tiers),
        ],
        [
          'Facility',
          'New York City Hospital',
          ['Hospital'],
          'unknown',
          GOLD,
          { [GOLD]: ['PREFERRED', 'NON-PREFERRED'] },
        ],
      );
      // The providers list 2019 too, a year plans.json does not give: left out.
      assert.equal(await suite.count('network_providers', 2019), 0);
      const [plan] = await db()
        .selectFrom('coverage_plans')
        .selectAll()
        .where('plan_id', '=', GOLD)
        .execute();
      assert.equal(plan?.marketing_name, 'Vandelay Insurance Gold Health Plan');
      assert.equal(plan?.source, 'plans.json, drugs-1.json, drugs-2.json, providers.json');
    });

    test('data files in any order: plans.json read first, then the files as given', async () => {
      const summary = await ingest(suite.storage, 'mr-puf', [...DATA].reverse().map(example));
      assert.equal(summary.rejectedCount, 0);
      assert.equal(await rowsOf('plan_drugs'), 5);
      // drugs-2.json was given first this time: its listing of 209459 is the one kept.
      assert.deepEqual(await drugOn('209459', GOLD), {
        drug_tier: 'BRAND',
        prior_authorization: 1,
        step_therapy: 0,
        quantity_limit: 0,
      });
      await ingest(suite.storage, 'mr-puf', [example(INDEX)]);
      await expectExamples();
    });

    test("another issuer's load keeps the first issuer's; a reload replaces only its own issuer", async () => {
      const other = [
        json('other-providers.json', otherProviders([2020])),
        json('other-plans.json', otherPlans([2020])),
        json('other-drugs.json', otherDrugs([2020])),
      ];
      await ingest(suite.storage, 'mr-puf', other);
      await expectExamples();
      assert.deepEqual(await coverage('67890'), [[OTHER, 1, 1]]);
      // The same NPI in two issuers' networks: a row each.
      const elsewhere = await provider('1234567893', '67890');
      assert.deepEqual(
        [elsewhere.name, elsewhere.gender, elsewhere.accepting, JSON.parse(elsewhere.addresses)[0].zipcode],
        ['Martin Nostrand Jr', 'Male', 'accepting in some locations', '12207'],
      );

      // The examples again without their network: the issuer now publishes none (DataNotProvided).
      await ingest(suite.storage, 'mr-puf', ['plans.json', 'drugs-1.json'].map(example));
      assert.deepEqual(await coverage(), [
        [BRONZE, 1, 0],
        [SILVER, 2, 0],
        [GOLD, 2, 0],
      ]);
      assert.equal(await rowsOf('network_providers'), 0);
      assert.equal(await rowsOf('network_providers', '67890'), 1);
      assert.deepEqual(await coverage('67890'), [[OTHER, 1, 1]]);
      await ingest(suite.storage, 'mr-puf', [example(INDEX)]);
      await expectExamples();
    });

    test('--year: only the entries of that year are loaded; a year plans.json lacks is an error', async () => {
      const files = [
        json('y-plans.json', otherPlans([2020, 2021])),
        json('y-drugs.json', otherDrugs([2020, 2021])),
        json('y-providers.json', otherProviders([2021])),
      ];
      const summary = await ingest(suite.storage, 'mr-puf', files, { year: 2021 });
      assert.deepEqual(summary.years, [2021]);
      assert.deepEqual(await coverage('67890', 2021), [[OTHER, 1, 1]]);
      assert.deepEqual(await coverage('67890', 2020), [[OTHER, 1, 1]]); // the load before, untouched
      const error = await failedIngest(suite.storage, 'mr-puf', DATA.map(example), { year: 2019 });
      assert.match(error.message, /no plans for 2019 in the plans files; nothing was stored/);
      await expectExamples();
    });

    test('a provider listed again (another file, another location) adds its plans, tiers and addresses', async () => {
      const providers = JSON.parse(readFileSync(example('providers.json'), 'utf8')) as Record<
        string,
        unknown
      >[];
      const again = {
        ...providers[0],
        addresses: [{ address: '9 Broadway', city: 'New York', state: 'NY', zip: '10004', phone: '' }],
        specialty: ['Oncology', 'Surgery'],
        plans: [
          { plan_id_type: 'HIOS-PLAN-ID', plan_id: GOLD, network_tier: 'TIER-2', years: [2020] },
          { plan_id_type: 'HIOS-PLAN-ID', plan_id: BRONZE, network_tier: 'PREFERRED', years: [2020] },
        ],
      };
      const second = json('providers-2.json', [again, again]);
      await ingest(suite.storage, 'mr-puf', [...DATA.map(example), second]);
      const vanNostrand = await provider('1234567893');
      assert.equal(vanNostrand.plan_ids, `${GOLD},${SILVER},${BRONZE}`);
      assert.deepEqual(JSON.parse(vanNostrand.network_tiers), {
        [GOLD]: ['PREFERRED', 'NON-PREFERRED', 'TIER-2'],
        [SILVER]: ['PREFERRED', 'NON-PREFERRED'],
        [BRONZE]: ['PREFERRED'],
      });
      assert.deepEqual(
        JSON.parse(vanNostrand.addresses).map((a: { street_1: string }) => a.street_1),
        ['123 Park Ave', '9 Broadway'],
      );
      assert.deepEqual(JSON.parse(vanNostrand.specialties), ['Dermatology', 'Oncology', 'Surgery']);
      assert.deepEqual(await coverage(), [
        [BRONZE, 1, 2],
        [SILVER, 2, 2],
        [GOLD, 2, 2],
      ]);

      // Many repeats (merged a batch at a time): every plan counts each NPI once.
      const many = Array.from({ length: 2500 }, (_, i) => ({
        npi: String(1_500_000_000 + i),
        type: 'FACILITY',
        facility_name: `Fixture clinic ${i}`,
        plans: [{ plan_id: i % 2 === 0 ? GOLD : SILVER, network_tier: 'PREFERRED', years: [2020] }],
      }));
      const repeated = many.map((p) => ({ ...p, plans: [{ ...p.plans[0], plan_id: BRONZE }] }));
      await ingest(suite.storage, 'mr-puf', [
        ...DATA.map(example),
        json('many.json', many),
        json('repeated.json', [...repeated, ...many]),
      ]);
      assert.deepEqual(await coverage(), [
        [BRONZE, 1, 2501],
        [SILVER, 2, 1252],
        [GOLD, 2, 1252],
      ]);
      await ingest(suite.storage, 'mr-puf', [example(INDEX)]);
      await expectExamples();
    });

    test('a truncated file or elements that break the schema: file and position, the previous load intact', async () => {
      const text = readFileSync(example('providers.json'), 'utf8');
      const truncated = suite.file('providers.json', text.slice(0, text.length / 2));
      const cut = await failedIngest(suite.storage, 'mr-puf', [example('plans.json'), truncated]);
      assert.match(
        cut.message,
        /providers\.json: malformed JSON \(the file ends inside the array, after element 1\)/,
      );
      await expectExamples();

      const plans = JSON.parse(readFileSync(example('plans.json'), 'utf8')) as Record<string, unknown>[];
      const badPlans = json('plans-bad.json', [
        ...plans,
        { ...plans[0], plan_id: '12345XX98765' },
        { ...plans[0], plan_id_type: 'PLAN-ID' },
        { ...plans[0], years: [] },
      ]);
      const drugs = JSON.parse(readFileSync(example('drugs-1.json'), 'utf8')) as Record<string, unknown>[];
      const badDrugs = json('drugs-bad.json', [
        drugs[0],
        { ...drugs[1], rxnorm_id: 'Zithromax' },
        { rxnorm_id: '198440', plans: [{ plan_id: OTHER, drug_tier: 'GENERIC', years: [2020] }] },
        { rxnorm_id: '198440', plans: [{ plan_id: GOLD, drug_tier: 'GENERIC', years: [2021] }] },
        {
          rxnorm_id: '198440',
          plans: [{ plan_id: GOLD, drug_tier: 'GENERIC', years: [2020], step_therapy: 'no' }],
        },
      ]);
      const badProviders = json('providers-bad.json', [
        { npi: '123', type: 'INDIVIDUAL', name: { first: 'A' }, plans: [] },
        { npi: '1234567890', type: 'ORGANIZATION', plans: [] },
        {
          npi: '1234567890',
          type: 'FACILITY',
          facility_name: 'X',
          plans: [{ plan_id: OTHER, years: [2020] }],
        },
      ]);
      const refused = await failedIngest(suite.storage, 'mr-puf', [badProviders, badDrugs, badPlans]);
      assert.deepEqual(rejectLines(refused.summary), [
        'plans-bad.json:4: plan: plan_id "12345XX98765" is not a 14-character HIOS plan id',
        `plans-bad.json:5: plan ${GOLD}: "plan_id_type" must be "HIOS-PLAN-ID"`,
        `plans-bad.json:6: plan ${GOLD}: "years" must be a non-empty array of years`,
        'drugs-bad.json:2: rxnorm_id "Zithromax" is not an RxCUI',
        `drugs-bad.json:3: drug 198440: plan ${OTHER} is not in the plans file`,
        // 2021 is a year the load does not replace for this issuer: left out, not refused.
        `drugs-bad.json:5: drug 198440, plans[0]: "step_therapy" must be true or false`,
        'providers-bad.json:1: npi "123" is not a 10-digit NPI',
        'providers-bad.json:2: provider 1234567890: type "ORGANIZATION" is not INDIVIDUAL or FACILITY',
        `providers-bad.json:3: provider 1234567890: plan ${OTHER} is not in the plans file`,
      ]);
      await expectExamples();

      const notArray = await failedIngest(suite.storage, 'mr-puf', [
        example('plans.json'),
        json('object.json', { rxnorm_id: '1' }),
      ]);
      assert.match(
        notArray.message,
        /object\.json: neither an index \(.*\) nor a JSON array of plans, drugs or providers/,
      );
      const unknown = await failedIngest(suite.storage, 'mr-puf', [
        example('plans.json'),
        json('x.json', [1]),
      ]);
      assert.match(unknown.message, /x\.json: neither plans, drugs nor providers/);
      await expectExamples();
    });
  },
);
