import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { rifDate } from '../../src/fhir/bfd/rif-record.js';
import { EOB_TYPES } from '../../src/fhir/validate.js';
import { CARRIER_SERVICES, DIAGNOSES, DME_ITEMS, DRUGS, REVENUE_LINES } from '../../src/fhir/sample-codes.js';
import { sandboxIdentity } from '../../src/fhir/sandbox-identity.js';
import { splitCells } from '../../src/ingest/rif/cells.js';
import { RIF_COLUMNS } from '../../src/ingest/rif/columns.js';
import { recogniseHeader } from '../../src/ingest/rif/header.js';
import { valueCheck } from '../../src/ingest/rif/values.js';
import {
  SYNTHETIC_RECORD_TYPES,
  syntheticEnrolleeRecords,
  syntheticRifRecords,
  type SyntheticRecord,
} from '../../src/ingest/rif/synthetic/generate.js';
import { writeSyntheticRif, type SyntheticRifFile } from '../../src/ingest/rif/synthetic/write.js';
import { SANDBOX_SEED } from '../../src/ingest/sandbox-claims.js';
import { runCli } from '../helpers/cli.js';
import { createTestApp, createTestDatabase, startService, type RunningService } from '../helpers/service.js';
import { issueTokens, type TestApp, type TokenBody } from '../helpers/token-calls.js';

// The sandbox's synthetic claims as CCW RIF files (src/ingest/rif/synthetic/), and what the sandbox serves
// once its first start has loaded them through `ingest rif` (docs/decisions.md#sandbox-enrollees).

const ENROLLEES = 3;
const CLAIM_TYPES = ['carrier', 'dme', 'hha', 'hospice', 'inpatient', 'outpatient', 'snf', 'pde'] as const;

const scratch = mkdtempSync(join(tmpdir(), 'openenroll-rif-synthetic-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let files: SyntheticRifFile[];
let again: SyntheticRifFile[];
let reseeded: SyntheticRifFile[];
const records: SyntheticRecord[] = [...syntheticRifRecords(ENROLLEES, SANDBOX_SEED)];

before(async () => {
  files = await writeSyntheticRif(join(scratch, 'a'), ENROLLEES, SANDBOX_SEED);
  again = await writeSyntheticRif(join(scratch, 'b'), ENROLLEES, SANDBOX_SEED);
  reseeded = await writeSyntheticRif(join(scratch, 'c'), ENROLLEES, SANDBOX_SEED + 1);
});

const text = (file: SyntheticRifFile) => readFileSync(file.path, 'utf8');
const lines = (file: SyntheticRifFile) => text(file).split('\n').slice(0, -1);
const claimKey = (type: string) => (type === 'pde' ? 'PDE_ID' : 'CLM_ID');
const claims = records.filter((r) => r.type !== 'beneficiary' && r.type !== 'beneficiary-history');
const beneficiaries = records.filter((r) => r.type === 'beneficiary').map((r) => r.rows[0]!);

describe('the synthetic RIF files', () => {
  test('the same seed writes the same bytes; another seed other claims for the same enrollees', () => {
    assert.deepEqual(
      files.map((f) => [f.type, f.records, f.lines]),
      again.map((f) => [f.type, f.records, f.lines]),
    );
    for (const [i, file] of files.entries()) assert.equal(text(file), text(again[i]!), file.path);
    const other = reseeded.find((f) => f.type === 'carrier')!;
    assert.notEqual(text(other), text(files.find((f) => f.type === 'carrier')!));
    const ids = (list: SyntheticRifFile[]) =>
      lines(list.find((f) => f.type === 'beneficiary')!)
        .slice(1)
        .map((l) => l.split('|')[1]);
    assert.deepEqual(ids(reseeded), ids(files), 'the enrollees are the same people under any seed');
  });

  test('one file per record type, in load order; every type has records, enrollee 0 a claim of each kind', () => {
    assert.deepEqual(
      files.map((f) => f.type),
      [...SYNTHETIC_RECORD_TYPES],
    );
    assert.deepEqual(readdirSync(join(scratch, 'a')), files.map((f) => f.path.split('/').at(-1)).sort());
    for (const file of files) {
      assert.ok(file.records > 0, `${file.type}: no records`);
      assert.equal(lines(file).length, file.lines + 1, `${file.type}: header and one line per claim line`);
    }
    const own = syntheticEnrolleeRecords(0, SANDBOX_SEED).map((r) => r.type);
    for (const type of [...CLAIM_TYPES, 'beneficiary-history'] as const) assert.ok(own.includes(type), type);
  });

  test('every line reads against columns.ts: its type recognised, no column missing, values BFD accepts, INSERT', () => {
    for (const file of files) {
      const [head, ...body] = lines(file);
      const header = splitCells(head!);
      assert.deepEqual(recogniseHeader(header), { type: file.type, missing: [] }, file.path);
      assert.deepEqual(header, ['DML_IND', ...RIF_COLUMNS[file.type].map((c) => c.name)]);
      const positions = new Map(header.map((name, i) => [name, i]));
      const check = valueCheck(RIF_COLUMNS[file.type], positions);
      body.forEach((line, i) => {
        const cells = splitCells(line);
        const where = `${file.path}:${i + 2}`;
        assert.equal(cells.length, header.length, where);
        assert.equal(cells[0], 'INSERT', where);
        assert.equal(check(cells), undefined, where);
      });
    }
  });

  test('a record names only columns of its type; dates are 27-OCT-1999, amounts have two decimals', () => {
    for (const record of records) {
      const columns = new Map(RIF_COLUMNS[record.type].map((c) => [c.name, c]));
      for (const row of record.rows) {
        for (const [name, value] of Object.entries(row)) {
          const column = columns.get(name);
          assert.ok(column, `${record.type} has no column ${name}`);
          assert.ok(!/[|"\\\n]/.test(value), `${name}: ${value}`);
          if (column.kind === 'date') assert.match(value, /^\d{2}-[A-Z]{3}-\d{4}$/, name);
          if (/_(AMT|AM)$/.test(name)) assert.match(value, /^-?\d+\.\d{2}$/, `${name}: ${value}`);
        }
      }
    }
  });

  test('synthetic markers: BENE_ID is the sandbox patient id, CLM_ID and PDE_ID negative and unique, MBIs with S', () => {
    beneficiaries.forEach((row, n) => {
      const identity = sandboxIdentity(n);
      assert.equal(row.BENE_ID, identity.patientId);
      assert.equal(row.BENE_GVN_NAME, identity.givenName);
      assert.equal(row.BENE_SRNM_NAME, identity.familyName);
      assert.match(row.MBI_NUM!, /^[1-9]S[A-Z]\d[A-Z]{2}\d[A-Z]{2}\d{2}$/);
    });
    const history = records.filter((r) => r.type === 'beneficiary-history').map((r) => r.rows[0]!);
    assert.ok(history.length > 0);
    for (const row of history) {
      const current = beneficiaries.find((b) => b.BENE_ID === row.BENE_ID)!;
      assert.ok(current, 'a history row belongs to a beneficiary');
      assert.match(row.MBI_NUM!, /^[1-9]S/);
      assert.notEqual(row.MBI_NUM, current.MBI_NUM, 'an earlier MBI');
      assert.ok(rifDate(row.EFCTV_END_DT!)! < rifDate(current.EFCTV_BGN_DT!)!, 'which ended before');
    }
    const ids = new Set<string>();
    for (const claim of claims) {
      const id = claim.rows[0]![claimKey(claim.type)]!;
      assert.match(id, /^-\d{11}$/, `${claim.type} ${id}`);
      assert.ok(!ids.has(id), `${id} twice`);
      ids.add(id);
      for (const row of claim.rows) {
        assert.equal(row[claimKey(claim.type)], id, 'a claim’s lines share its id');
        assert.ok(beneficiaries.some((b) => b.BENE_ID === row.BENE_ID));
      }
    }
  });

  test('the NDJSON generator’s spread: 20–60 claims each, dated 2023-01-01..2026-10-31, its sample codes', () => {
    const diagnoses = new Set(DIAGNOSES.map((d) => d.code.replace('.', '')));
    const services = new Set(
      [...CARRIER_SERVICES, ...DME_ITEMS, ...Object.values(REVENUE_LINES).flat()].map((s) => s.code),
    );
    const drugs = new Set(DRUGS.map((d) => d.ndc.replaceAll('-', '')));
    for (const row of beneficiaries) {
      const own = claims.filter((c) => c.rows[0]!.BENE_ID === row.BENE_ID);
      assert.ok(own.length >= 20 && own.length <= 60, `${row.BENE_ID}: ${own.length} claims`);
    }
    for (const claim of claims) {
      const first = claim.rows[0]!;
      const from = rifDate(first.CLM_FROM_DT ?? first.SRVC_DT!)!;
      const thru = rifDate(first.CLM_THRU_DT ?? first.SRVC_DT!)!;
      assert.ok(from >= '2023-01-01' && from <= thru && thru <= '2026-10-31', `${from}..${thru}`);
      if (claim.type === 'pde') assert.ok(drugs.has(first.PROD_SRVC_ID!), first.PROD_SRVC_ID);
      else assert.ok(diagnoses.has(first.PRNCPAL_DGNS_CD!), first.PRNCPAL_DGNS_CD);
      for (const row of claim.rows) {
        const code =
          row.REV_CNTR ?? (claim.type === 'carrier' || claim.type === 'dme' ? row.HCPCS_CD : undefined);
        if (code !== undefined) assert.ok(services.has(code), `${claim.type} ${code}`);
      }
    }
    const paid = claims.map((c) => Number(c.rows[0]!.CLM_PMT_AMT ?? c.rows[0]!.CVRD_D_PLAN_PD_AMT));
    assert.ok(paid.every((p) => p > 0));
  });
});

describe('openenroll fhir generate --format rif', () => {
  test('writes the same files into the directory named; NDJSON stays the default', async () => {
    const database = createTestDatabase();
    try {
      const out = join(scratch, 'cli');
      const wrote = await runCli(database.processUrl, [
        'fhir',
        'generate',
        '--format',
        'rif',
        '--enrollees',
        String(ENROLLEES),
        '--out',
        out,
      ]);
      assert.equal(wrote.code, 0, wrote.stderr);
      const total = files.reduce((n, f) => n + f.records, 0);
      assert.match(wrote.stdout, new RegExp(`^wrote ${total} synthetic RIF records for 3 enrollees`));
      for (const file of files) {
        assert.equal(readFileSync(join(out, file.path.split('/').at(-1)!), 'utf8'), text(file));
      }
      const ndjson = join(scratch, 'cli.ndjson');
      const plain = await runCli(database.processUrl, [
        'fhir',
        'generate',
        '--enrollees',
        '1',
        '--out',
        ndjson,
      ]);
      assert.equal(plain.code, 0, plain.stderr);
      assert.match(plain.stdout, /^wrote \d+ synthetic resources for 1 enrollees/);
      const wrong = await runCli(database.processUrl, ['fhir', 'generate', '--format', 'csv', '--out', out]);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /ndjson, rif/);
    } finally {
      await database.drop();
    }
  });
});

describe('loaded at a sandbox start, served through the FHIR API', () => {
  let running: RunningService;
  let app: TestApp;
  let tokens: TokenBody;

  before(async () => {
    running = await startService({ SANDBOX_ENROLLEES: String(ENROLLEES) });
    app = await createTestApp(running);
    tokens = await issueTokens(running, app, { enrollee: 0 });
  });
  after(() => running?.close());

  async function get(path: string, token = tokens.access_token) {
    const response = await fetch(`${running.url}/v2/fhir/${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(response.status, 200, path);
    return (await response.json()) as Record<string, unknown>;
  }
  type Bundle = {
    total: number;
    link: { relation: string; url: string }[];
    entry?: { resource: Record<string, unknown> }[];
  };

  /** Every resource a search finds, following its `next` links. */
  async function searchAll(path: string): Promise<Record<string, unknown>[]> {
    const found: Record<string, unknown>[] = [];
    let bundle = (await get(path)) as Bundle;
    for (;;) {
      found.push(...(bundle.entry ?? []).map((e) => e.resource));
      const next = bundle.link.find((l) => l.relation === 'next')?.url;
      if (next === undefined) return found;
      bundle = (await get(next.slice(next.indexOf('/v2/fhir/') + '/v2/fhir/'.length))) as Bundle;
    }
  }

  test('each sandbox login lands on the Patient of its beneficiary record', async () => {
    for (let n = 0; n < ENROLLEES; n++) {
      const own = n === 0 ? tokens : await issueTokens(running, app, { enrollee: n });
      const identity = sandboxIdentity(n);
      assert.equal(own.patient, identity.patientId);
      const patient = await get(`Patient/${identity.patientId}`, own.access_token);
      const row = beneficiaries[n]!;
      assert.equal(patient.id, row.BENE_ID);
      assert.deepEqual(patient.name, [
        { use: 'usual', family: identity.familyName, given: [identity.givenName] },
      ]);
      const identifiers = patient.identifier as { system?: string; value: string }[];
      assert.ok(
        identifiers.some((i) => i.system === 'http://hl7.org/fhir/sid/us-mbi' && i.value === row.MBI_NUM),
      );
      const tags = (patient.meta as { tag?: { code: string }[] }).tag ?? [];
      assert.ok(
        tags.some((t) => t.code === 'synthetic'),
        'tagged as synthetic',
      );
    }
  });

  test('every claim type is searchable for the sandbox patient, under its BFD id', async () => {
    assert.deepEqual([...EOB_TYPES].sort(), [...CLAIM_TYPES].sort());
    const expected = claims.filter((c) => c.rows[0]!.BENE_ID === sandboxIdentity(0).patientId);
    for (const type of CLAIM_TYPES) {
      const ids = (await searchAll(`ExplanationOfBenefit?type=${type}`)).map((r) => String(r.id)).sort();
      const want = expected
        .filter((c) => c.type === type)
        .map((c) => `${type}-${c.rows[0]![claimKey(type)]!}`)
        .sort();
      assert.ok(want.length > 0, type);
      assert.deepEqual(ids, want, type);
      assert.ok(ids.every((id) => id.startsWith(`${type}--`)));
    }
    const all = (await get('ExplanationOfBenefit')) as Bundle;
    assert.equal(all.total, expected.length);
  });

  test('the sample providers and drugs are named: NPIs by identifier, with the sample directory’s names', async () => {
    const bundle = (await get('ExplanationOfBenefit?type=pde&_count=1')) as Bundle;
    const eob = JSON.stringify(bundle.entry![0]!.resource);
    assert.match(eob, /"Dr\. [A-Z][a-z]+ Sample"/, 'the prescriber by name');
    assert.ok(
      DRUGS.some((d) => eob.includes(d.name)),
      'the drug by name',
    );
    const coverage = (await get('Coverage')) as Bundle;
    assert.equal(coverage.total, 4, 'Parts A, B, C and D');
  });
});
