/**
 * The data of the ExplanationOfBenefit benchmark: one enrollee (sandbox enrollee 0) with exactly `count`
 * EOBs, written as NDJSON for `openenroll fhir import`, and the request paths that load it.
 */
import { writeFileSync } from 'node:fs';
import { directoryResources, eobId, generateEnrollee, type FhirResource } from '../src/fhir/generate.js';
import type { EobType } from '../src/fhir/validate.js';
import { SANDBOX_SEED } from '../src/ingest/sandbox-claims.js';

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

export interface EobData {
  /** NDJSON lines: the directory (payors, providers), the Patient, its Coverages, then the EOBs. */
  lines: string[];
  /** The EOB ids in the server's search order (by id). */
  ids: string[];
}

/**
 * The shared directory the claims point at, enrollee 0's Patient and Coverages as generated, and its 20–60 generated EOBs cloned round-robin to
 * `count`, each renumbered (`<type>--2000000xxxx`, claim identifier to match).
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

const BASE_PATH = '/v2/fhir/ExplanationOfBenefit/';
const FULL_URL = '"fullUrl":"';

/** A GET the load sends, with a cheap check of its 200 body (the load generator shares the CPUs). */
export interface GetTarget {
  path: string;
  check(body: string): boolean;
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

/** Reads of every EOB by id: each must be that EOB. */
export function readTargets(ids: string[]): GetTarget[] {
  return ids.map((id) => ({
    path: `${BASE_PATH}${id}`,
    check: (body) => body.includes(`"id":"${id}"`) && body.includes('"resourceType":"ExplanationOfBenefit"'),
  }));
}
