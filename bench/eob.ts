/**
 * The data of the ExplanationOfBenefit benchmark: one enrollee (sandbox enrollee 0) with exactly `count`
 * EOBs, in one of two shapes — CARIN-generated (NDJSON for `openenroll fhir import`) or BFD-shaped (CCW RIF
 * files for `openenroll ingest rif`) — and the request paths that load it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { directoryResources, eobId, generateEnrollee, type FhirResource } from '../src/fhir/generate.js';
import type { EobType } from '../src/fhir/validate.js';
import {
  SYNTHETIC_RECORD_TYPES,
  syntheticEnrolleeRecords,
  type SyntheticRecord,
} from '../src/ingest/rif/synthetic/generate.js';
import { rifFileName, rifHeader, rifLine } from '../src/ingest/rif/synthetic/write.js';
import { SANDBOX_SEED } from '../src/ingest/sandbox-claims.js';

/**
 * The two shapes of claims data the EOB benchmark serves: `carin`, the EOBs our own NDJSON generator makes
 * (src/fhir/generate.ts); `bfd`, the EOBs the RIF ingest builds from CCW records as Blue Button 2.0 serves
 * them (src/fhir/bfd/), three to four times larger.
 */
export const EOB_SHAPES = ['carin', 'bfd'] as const;
export type EobShape = (typeof EOB_SHAPES)[number];

/** Sandbox enrollee 0 (BBUser00000) owns the data. */
export const EOB_ENROLLEE = 0;
export const EOB_PATIENT_ID = '-19990000000001';
export const EOB_COUNT = 1000;
export const EOB_PAGE = 10;

/**
 * Claim numbers of the cloned EOBs. The sandbox's own numbers are 10^10 + 64·n + i (n < 100,000), so these
 * never collide with another sandbox enrollee's claims, whether the sandbox claims are loaded or not.
 */
const CLAIM_BASE = 20_000_000_000;

/** The CARIN-generated data set. */
export interface EobData {
  /** NDJSON lines: the directory (payors, providers), the Patient, its Coverages, then the EOBs. */
  lines: string[];
  /** The EOB ids in the server's search order (by id). */
  ids: string[];
}

/**
 * The shared directory the claims point at, enrollee 0's Patient and Coverages as generated, and its 20–60
 * generated EOBs cloned round-robin to `count`, each renumbered (`<type>--2000000xxxx`, claim identifier to
 * match).
 */
export function eobData(count = EOB_COUNT, seed = SANDBOX_SEED): EobData {
  const resources = generateEnrollee(EOB_ENROLLEE, seed);
  const patient = resources[0]!;
  if (patient.resourceType !== 'Patient' || patient.id !== EOB_PATIENT_ID) {
    throw new Error(`sandbox enrollee ${EOB_ENROLLEE} is not Patient/${EOB_PATIENT_ID}`);
  }
  const templates = resources.filter((r) => r.resourceType === 'ExplanationOfBenefit');
  const others = [
    ...directoryResources(),
    ...resources.filter((r) => r.resourceType !== 'ExplanationOfBenefit'),
  ];
  const eobs: FhirResource[] = [];
  for (let i = 0; i < count; i++) {
    const template = templates[i % templates.length]!;
    const type = template.id.split('--')[0] as EobType;
    const clone = structuredClone(template);
    clone.id = eobId(type, CLAIM_BASE + i);
    const identifier = clone.identifier as { value: string }[];
    identifier[0]!.value = String(-(CLAIM_BASE + i));
    eobs.push(clone);
  }
  const ids = eobs.map((e) => e.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { lines: [...others, ...eobs].map((r) => JSON.stringify(r)), ids };
}

export function writeEobNdjson(path: string, data: EobData): void {
  writeFileSync(path, `${data.lines.join('\n')}\n`);
}

/** The BFD-shaped data set: CCW RIF records, by record type. */
export interface BfdEobData {
  /** Enrollee 0's beneficiary and history records, then the `count` cloned claims. */
  records: SyntheticRecord[];
  /** The EOB ids in the server's search order (by id). */
  ids: string[];
}

/** The columns that hold a claim's own number: its id, its Part D event id, and its claim group. */
const CLAIM_NUMBER_COLUMNS = ['CLM_ID', 'PDE_ID', 'CLM_GRP_ID'] as const;

/**
 * A claim record with every row renumbered to claim `number` (`CLM_ID` / `PDE_ID` = its negative, as the
 * synthetic claims are). `CLM_GRP_ID` follows: the generator makes it the claim's own id, and leaving the
 * template's would put a thousand claims in the same few groups.
 */
export function renumberedClaim(record: SyntheticRecord, number: number): SyntheticRecord {
  const id = String(-number);
  return {
    type: record.type,
    rows: record.rows.map((row) => {
      const copy = { ...row };
      for (const column of CLAIM_NUMBER_COLUMNS) if (column in copy) copy[column] = id;
      return copy;
    }),
  };
}

/**
 * Enrollee 0's synthetic RIF records (src/ingest/rif/synthetic/, the records the sandbox loads: one claim of
 * every type, 50-odd in all): the beneficiary and its history rows as generated, and its claims cloned
 * round-robin to `count`, each renumbered to `CLAIM_BASE + i` like the CARIN set, so the EOB ids read
 * `<type>--2000000xxxx` in both shapes (BFD's EOB id: the claim type, a hyphen, the claim id).
 */
export function bfdEobData(count = EOB_COUNT, seed = SANDBOX_SEED): BfdEobData {
  const records = syntheticEnrolleeRecords(EOB_ENROLLEE, seed);
  const beneficiary = records.find((r) => r.type === 'beneficiary')?.rows[0];
  if (beneficiary?.BENE_ID !== EOB_PATIENT_ID) {
    throw new Error(`sandbox enrollee ${EOB_ENROLLEE}'s RIF beneficiary is not ${EOB_PATIENT_ID}`);
  }
  const people = records.filter((r) => r.type === 'beneficiary' || r.type === 'beneficiary-history');
  const templates = records.filter((r) => !people.includes(r));
  const claims: SyntheticRecord[] = [];
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const clone = renumberedClaim(templates[i % templates.length]!, CLAIM_BASE + i);
    claims.push(clone);
    ids.push(`${clone.type}-${-(CLAIM_BASE + i)}`);
  }
  ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { records: [...people, ...claims], ids };
}

/**
 * Writes the records into `dir` (created if missing) as the synthetic extracts are written: one
 * pipe-delimited file per record type, numbered in load order (history, beneficiary, then the claims), each
 * with its header line, even when empty. Returns the directory, for `openenroll ingest rif <dir>`.
 */
export function writeBfdRif(dir: string, data: BfdEobData): string {
  mkdirSync(dir, { recursive: true });
  for (const type of SYNTHETIC_RECORD_TYPES) {
    const lines = data.records
      .filter((r) => r.type === type)
      .flatMap((r) => r.rows.map((row) => rifLine(type, row)));
    writeFileSync(join(dir, rifFileName(type)), [rifHeader(type), ...lines].map((l) => `${l}\n`).join(''));
  }
  return dir;
}

const BASE_PATH = '/v2/fhir/ExplanationOfBenefit/';
const FULL_URL = '"fullUrl":"';

/** A GET the load sends, with a cheap check of its 200 body (the load generator shares the CPUs). */
export interface GetTarget {
  path: string;
  check(body: string): boolean;
}

/** What a load served: the 200 bodies that passed through their checks, and their bytes (UTF-8). */
export interface Served {
  responses: number;
  bytes: number;
}

/**
 * The same targets, each check also counting its body's bytes into the returned `served` (one count per
 * measured load; the body is the one the check reads, so nothing else is parsed or copied).
 */
export function countingBytes(targets: readonly GetTarget[]): { targets: GetTarget[]; served: Served } {
  const served: Served = { responses: 0, bytes: 0 };
  return {
    served,
    targets: targets.map((target) => ({
      path: target.path,
      check: (body) => {
        served.responses += 1;
        served.bytes += Buffer.byteLength(body, 'utf8');
        return target.check(body);
      },
    })),
  };
}

function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n += 1;
  return n;
}

/**
 * Pages of `EOB_PAGE` at startIndex 0, 10, …: each must say `total` = all EOBs, hold a full page, and start
 * with the EOB the id order puts there.
 */
export function searchTargets(ids: string[]): GetTarget[] {
  const targets: GetTarget[] = [];
  for (let start = 0; start < ids.length; start += EOB_PAGE) {
    const firstUrl = `/v2/fhir/ExplanationOfBenefit/${ids[start]}`;
    const size = Math.min(EOB_PAGE, ids.length - start);
    targets.push({
      path: `${BASE_PATH}?_count=${EOB_PAGE}&startIndex=${start}`,
      check: (body) => {
        const at = body.indexOf(FULL_URL);
        if (at < 0 || !body.includes(`"total":${ids.length},`)) return false;
        const url = body.slice(at + FULL_URL.length, body.indexOf('"', at + FULL_URL.length));
        return url.endsWith(firstUrl) && occurrences(body, FULL_URL) === size;
      },
    });
  }
  return targets;
}

/**
 * The same pages as `searchTargets`, requested as a client that follows `next` from the first page requests
 * them: each page's path is the previous page's `next` link (startIndex and the server's cursor), read from
 * the server once before the load; each page is checked as `searchTargets` checks the page at its startIndex.
 */
export async function nextLinkTargets(
  base: string,
  authorization: string,
  ids: string[],
): Promise<GetTarget[]> {
  const targets: GetTarget[] = [];
  let path: string | undefined = `${BASE_PATH}?_count=${EOB_PAGE}`;
  for (const { check } of searchTargets(ids)) {
    if (path === undefined) throw new Error(`the next links end after ${targets.length} pages`);
    targets.push({ path, check });
    const response = await fetch(`${base}${path}`, { headers: { authorization } });
    const bundle = (await response.json()) as { link?: { relation: string; url: string }[] };
    const next = bundle.link?.find((l) => l.relation === 'next')?.url;
    path = next === undefined ? undefined : `${new URL(next).pathname}${new URL(next).search}`;
  }
  return targets;
}

/** Reads of every EOB by id: each must be that EOB. */
export function readTargets(ids: string[]): GetTarget[] {
  return ids.map((id) => ({
    path: `${BASE_PATH}${id}`,
    check: (body) => body.includes(`"id":"${id}"`) && body.includes('"resourceType":"ExplanationOfBenefit"'),
  }));
}

/**
 * The `total` the server reports for the Bearer's EOBs (a page of one): checked before a load, so a data set
 * that did not load as meant fails at once instead of as a run of failed checks.
 */
export async function eobTotal(base: string, authorization: string): Promise<number> {
  const response = await fetch(`${base}${BASE_PATH}?_count=1`, { headers: { authorization } });
  const body = await response.text();
  if (response.status !== 200) {
    throw new Error(`EOB search answered ${response.status}: ${body.slice(0, 200)}`);
  }
  return (JSON.parse(body) as { total?: number }).total ?? -1;
}
