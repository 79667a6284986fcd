/**
 * `_include` (FHIR R4 §3.1.1.5.5, search.html#include): the resources a page's matches refer to, added to
 * the searchset with `search.mode: "include"`. The reference search parameters served are CARIN BB 2.0.0's
 * `searchInclude` list (CapabilityStatement/c4bb) less `ExplanationOfBenefit:payee`: EOBs here carry no
 * payee, and the import does not check payee references.
 */
import type { ResourceRef, StoredResource } from './store/resources.js';
import type { IncludedEntry } from './bundle.js';
import { LITERAL_REFERENCE } from './resource-checks.js';
import type { ResourceType } from './validate.js';

type Json = Record<string, unknown>;

interface ReferenceParam {
  /** The elements holding the references (the search parameter's FHIRPath). */
  references(resource: Json): unknown[];
  /** The types the parameter may point at that this server serves. */
  targets: readonly string[];
}

const list = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined ? [] : [value];
const each = (value: unknown, key: string): unknown[] =>
  list(value).flatMap((v) => (typeof v === 'object' && v !== null ? list((v as Json)[key]) : []));

/** The reference search parameters of each searched type, by code, with their CARIN BB expressions. */
const REFERENCE_PARAMS: Partial<Record<ResourceType, Record<string, ReferenceParam>>> = {
  ExplanationOfBenefit: {
    patient: { references: (r) => list(r.patient), targets: ['Patient'] },
    provider: { references: (r) => list(r.provider), targets: ['Practitioner', 'Organization'] },
    'care-team': {
      references: (r) => each(r.careTeam, 'provider'),
      targets: ['Practitioner', 'Organization'],
    },
    coverage: { references: (r) => each(r.insurance, 'coverage'), targets: ['Coverage'] },
    insurer: { references: (r) => list(r.insurer), targets: ['Organization'] },
  },
  Coverage: {
    payor: { references: (r) => list(r.payor), targets: ['Organization', 'Patient'] },
  },
};

/** One `_include` the server applies: a reference parameter of the searched type, maybe one target type. */
export interface Include {
  param: string;
  target?: string;
}

/** The `searchInclude` values of a type for the CapabilityStatement: each parameter, then `Type:*`. */
export function searchIncludes(type: string): string[] {
  const params = REFERENCE_PARAMS[type as ResourceType];
  return params ? [...Object.keys(params).map((p) => `${type}:${p}`), `${type}:*`] : [];
}

/**
 * The `_include` values of a search of `type` that are served: `Type:param`, `Type:param:Target` or
 * `Type:*`. Any other value (another source type, an unknown parameter or target, `_include:iterate`) is
 * ignored, as unknown search parameters are (FHIR R4 §3.1.1.4 lets a server ignore what it does not
 * support), and left out of the paging links, which name only what was applied.
 */
export function parseIncludes(
  type: ResourceType,
  values: string[],
): { includes: Include[]; applied: string[] } {
  const params = REFERENCE_PARAMS[type] ?? {};
  const includes: Include[] = [];
  const applied: string[] = [];
  for (const value of values) {
    const [source, param, target, ...rest] = value.split(':');
    if (source !== type || param === undefined || rest.length > 0) continue;
    if (param === '*' && target === undefined && Object.keys(params).length > 0) {
      includes.push(...Object.keys(params).map((p) => ({ param: p })));
    } else if (
      Object.hasOwn(params, param) &&
      (target === undefined || params[param]!.targets.includes(target))
    ) {
      includes.push(target === undefined ? { param } : { param, target });
    } else continue;
    if (!applied.includes(value)) applied.push(value);
  }
  return { includes, applied };
}

/**
 * The resources the matches refer to through `includes`: literal relative references (`Type/id`) to a
 * served type, each once, in order of first mention, and none of the matches themselves.
 */
export function referencesOf(type: ResourceType, bodies: string[], includes: Include[]): ResourceRef[] {
  const params = REFERENCE_PARAMS[type] ?? {};
  const seen = new Set<string>();
  const refs: ResourceRef[] = [];
  const resources = bodies.map((body) => JSON.parse(body) as Json);
  for (const resource of resources) seen.add(`${type}/${String(resource.id)}`);
  for (const resource of resources) {
    for (const { param, target } of includes) {
      const { references, targets } = params[param]!;
      for (const element of references(resource)) {
        const reference = (element as Json | null)?.reference;
        const match = typeof reference === 'string' ? LITERAL_REFERENCE.exec(reference) : null;
        if (!match || !targets.includes(match[1]!) || (target && match[1] !== target)) continue;
        if (seen.has(reference as string)) continue;
        seen.add(reference as string);
        refs.push({ resourceType: match[1]!, id: match[2]! });
      }
    }
  }
  return refs;
}

/**
 * The included entries of a page: the referenced resources that exist and the token may read (`visible`,
 * the same rule as a read by id), in the order `refs` names them.
 */
export async function includedEntries(
  find: (refs: ResourceRef[]) => Promise<StoredResource[]>,
  refs: ResourceRef[],
  visible: (resource: StoredResource) => boolean,
): Promise<IncludedEntry[]> {
  if (refs.length === 0) return [];
  const found = new Map((await find(refs)).map((r) => [`${r.resourceType}/${r.id}`, r]));
  return refs.flatMap(({ resourceType, id }) => {
    const resource = found.get(`${resourceType}/${id}`);
    return resource && visible(resource) ? [{ type: resourceType, id, body: resource.body }] : [];
  });
}
