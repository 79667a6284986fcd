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

/**
 * One `_include:iterate` the server applies (FHIR R4 §3.1.1.5.5): a reference parameter of `source`, followed
 * from the matches and from the included resources of that type alike.
 */
export interface IterateInclude extends Include {
  source: ResourceType;
}

/** The `searchInclude` values of a type for the CapabilityStatement: each parameter, then `Type:*`. */
export function searchIncludes(type: string): string[] {
  const params = REFERENCE_PARAMS[type as ResourceType];
  return params ? [...Object.keys(params).map((p) => `${type}:${p}`), `${type}:*`] : [];
}

/**
 * One value, `Type:param`, `Type:param:Target` or `Type:*`, as the includes it stands for when `Type` has
 * reference parameters, the parameter is one of them and the target one it may point at; else undefined.
 */
function readInclude(value: string): { source: ResourceType; includes: Include[] } | undefined {
  const [source, param, target, ...rest] = value.split(':');
  const params = REFERENCE_PARAMS[source as ResourceType];
  if (!params || param === undefined || rest.length > 0) return undefined;
  if (param === '*' && target === undefined) {
    return { source: source as ResourceType, includes: Object.keys(params).map((p) => ({ param: p })) };
  }
  if (!Object.hasOwn(params, param) || (target !== undefined && !params[param]!.targets.includes(target)))
    return undefined;
  return { source: source as ResourceType, includes: [target === undefined ? { param } : { param, target }] };
}

/**
 * The `_include` and `_include:iterate` values of a search of `type` that are served. An `_include` must
 * name the searched type (it follows the matches only); an `_include:iterate` may name any type with
 * reference parameters (`_include:iterate=Coverage:payor` on an EOB search follows the Coverages an
 * `ExplanationOfBenefit:coverage` include brings). Any other value (another type, an unknown parameter or
 * target) is ignored, as unknown search parameters are (FHIR R4 §3.1.1.4 lets a server ignore what it does
 * not support), and left out of the paging links, which name only what was applied.
 */
export function parseIncludes(
  type: ResourceType,
  values: string[],
  iterateValues: string[] = [],
): { includes: Include[]; applied: string[]; iterate: IterateInclude[]; appliedIterate: string[] } {
  const includes: Include[] = [];
  const applied: string[] = [];
  for (const value of values) {
    const read = readInclude(value);
    if (read?.source !== type) continue;
    includes.push(...read.includes);
    if (!applied.includes(value)) applied.push(value);
  }
  const iterate: IterateInclude[] = [];
  const appliedIterate: string[] = [];
  // A type without reference parameters includes nothing, so nothing can be followed either.
  for (const value of REFERENCE_PARAMS[type] ? iterateValues : []) {
    const read = readInclude(value);
    if (!read) continue;
    iterate.push(...read.includes.map((i) => ({ ...i, source: read.source })));
    if (!appliedIterate.includes(value)) appliedIterate.push(value);
  }
  return { includes, applied, iterate, appliedIterate };
}

/**
 * The resources the bodies (of `type`) refer to through `includes`: literal relative references (`Type/id`)
 * to a served type, each once, in order of first mention, and none of the bodies themselves. `seen`, when
 * given, carries what earlier rounds already named (and is added to).
 */
export function referencesOf(
  type: ResourceType,
  bodies: string[],
  includes: Include[],
  seen = new Set<string>(),
): ResourceRef[] {
  const params = REFERENCE_PARAMS[type] ?? {};
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

/**
 * Everything a page includes: what the matches (`bodies`, of `type`) refer to through `includes` and the
 * `iterate` includes of `type`, then, round after round, what the resources just included refer to through
 * the `iterate` includes of their own type, until a round brings nothing new. Each resource once, never a
 * match; only what `visible` lets the token read, and nothing is followed from a resource it may not read.
 * The rounds end because each names only resources not named before; with the types served here the chain
 * is at most ExplanationOfBenefit → Coverage → Organization or Patient, one round past the matches.
 */
export async function includeAll(
  type: ResourceType,
  bodies: string[],
  { includes, iterate }: { includes: Include[]; iterate: IterateInclude[] },
  find: (refs: ResourceRef[]) => Promise<StoredResource[]>,
  visible: (resource: StoredResource) => boolean,
): Promise<IncludedEntry[]> {
  const seen = new Set<string>();
  const of = (source: string) =>
    iterate.filter((i) => i.source === source).map(({ param, target }) => ({ param, target }));
  const all: IncludedEntry[] = [];
  let round = await includedEntries(
    find,
    referencesOf(type, bodies, [...includes, ...of(type)], seen),
    visible,
  );
  while (round.length > 0) {
    all.push(...round);
    const next = [...new Set(iterate.map((i) => i.source))].flatMap((source) => {
      const own = round.filter((e) => e.type === source).map((e) => e.body);
      return own.length === 0 ? [] : referencesOf(source, own, of(source), seen);
    });
    round = await includedEntries(find, next, visible);
  }
  return all;
}
