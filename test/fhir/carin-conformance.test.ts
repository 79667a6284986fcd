import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EOB_TYPE_SYSTEM, EOB_TYPES } from '../../src/fhir/validate.js';
import { carinValidator, skipWithoutCarinPackage, type CarinValidator } from '../helpers/carin-validator.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { issueTokens, type TokenBody } from '../helpers/token-calls.js';

/**
 * The proof of issue 16 (CARIN Blue Button 2.0.0, "resources meet the profiles they claim"): a client of
 * the running service, holding a token for each of a sample of sandbox enrollees, reads everything the
 * CARIN server statement (CapabilityStatement/c4bb) has it read — the Patient, the Coverages with
 * `_include=Coverage:payor`, every page of ExplanationOfBenefit with `_include=ExplanationOfBenefit:*`, EOBs
 * by id, and every Organization and Practitioner they refer to by id — and every resource received, match
 * or include, validates against base R4 and the C4BB profile it claims (Medplum + carin-checks.ts).
 *
 * The sample: with the sandbox seed, enrollees 0 and 2 together have claims of all eight Blue Button claim
 * types (0: carrier, dme, hha, inpatient, outpatient, pde, snf; 2 adds hospice and has Part C, whose
 * payor is a second Organization). The first test checks that the sample still covers them.
 *
 * Run for both shapes of the sandbox's claims (SANDBOX_CLAIMS): Blue Button's (`rif`, the default: made from
 * CCW RIF records as BFD makes them, providers and payors named by identifier, so `_include` finds only the
 * Patient and the Coverages, and there is no directory to read; with and without `IncludeTaxNumbers`) and
 * CARIN NDJSON's (`carin`, claims that refer to Organization and Practitioner resources by id).
 */

const skip = skipWithoutCarinPackage();
const SAMPLE = [0, 2];
const PAGE = 10; // several EOB pages per enrollee, so includes are checked page by page

type Json = Record<string, unknown>;
interface Resource extends Json {
  resourceType: string;
  id: string;
  meta?: { versionId?: string; profile?: string[] };
}
interface Bundle {
  total: number;
  link: { relation: string; url: string }[];
  entry?: { fullUrl: string; resource: Resource; search?: { mode: string } }[];
}

for (const shape of ['rif', 'carin'] as const) {
  describe(`SANDBOX_CLAIMS=${shape}`, { skip }, () => conformanceSuite(shape));
}

function conformanceSuite(shape: 'rif' | 'carin'): void {
  let running: RunningService;
  let validator: CarinValidator;
  let supportedProfiles: Map<string, string[]>;
  const tokens = new Map<number, TokenBody>();

  before(async () => {
    validator = carinValidator();
    running = await startService({ SANDBOX_ENROLLEES: '3', SANDBOX_CLAIMS: shape });
    const app = await createTestApp(running);
    for (const n of SAMPLE) tokens.set(n, await issueTokens(running, app, { enrollee: n }));
    const metadata = (await (await fetch(`${running.url}/v2/fhir/metadata`)).json()) as {
      rest: { resource: { type: string; supportedProfile: string[] }[] }[];
    };
    supportedProfiles = new Map(metadata.rest[0]!.resource.map((r) => [r.type, r.supportedProfile]));
  });
  after(() => running.close());

  async function get<T = Resource>(
    n: number,
    path: string,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const url = path.startsWith('http') ? path : `${running.url}${path}`;
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${tokens.get(n)!.access_token}`, ...headers },
    });
    const text = await response.text();
    assert.equal(response.status, 200, `${path}: ${text}`);
    return JSON.parse(text) as T;
  }

  /**
   * Validation of every resource received, once per version: the same `Type/id` at the same `versionId`
   * must be the same resource wherever it was received (read, match or include), so a repeat is compared,
   * not validated again (Medplum's validation is slow: figures in bench/RESULTS.md).
   */
  const validated = new Map<string, Resource>();
  function conform(resource: Resource, where: string): string[] {
    const key = `${resource.resourceType}/${resource.id}/_history/${resource.meta?.versionId}`;
    const seen = validated.get(key);
    if (seen) {
      assert.deepEqual(resource, seen, `${key} differs between answers (${where})`);
      return [];
    }
    validated.set(key, resource);
    const problems: string[] = [];
    if (!resource.meta?.versionId) problems.push('no meta.versionId');
    const claimed = resource.meta?.profile ?? [];
    if (claimed.length === 0) problems.push('claims no profile');
    const listed = supportedProfiles.get(resource.resourceType) ?? [];
    for (const profile of claimed) {
      if (!listed.includes(profile)) problems.push(`claims ${profile}, not in the CapabilityStatement`);
    }
    problems.push(...validator.errors(resource));
    return problems.map((p) => `${where} ${resource.resourceType}/${resource.id}: ${p}`);
  }

  function conformAll(resources: Resource[], where: string): void {
    assert.deepEqual(
      resources.flatMap((r) => conform(r, where)),
      [],
    );
  }

  /** Literal references `Type/id` to the directory, in any received resource. */
  function directoryRefs(resource: unknown, into: Set<string>): Set<string> {
    if (Array.isArray(resource)) resource.forEach((v) => directoryRefs(v, into));
    else if (typeof resource === 'object' && resource !== null) {
      for (const [key, value] of Object.entries(resource)) {
        if (
          key === 'reference' &&
          typeof value === 'string' &&
          /^(Organization|Practitioner)\/[^/]+$/.test(value)
        )
          into.add(value);
        else directoryRefs(value, into);
      }
    }
    return into;
  }

  /** All pages of a search, following `next`; every link must keep the `_include`. */
  async function allPages(n: number, path: string, include: string) {
    const matches: Resource[] = [];
    const included: Resource[] = [];
    let bundle = await get<Bundle>(n, path);
    let total: number | undefined;
    for (;;) {
      total ??= bundle.total;
      assert.equal(bundle.total, total, 'total is the same on every page');
      for (const link of bundle.link) {
        assert.deepEqual(new URL(link.url).searchParams.getAll('_include'), [include], link.relation);
      }
      for (const e of bundle.entry ?? [])
        (e.search?.mode === 'include' ? included : matches).push(e.resource);
      const next = bundle.link.find((l) => l.relation === 'next');
      if (!next) break;
      bundle = await get<Bundle>(n, next.url.replace(/^https?:\/\/[^/]+/, ''));
    }
    assert.equal(matches.length, total, 'every match is on some page');
    return { matches, included };
  }

  const claimType = (eob: Resource) =>
    (eob.type as { coding: { system: string; code: string }[] }).coding
      .find((c) => c.system === EOB_TYPE_SYSTEM)!
      .code.toLowerCase();

  describe('CARIN BB 2.0.0: every resource a client receives validates against R4 and its C4BB profile', () => {
    const eobs = new Map<number, Resource[]>();
    const references = new Map<number, Set<string>>();

    for (const n of SAMPLE) {
      test(`enrollee ${n}: Patient read (C4BB-Patient, CARIN server statement Patient read SHALL)`, async () => {
        const patient = await get(n, `/v2/fhir/Patient/${tokens.get(n)!.patient}`);
        conformAll([patient], 'read');
      });

      test(`enrollee ${n}: Coverage search with _include=Coverage:payor (C4BB-Coverage, C4BB-Organization)`, async () => {
        const { matches, included } = await allPages(
          n,
          '/v2/fhir/Coverage?_include=Coverage:payor',
          'Coverage:payor',
        );
        assert.ok(matches.length >= 3, 'Parts A, B, D at least');
        const payors = new Set(
          matches.flatMap((c) =>
            (c.payor as { reference?: string }[]).flatMap((p) => (p.reference ? [p.reference] : [])),
          ),
        );
        // BFD names the payor by identifier (CMS), so a Blue Button Coverage has nothing to include.
        assert.equal(payors.size === 0, shape === 'rif');
        assert.deepEqual(new Set(included.map((r) => `${r.resourceType}/${r.id}`)), payors);
        conformAll([...matches, ...included], 'Coverage search');
        references.set(n, directoryRefs(matches, new Set()));
      });

      test(`enrollee ${n}: every EOB page with _include=ExplanationOfBenefit:* (FHIR R4 §3.1.1.5.5; C4BB EOB profiles)`, async () => {
        const { matches, included } = await allPages(
          n,
          `/v2/fhir/ExplanationOfBenefit?_count=${PAGE}&_include=ExplanationOfBenefit:*`,
          'ExplanationOfBenefit:*',
        );
        eobs.set(n, matches);
        const types = new Set(included.map((r) => r.resourceType));
        assert.deepEqual(
          [...types].sort(),
          shape === 'rif' ? ['Coverage', 'Patient'] : ['Coverage', 'Organization', 'Patient', 'Practitioner'],
        );
        conformAll([...matches, ...included], 'EOB search');
        directoryRefs(matches, references.get(n)!);
      });

      test(`enrollee ${n}: EOB reads, one of each claim type (CARIN server statement EOB read SHALL)`, async () => {
        const byType = new Map<string, Resource>();
        for (const eob of eobs.get(n)!) if (!byType.has(claimType(eob))) byType.set(claimType(eob), eob);
        const read = await Promise.all(
          [...byType.values()].map((e) => get(n, `/v2/fhir/ExplanationOfBenefit/${e.id}`)),
        );
        conformAll(read, 'EOB read');
        if (shape === 'rif') {
          const withTaxNumbers = await Promise.all(
            [...byType.values()].map((e) =>
              get(n, `/v2/fhir/ExplanationOfBenefit/${e.id}`, { IncludeTaxNumbers: 'true' }),
            ),
          );
          for (const r of withTaxNumbers) r.id = `${r.id}-with-tax-numbers`; // validated, not compared
          conformAll(withTaxNumbers, 'EOB read with IncludeTaxNumbers');
        }
      });

      test(
        `enrollee ${n}: every Organization and Practitioner referred to, read by id (C4BB-Organization, C4BB-Practitioner)`,
        { skip: shape === 'rif' && 'Blue Button claims refer to no directory' },
        async () => {
          const refs = [...references.get(n)!];
          assert.ok(
            refs.some((r) => r.startsWith('Practitioner/')) &&
              refs.some((r) => r.startsWith('Organization/')),
          );
          const read = await Promise.all(refs.map((ref) => get(n, `/v2/fhir/${ref}`)));
          assert.deepEqual(
            read.map((r) => `${r.resourceType}/${r.id}`),
            refs,
          );
          conformAll(read, 'directory read');
        },
      );
    }

    test('the sample covers all eight Blue Button claim types, and every C4BB profile the server lists for EOBs', () => {
      const all = SAMPLE.flatMap((n) => eobs.get(n) ?? []);
      assert.deepEqual([...new Set(all.map(claimType))].sort(), [...EOB_TYPES].sort());
      const claimed = new Set(all.flatMap((e) => e.meta!.profile!));
      assert.deepEqual([...claimed].sort(), [...supportedProfiles.get('ExplanationOfBenefit')!].sort());
      assert.ok(validated.size > all.length, `validated ${validated.size} distinct resources`);
    });

    test('the check bites: a received EOB without its required outcome and insurer fails it', () => {
      const broken = structuredClone(eobs.get(SAMPLE[0]!)![0]!);
      broken.id = 'broken-copy';
      delete broken.outcome;
      delete broken.insurer;
      const problems = conform(broken, 'mutated');
      assert.ok(
        problems.some((p) => p.includes('outcome')),
        problems.join('\n'),
      );
      assert.ok(
        problems.some((p) => p.includes('insurer')),
        problems.join('\n'),
      );
    });
  });
}
