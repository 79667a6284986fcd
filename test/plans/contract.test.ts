import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import { closeObjects, readCmsDocument } from '../helpers/cms-document.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { nppesCsv, nuccCsv } from '../helpers/npi-fixture.js';
import { writeBundledGazetteer } from '../../src/ingest/zip-locations/bundled.js';
import { writeRxnormFiles } from '../helpers/rxnorm-fixture.js';
import { REAL, SANDBOX_KEY, filesOf, loadFictionalPlan, planApiSuite } from './plan-api.js';

/**
 * Our answers checked against the CMS Marketplace API document (swagger 2.0, published at
 * https://developer.cms.gov/marketplace-api/; the test reads its copy in
 * `../shared/reference/marketplace-api/openapi.json`).
 * Stricter than the document: an object may carry no property the document does not name, so every field we
 * add or reshape is listed below with its reason, and each entry is checked to be needed (without it, some
 * answer fails). docs/decisions.md#cms-document-corrections records these differences and their evidence.
 */
type Schema = Record<string, unknown>;
type Responses = { responses: Record<string, { schema?: Schema }> };
interface Document {
  definitions: Record<string, Schema>;
  paths: Record<string, { get?: Responses; post?: Responses }>;
}

const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
const definition = (doc: Document, name: string) => doc.definitions[name]!;
const props = (schema: Schema) => schema.properties as Record<string, Schema>;

const CORRECTIONS: { where: string; change: string; reason: string; apply(doc: Document): void }[] = [
  {
    where: 'ApplicationError400, ApplicationError404',
    change: '`message` and `error` instead of `msg` and `err`; all four fields always present',
    reason: 'the deployed service sends message/error (docs/decisions.md#plan-errors)',
    apply(doc) {
      for (const name of ['ApplicationError400', 'ApplicationError404']) {
        const schema = definition(doc, name);
        const { code, status, msg, err } = props(schema);
        schema.properties = { code, status, message: msg, error: err };
        schema.required = ['code', 'status', 'message', 'error'];
      }
    },
  },
  {
    where: 'State',
    change: '`marketplace_model` / `shop_marketplace_model` instead of `marketplace` / `shop_marketplace`',
    reason: "the names of the document's own State examples and of live clients",
    apply(doc) {
      const p = props(definition(doc, 'State'));
      p.marketplace_model = p.marketplace!;
      p.shop_marketplace_model = p.shop_marketplace!;
    },
  },
  {
    where: 'GET /issuers 200',
    change: '`total` added',
    reason: 'the endpoint description promises `total` (the count before paging)',
    apply(doc) {
      props(doc.paths['/issuers']!.get!.responses['200']!.schema!).total = { type: 'integer' };
    },
  },
  {
    where: 'DataVersion',
    change: '`kind`, `year`, `source` and `sample` added',
    reason:
      'which ingest kind and plan year a dataset is, the files it came from, and whether it is the ' +
      'generated sample market: issue 4 asks for the sample to be labelled as sample in /versions',
    apply(doc) {
      const p = props(definition(doc, 'DataVersion'));
      p.kind = { type: 'string' };
      p.year = { type: 'integer' };
      p.source = { type: 'string' };
      p.sample = { type: 'boolean' };
    },
  },
  {
    where: 'Plan',
    change: '`design_type` and `is_standardized_plan` added',
    reason: 'live-only fields of the deployed service; the document names design_type in "Standard Plans"',
    apply(doc) {
      const p = props(definition(doc, 'Plan'));
      p.design_type = { $ref: '#/definitions/DesignTypeEnum' };
      p.is_standardized_plan = { type: 'boolean' };
    },
  },
  {
    where: 'Plan.metal_level',
    change: 'dental plans keep the PUF level `High` / `Low`',
    reason:
      'MetalLevelEnum has no dental levels; the Plan Attributes PUF gives stand-alone dental plans High/Low',
    apply(doc) {
      props(definition(doc, 'Plan')).metal_level = {
        anyOf: [{ $ref: '#/definitions/MetalLevelEnum' }, { enum: ['High', 'Low'] }],
      };
    },
  },
  {
    where: 'Deductible.amount, MOOP.amount',
    change: 'null when the source states no amount',
    reason:
      'landscape cells such as "Included in Medical" or "See Plan Brochure" have no number; never invented',
    apply(doc) {
      for (const name of ['Deductible', 'MOOP']) {
        const p = props(definition(doc, name));
        p.amount = nullable(p.amount!);
      }
    },
  },
  {
    where: 'Benefit',
    change: '`type` added (the benefit name upper-snake-cased)',
    reason: 'live-only field of the deployed service that clients key on',
    apply(doc) {
      props(definition(doc, 'Benefit')).type = { type: 'string' };
    },
  },
  {
    where: 'CostSharing (copay/coinsurance amounts and options), Benefit.limit_quantity',
    change: 'null when the Benefits PUF cell states none ("Not Applicable", no limit)',
    reason: 'an absent amount is not 0; never invented',
    apply(doc) {
      const sharing = props(definition(doc, 'CostSharing'));
      for (const field of ['copay_amount', 'copay_options', 'coinsurance_rate', 'coinsurance_options']) {
        sharing[field] = nullable(sharing[field]!);
      }
      const benefit = props(definition(doc, 'Benefit'));
      benefit.limit_quantity = nullable(benefit.limit_quantity!);
    },
  },
  {
    where: 'Plan premium fields',
    change:
      '`premium`, `premium_w_credit`, `ehb_premium`, `aptc_eligible_premium` null, with `premium_unavailable` saying why, when the plan has no rate for the household',
    reason: 'a missing rate is never invented (issue 5: "the API says so instead of inventing one")',
    apply(doc) {
      const p = props(definition(doc, 'Plan'));
      for (const field of ['premium', 'premium_w_credit', 'ehb_premium', 'aptc_eligible_premium']) {
        p[field] = nullable(p[field]!);
      }
      p.premium_unavailable = { type: 'string' };
    },
  },
  {
    where: 'Plan.pediatric_ehb_premium',
    change: 'null when the plan states no pediatric dental EHB apportionment',
    reason: 'the apportionment is not in the files we load; 0 would claim it is known',
    apply(doc) {
      const p = props(definition(doc, 'Plan'));
      p.pediatric_ehb_premium = nullable(p.pediatric_ehb_premium!);
    },
  },
  {
    where:
      'Plan.max_age_child, tobacco_lookback, covers_nonhyde_abortion, simple_choice, suppression_state, certification, network_adequacy, rx_3mo_mail_order',
    change:
      'null when no loaded file states them (no Business Rules PUF rule; the benefit not listed); the last five are in no public file',
    reason: 'docs/decisions.md#plan-fields: an unknown value is not false, 0 or an empty string',
    apply(doc) {
      const p = props(definition(doc, 'Plan'));
      for (const field of [
        'max_age_child',
        'tobacco_lookback',
        'covers_nonhyde_abortion',
        'simple_choice',
        'suppression_state',
        'certification',
        'network_adequacy',
        'rx_3mo_mail_order',
      ]) {
        p[field] = nullable(p[field]!);
      }
    },
  },
  {
    where: 'Plan',
    change: '`rate_source` added (rate-puf, landscape or none)',
    reason: 'whether a premium is a Rate PUF rate or derived from a QHP Landscape file (issue 5)',
    apply(doc) {
      props(definition(doc, 'Plan')).rate_source = { type: 'string' };
    },
  },
  {
    where: 'Eligibility',
    change: '`in_coverage_gap` added',
    reason: 'issue 5 asks for it; four independent clients type it',
    apply(doc) {
      props(definition(doc, 'Eligibility')).in_coverage_gap = { type: 'boolean' };
    },
  },
  {
    where: 'Eligibility.csr',
    change: '"Exchange variant (no CSR)" for a person without a CSR',
    reason: 'CSREligibilityEnum has only the three silver levels; an absent value would be ambiguous',
    apply(doc) {
      props(definition(doc, 'Eligibility')).csr = {
        anyOf: [{ $ref: '#/definitions/CSREligibilityEnum' }, { enum: ['Exchange variant (no CSR)'] }],
      };
    },
  },
  {
    where: 'POST /plans/search 200, POST /plans 200, POST /plans/{plan_id} 200, GET /plans/{plan_id} 200',
    change: '`data_notes` added (premiums, benefits, plans: what the loaded data could not tell)',
    reason:
      'issue 17: an answer says once why its premiums, benefits or plans are missing (here: no Benefits ' +
      'PUF for 2014) instead of zeros or empty lists read as facts',
    apply(doc) {
      const notes = {
        type: 'object',
        properties: { premiums: { type: 'string' }, benefits: { type: 'string' }, plans: { type: 'string' } },
        additionalProperties: false,
      };
      for (const path of ['/plans/search', '/plans', '/plans/{plan_id}']) {
        props(doc.paths[path]!.post!.responses['200']!.schema!).data_notes = notes;
      }
      props(doc.paths['/plans/{plan_id}']!.get!.responses['200']!.schema!).data_notes = notes;
    },
  },
  {
    where: 'POST /plans/search 200 ranges.premiums',
    change: '`min` and `max` null when no plan of the result has a premium for the household',
    reason:
      'issue 17: 0 to 0 reads as free plans (here: a tobacco user, and the QHP Landscape publishes ' +
      'non-tobacco premiums only)',
    apply(doc) {
      const ranges = props(doc.paths['/plans/search']!.post!.responses['200']!.schema!).ranges!;
      // The document's ranges refer to a shared `Range` definition: the premiums get their own copy.
      props(ranges).premiums = {
        type: 'object',
        properties: { min: nullable({ type: 'number' }), max: nullable({ type: 'number' }) },
        additionalProperties: false,
      };
    },
  },
  {
    where: 'GET /drugs/autocomplete 200',
    change: 'a bare array of Drug instead of `{drugs: Drug[]}`',
    reason: 'the deployed service answers a bare array, as live client fixtures show',
    apply(doc) {
      doc.paths['/drugs/autocomplete']!.get!.responses['200']!.schema = {
        type: 'array',
        items: { $ref: '#/definitions/Drug' },
      };
    },
  },
  {
    where: 'GET /drugs/covered 200, GET /providers/covered 200',
    change: '`coverage` instead of the key "Provider & Drug Coverage"',
    reason: "the document's generator named the key after the tag; the deployed service sends `coverage`",
    apply(doc) {
      for (const path of ['/drugs/covered', '/providers/covered']) {
        const schema = doc.paths[path]!.get!.responses['200']!.schema!;
        const p = props(schema);
        p.coverage = p['Provider & Drug Coverage']!;
        delete p['Provider & Drug Coverage'];
        schema.required = ['coverage'];
      }
    },
  },
];

/** Validators for a path's 200 answer and the error bodies, from the document with `corrections` applied. */
function validators(corrections: typeof CORRECTIONS) {
  const doc = readCmsDocument<Document>();
  closeObjects(doc.definitions);
  for (const path of Object.values(doc.paths)) {
    closeObjects(path.get?.responses);
    closeObjects(path.post?.responses);
  }
  for (const correction of corrections) correction.apply(doc);
  // The document's `format` values ("^[0-9]{5}$", "integer", "float") are not JSON Schema formats.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc as unknown as Schema, 'cms');
  const pointer = (path: string) => encodeURIComponent(path.replace(/~/g, '~0').replace(/\//g, '~1'));
  const cache = new Map<string, ValidateFunction>();
  return (ref: string) => {
    // `POST /path` for a POST answer, `/path` for a GET answer, a name for a definition.
    const post = ref.startsWith('POST ');
    const path = post ? ref.slice(5) : ref;
    const target = path.startsWith('/')
      ? `cms#/paths/${pointer(path)}/${post ? 'post' : 'get'}/responses/${path.startsWith('/data/') ? 302 : 200}/schema`
      : `cms#/definitions/${ref}`;
    let validate = cache.get(target);
    if (!validate) cache.set(target, (validate = ajv.compile({ $ref: target })));
    return validate;
  };
}

const loads = [
  REAL.counties,
  REAL.zipCounty,
  REAL.ratingAreas2025,
  REAL.medicaid,
  REAL.landscapeIdaho2014,
  REAL.businessRules2014,
  REAL.planAttributes2025,
];
const skip =
  skipWithoutSharedData(...filesOf(...loads)) ||
  (skipWithoutSharedData('../reference/marketplace-api/openapi.json') && 'the CMS document is absent');

/** Each request, and the CMS path (200) or definition (errors) its answer must match. */
const CALLS: [request: string, schema: string][] = [
  ['/versions', '/versions'],
  // Bulk data (the document's 302 schema: the deployed service redirects to the file). The fictional plan
  // of 2031 makes 2030 and 2031 the served years; bulk-data.test.ts checks every document.
  ['/data/county-zips?year=2031', '/data/county-zips'],
  ['/data/rate-areas?year=2030', '/data/rate-areas'],
  ['/market-years', '/market-years'],
  ['/counties/by/zip/75007', '/counties/by/zip/{zipcode}'],
  ['/counties/by/zip/7500', '/counties/by/zip/{zipcode}'],
  ['/counties/by/zip/00000', '/counties/by/zip/{zipcode}'],
  ['/counties/48113', '/counties/{fips}'],
  ['/states?year=2025', '/states'],
  ['/states/TX?year=2025', '/states/{abbrev}'],
  ['/states/CA?year=2030', '/states/{abbrev}'],
  ['/states/KS/medicaid?year=2025', '/states/{abbrev}/medicaid'],
  ['/states/FL/medicaid?year=2025', '/states/{abbrev}/medicaid'],
  ['/states/CA/medicaid?year=2014', '/states/{abbrev}/medicaid'],
  ['/states/HI/poverty-guidelines?year=2017', '/states/{abbrev}/poverty-guidelines'],
  ['/rate-areas?state=TX&fips=48113&zipcode=75001&year=2025', '/rate-areas'],
  ['/rate-areas?state=ID&fips=16001&zipcode=83702&year=2014', '/rate-areas'],
  ['/issuers?year=2025&state=TX', '/issuers'],
  ['/issuers/11718?year=2025', '/issuers/{issuer_id}'],
  ['/issuers/59765?year=2014', '/issuers/{issuer_id}'],
  ['/plans/11718TX0140020?year=2025', '/plans/{plan_id}'],
  ['/plans/11339KS0010007?year=2025', '/plans/{plan_id}'],
  ['/plans/26002ID0010001?year=2014', '/plans/{plan_id}'],
  ['/plans/99999TX0010001?year=2031', '/plans/{plan_id}'],
  ['/plans/99999TX0010001/quality-ratings?year=2026', '/plans/{plan_id}/quality-ratings'],
  ['/plans/99999TX0010002/quality-ratings?year=2026', '/plans/{plan_id}/quality-ratings'],
  ['/crosswalk?year=2025&plan_id=99999TX0010001&state=TX&zipcode=77002&fips=48201', '/crosswalk'],
  ['/crosswalk?year=2025&plan_id=99999TX0010001&state=TX&zipcode=77003&fips=48201', '/crosswalk'],
  ['/households/pcfpl?year=2026&state=VA&size=5&income=40000', '/households/pcfpl'],
  ['/drugs/autocomplete?q=acetam', '/drugs/autocomplete'],
  ['/drugs/search?q=acetaminophen&limit=2', '/drugs/search'],
  ['/drugs/search?q=acetaminophen&limit=2&offset=2', '/drugs/search'],
  ['/drugs/covered?drugs=198440,209459&planids=11718TX0140020&year=2025', '/drugs/covered'],
  ['/coverage/stats', '/coverage/stats'],
  ['/coverage/stats?year=2020', '/coverage/stats'],
  ['/providers/search?q=steinberg&zipcode=10029', '/providers/search'],
  ['/providers/search?q=vascular&zipcode=30338&type=Facility&limit=1', '/providers/search'],
  ['/providers/autocomplete?q=stein&zipcode=10029&type=Individual', '/providers/autocomplete'],
  ['/coverage/search?q=steinberg&zipcode=10029', '/coverage/search'],
  [
    '/providers/covered?providerids=1234567893,1234567891&planids=12345XX9876543,12345XX9876541&year=2020',
    '/providers/covered',
  ],
  ['/drugs/covered?drugs=209459,248656&planids=12345XX9876543,12345XX9876541&year=2020', '/drugs/covered'],
  // Every error code the lookups give.
  ['/counties/48999', 'ApplicationError404'],
  ['/states/NP', 'ApplicationError404'],
  ['/counties/4811', 'ApplicationError400'],
  ['/rate-areas?state=CA&fips=06037&zipcode=90210&year=2025', 'ApplicationError400'],
  ['/issuers/00000?year=2025', 'ApplicationError404'],
  ['/crosswalk?year=2025&plan_id=99999TX0010001&state=TX&zipcode=75001&fips=48113', 'ApplicationError404'],
  ['/plans/11718TX0140020?year=2024', 'ApplicationError404'],
  ['/states/KS/medicaid?year=2013', 'ApplicationError404'],
  ['/states/KS/poverty-guidelines?year=2013', 'ApplicationError400'],
  ['/households/pcfpl?year=2013&state=VA&size=5&income=40000', 'ApplicationError404'],
  ['/plans/99999TX0010003/quality-ratings?year=2026', 'ApplicationError404'],
  ['/rate-areas?state=TX&fips=48113&zipcode=75001&year=2024', 'ApplicationError404'],
  ['/drugs/autocomplete?q=ac', 'ApplicationError400'],
  ['/drugs/covered?drugs=198440&planids=11718TX014', 'ApplicationError400'],
  ['/drugs/covered?drugs=99999999&planids=11718TX0140020', 'ApplicationError404'],
  ['/providers/covered?providerids=1234567890&planids=11718TX0140020', 'ApplicationError404'],
  ['/providers/search?q=st&zipcode=10029', 'ApplicationError400'],
  ['/providers/search?q=steinberg&zipcode=00001', 'ApplicationError400'],
];

/** Priced requests (Idaho 2014, real QHP Landscape premiums), and the CMS schema of each answer. */
const ADA = { countyfips: '16001', state: 'ID', zipcode: '83702' };
const adult = (age: number, more: Record<string, unknown> = {}) => ({
  age,
  aptc_eligible: true,
  gender: 'Female',
  uses_tobacco: false,
  ...more,
});
const POSTS: [path: string, body: unknown, schema: string][] = [
  [
    '/plans/search',
    { household: { income: 30_000, people: [adult(40)] }, market: 'Individual', place: ADA, year: 2014 },
    'POST /plans/search',
  ],
  [
    '/plans/search',
    {
      household: { income: 30_000, people: [adult(40, { uses_tobacco: true })] },
      market: 'Individual',
      place: ADA,
      year: 2014,
    },
    'POST /plans/search',
  ],
  [
    '/plans/search/stats',
    { household: { income: 30_000, people: [adult(40)] }, market: 'Individual', place: ADA, year: 2014 },
    'POST /plans/search/stats',
  ],
  [
    '/plans',
    {
      household: { income: 30_000, people: [adult(40)] },
      place: ADA,
      year: 2014,
      plan_ids: ['26002ID0010001'],
    },
    'POST /plans',
  ],
  [
    '/plans/26002ID0010001',
    { household: { income: 30_000, people: [adult(40)] }, market: 'Individual', place: ADA, year: 2014 },
    'POST /plans/{plan_id}',
  ],
  [
    '/households/eligibility/estimates',
    { household: { income: 30_000, people: [adult(40), adult(9)] }, place: ADA, year: 2014 },
    'POST /households/eligibility/estimates',
  ],
  [
    '/households/eligibility/estimates',
    { household: { income: 60_000, people: [adult(40)] }, place: ADA, year: 2014 },
    'POST /households/eligibility/estimates',
  ],
  [
    '/households/slcsp',
    { household: { income: -1, people: [adult(40)] }, place: ADA, year: 2014 },
    'POST /households/slcsp',
  ],
  [
    '/households/lcsp',
    { household: { income: -1, people: [adult(40)] }, place: ADA, year: 2014 },
    'POST /households/lcsp',
  ],
  [
    '/households/lcbp',
    { household: { income: -1, people: [adult(40)] }, place: ADA, year: 2014 },
    'POST /households/lcbp',
  ],
  [
    '/households/ichra',
    { household: { income: 30_000, people: [adult(40)] }, place: ADA, year: 2014, hra: 100 },
    'POST /households/ichra',
  ],
  // Errors of the priced endpoints.
  ['/plans/search', { market: 'Individual', place: { ...ADA, countyfips: '4800' } }, 'ApplicationError400'],
  [
    '/plans/99999ID0010001',
    { household: { income: 30_000, people: [adult(40)] }, market: 'Individual', place: ADA, year: 2014 },
    'ApplicationError404',
  ],
];

describe(
  'plan API answers match the CMS Marketplace API document (with the corrections listed)',
  { skip },
  () => {
    const api = planApiSuite(loads);
    const answers: { request: string; schema: string; body: unknown }[] = [];

    before(async () => {
      const storage = api.running.service.storage;
      const dir = mkdtempSync(join(tmpdir(), 'contract-coverage-'));
      await ingest(storage, 'rxnorm', writeRxnormFiles(dir));
      // Real NPI Registry records in the NPPES layout, the Census 2021 ZCTA points, the CMS MR-PUF examples.
      writeFileSync(join(dir, 'npidata.csv'), nppesCsv());
      writeFileSync(join(dir, 'nucc.csv'), nuccCsv());
      await ingest(storage, 'zip-locations', [await writeBundledGazetteer(dir)]);
      await ingest(storage, 'nppes', [join(dir, 'npidata.csv')]);
      await ingest(storage, 'nucc-taxonomy', [join(dir, 'nucc.csv')]);
      await ingest(storage, 'mr-puf', [sharedData('mr_puf_examples/cms-data-index.json')]);
      // No QRS, Crosswalk or Benefits PUF in ../shared/data: rows in their layouts, fictional issuer 99999.
      await loadFictionalPlan(api);
      const rating = (plan: string, value: string) => ({
        IssuerID: '99999',
        State: 'TX',
        PlanID: plan,
        OverallRatingValue: value,
        MedicalCareRatingValue: value,
        MemberExperienceRatingValue: value,
        PlanAdministrationRatingValue: value,
      });
      await api.loadFixture(
        'quality',
        api.csv('qrs-2026.csv', [
          rating('99999TX0010001', '4'),
          rating('99999TX0010002', 'NR - New-Ineligible for Scoring'),
        ]),
        2026,
      );
      const crosswalk = (zip: string, next: string) => ({
        State: 'TX',
        PlanID_2025: '99999TX0010001',
        FIPSCode: '48201',
        ZipCode: zip,
        CrosswalkLevel: next ? '1' : '4',
        ReasonForCrosswalk: next ? '2' : '8',
        PlanID_2026: next,
        AgeOffPlanID_2026: '',
      });
      await api.loadFixture(
        'crosswalk',
        api.csv('crosswalk.csv', [crosswalk('77002', '99999TX0010007'), crosswalk('77003', '')]),
      );
      for (const [request, schema] of CALLS) {
        const response = await api.get(request);
        const expectError = !schema.startsWith('/');
        assert.equal(
          response.ok,
          !expectError,
          `${request}: ${response.status} ${await response.clone().text()}`,
        );
        answers.push({ request, schema, body: await response.json() });
      }
      for (const [path, body, schema] of POSTS) {
        const url = new URL(`/api/v1${path}?apikey=${SANDBOX_KEY}`, api.running.url);
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const expectError = !schema.startsWith('POST ');
        const text = await response.text();
        assert.equal(response.ok, !expectError, `POST ${path}: ${response.status} ${text.slice(0, 300)}`);
        answers.push({ request: `POST ${path}`, schema, body: JSON.parse(text) });
      }
    });

    test('every answer validates against the corrected document', () => {
      const validate = validators(CORRECTIONS);
      for (const { request, schema, body } of answers) {
        const check = validate(schema);
        assert.ok(
          check(body),
          `${request} vs ${schema}: ${JSON.stringify(check.errors?.slice(0, 3), null, 1)}`,
        );
      }
    });

    for (const [index, correction] of CORRECTIONS.entries()) {
      test(`the correction "${correction.where}: ${correction.change}" is needed`, () => {
        const validate = validators(CORRECTIONS.filter((_, i) => i !== index));
        const failing = answers.filter(({ schema, body }) => !validate(schema)(body));
        assert.ok(failing.length > 0, 'no answer needs it: remove it from the table');
      });
    }
  },
);
