/**
 * What the CARIN validator helper (carin-validator.ts) adds to Medplum 4.5.2: fixes to the CARIN
 * StructureDefinitions so Medplum can load and evaluate them, and the checks Medplum leaves out (required
 * bindings to the package's own ValueSets; cardinality and pattern values below a profile's top level).
 */

/** The parts of a StructureDefinition these checks read (`@medplum/fhirtypes` is not installed). */
export interface ElementDefinition {
  id?: string;
  path?: string;
  sliceName?: string;
  min?: number;
  max?: string;
  contentReference?: string;
  slicing?: { discriminator?: { type?: string; path?: string }[]; rules?: string; ordered?: boolean };
  binding?: { strength?: string; valueSet?: string };
  constraint?: { key?: string; severity?: string; expression?: string }[];
  [key: string]: unknown;
}
export interface StructureDefinition {
  resourceType: string;
  url: string;
  snapshot?: { element: ElementDefinition[] };
  [key: string]: unknown;
}
/** The parts of an OperationOutcome issue the tests read. */
export interface OperationOutcomeIssue {
  severity: string;
  code: string;
  expression?: string[];
  diagnostics?: string;
  details?: { text?: string };
}

export type Json = Record<string, unknown>;

/**
 * Drops the type slices of a choice element inside another slice (`supportingInfo:admissionperiod.
 * timing[x]:timingPeriod`): Medplum 4.5.2 takes them for slices of the outer element (`supportingInfo`) and
 * then demands one `timingPeriod` supportingInfo. The choice element itself keeps its restricted type list,
 * so what the type slice required (that one type) is still checked.
 */
export function withoutNestedTypeSlices(sd: StructureDefinition): StructureDefinition {
  const nested = /:[^.]+\..*\[x\]:[A-Za-z]+/;
  const element = (sd.snapshot?.element ?? [])
    .filter((e) => !nested.test(e.id ?? ''))
    .map((e) => {
      const id = e.id ?? '';
      if (!id.endsWith('[x]') || !id.includes(':') || !e.slicing) return e;
      const copy = { ...e };
      delete copy.slicing;
      return copy;
    });
  return { ...sd, snapshot: { ...sd.snapshot, element } };
}

/** Healthcare Provider Taxonomy (NUCC), the one external ValueSet a C4BB invariant tests membership of. */
const NUCC_VALUE_SET = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.114222.4.11.1066';

/**
 * Rewrites FHIRPath `x.memberOf('vs')` (which Medplum does not implement: the invariant fails with "Error
 * evaluating invariant expression") as `x.coding.where(<system/code test>).exists()`, the test expanded
 * from the package's ValueSet (a whole included system → any code of it; NUCC → its system).
 */
export function withMemberOf(sd: StructureDefinition, valueSets: Map<string, Json>): StructureDefinition {
  const test = (url: string): string => {
    if (url === NUCC_VALUE_SET) return "system = 'http://nucc.org/provider-taxonomy'";
    const include = (valueSets.get(url)?.compose as { include?: Json[] } | undefined)?.include;
    if (!include) throw new Error(`memberOf('${url}'): ValueSet not in the package`);
    return include
      .map((part) => {
        const codes = (part.concept as { code: string }[] | undefined)?.map((c) => `'${c.code}'`);
        const system = `system = '${part.system as string}'`;
        return codes ? `(${system} and code in (${codes.join(' | ')}))` : `(${system})`;
      })
      .join(' or ');
  };
  const element = (sd.snapshot?.element ?? []).map((e) =>
    e.constraint?.some((c) => c.expression?.includes('.memberOf('))
      ? {
          ...e,
          constraint: e.constraint.map((c) => ({
            ...c,
            expression: c.expression?.replace(
              /([A-Za-z]+)\.memberOf\('([^']+)'\)/g,
              (_, path: string, url: string) => `${path}.coding.where(${test(url)}).exists()`,
            ),
          })),
        }
      : e,
  );
  return { ...sd, snapshot: { ...sd.snapshot, element } };
}

/**
 * A copy of `sd` whose `contentReference` elements are expanded from the base resource they point at.
 * Medplum 4.5.2 resolves a contentReference to the last element it saw with that path; in a profile that
 * slices the referenced element (every C4BB EOB slices `item.adjudication`, which `item.detail.adjudication`
 * references) that is a slice, and loading fails with "Invalid slice start before discriminator". The
 * reference names the base definition (`http://hl7.org/fhir/StructureDefinition/ExplanationOfBenefit#…`),
 * so expanding it from the base R4 StructureDefinition is what it means.
 */
export function inlineContentReferences(
  sd: StructureDefinition,
  base: Map<string, StructureDefinition>,
): StructureDefinition {
  const elements: ElementDefinition[] = [];
  for (const element of sd.snapshot?.element ?? []) {
    const [url, refPath] = (element.contentReference ?? '').split('#');
    const source = url ? base.get(url) : undefined;
    if (!element.contentReference || !source || !refPath) {
      elements.push(element);
      continue;
    }
    for (const inner of source.snapshot?.element ?? []) {
      const path = inner.path ?? '';
      if (path !== refPath && !path.startsWith(`${refPath}.`)) continue;
      const rewritten = `${element.path}${path.slice(refPath.length)}`;
      elements.push(
        path === refPath
          ? { ...inner, id: element.id, path: element.path, min: element.min, max: element.max }
          : { ...inner, id: `${element.id}${path.slice(refPath.length)}`, path: rewritten },
      );
    }
  }
  return { ...sd, snapshot: { ...sd.snapshot, element: elements } };
}

/**
 * Required bindings of a profile whose ValueSet the package defines with enumerated codes or whole code
 * systems of the package: every coding of that system at that path must be one of them. Medplum checks no
 * terminology, so without this an unknown code (e.g. `secondary` in HL7's ex-diagnosistype) would pass.
 * Only element paths without slice names are checked (slices narrow, never widen, the base binding).
 */
export function requiredBindingChecker(valueSets: Map<string, Json>, codeSystems: Map<string, Json>) {
  const codesOf = (url: string): Map<string, Set<string>> | undefined => {
    const vs = valueSets.get(url.split('|')[0]!);
    const include = (vs?.compose as { include?: Json[] } | undefined)?.include;
    if (!include) return undefined;
    const codes = new Map<string, Set<string>>();
    for (const part of include) {
      const system = part.system as string | undefined;
      if (!system || part.filter || part.valueSet) return undefined;
      const set = codes.get(system) ?? new Set<string>();
      const concepts = part.concept as { code: string }[] | undefined;
      if (concepts) concepts.forEach((c) => set.add(c.code));
      else {
        const cs = codeSystems.get(system);
        if (!cs) return undefined; // an external code system: cannot expand offline
        const walk = (list: Json[] | undefined) =>
          list?.forEach((c) => {
            set.add(c.code as string);
            walk(c.concept as Json[] | undefined);
          });
        walk(cs.concept as Json[] | undefined);
      }
      codes.set(system, set);
    }
    return codes;
  };

  return (resource: object, profile: StructureDefinition): OperationOutcomeIssue[] => {
    const issues: OperationOutcomeIssue[] = [];
    for (const element of profile.snapshot?.element ?? []) {
      if (element.binding?.strength !== 'required' || !element.binding.valueSet) continue;
      if (element.id?.includes(':')) continue;
      const allowed = codesOf(element.binding.valueSet);
      if (!allowed) continue;
      const path = element.path!.split('.').slice(1);
      for (const value of valuesAt(resource as Json, path)) {
        const codings = ((value as Json).coding as Json[] | undefined) ?? [];
        const problem = (text: string) =>
          issues.push({
            severity: 'error',
            code: 'code-invalid',
            expression: [element.path!],
            details: { text },
          });
        for (const c of codings) {
          const known = allowed.get(c.system as string);
          if (known && !known.has(c.code as string))
            problem(`${c.system}#${c.code} is not in required ValueSet ${element.binding.valueSet}`);
        }
        if (codings.length > 0 && !codings.some((c) => allowed.has(c.system as string)))
          problem(`no coding from required ValueSet ${element.binding.valueSet}`);
      }
    }
    return issues;
  };
}

function valuesAt(node: Json, path: string[]): unknown[] {
  if (path.length === 0) return [node];
  const [head, ...rest] = path;
  const value = head!.endsWith('[x]')
    ? Object.entries(node).find(([k]) => k.startsWith(head!.slice(0, -3)))?.[1]
    : node[head!];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.flatMap((v) => (typeof v === 'object' && v !== null ? valuesAt(v as Json, rest) : []));
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** FHIR pattern matching: every property of `pattern` is in `value` (arrays: each item matched by some). */
function includes(value: unknown, pattern: unknown): boolean {
  if (Array.isArray(pattern))
    return Array.isArray(value) && pattern.every((p) => value.some((v) => includes(v, p)));
  if (isObject(pattern))
    return isObject(value) && Object.entries(pattern).every(([k, p]) => includes(value[k], p));
  return value === pattern;
}

const specified = (e: ElementDefinition): { value: unknown; fixed: boolean } | undefined => {
  for (const [key, value] of Object.entries(e)) {
    if (key.startsWith('pattern')) return { value, fixed: false };
    if (key.startsWith('fixed')) return { value, fixed: true };
  }
  return undefined;
};

/**
 * Cardinality and pattern/fixed values of the elements below a profile's top level (which Medplum checks
 * only against the base type). An element id `A.b:slice.c` is resolved step by step: `b` values of each
 * `A`, kept when they match the slice's `pattern`/`value` discriminators (a `type` slice of a choice
 * element, `x[x]:xPeriod`, picks that one property); then `c` is counted under each of them. Slices with
 * other discriminators are skipped.
 */
export function nestedIssues(resource: object, profile: StructureDefinition): OperationOutcomeIssue[] {
  const elements = profile.snapshot?.element ?? [];
  const byId = new Map(elements.map((e) => [e.id ?? '', e]));
  const slicingOf = new Map(elements.filter((e) => e.slicing).map((e) => [e.id ?? '', e.slicing!]));
  const issues: OperationOutcomeIssue[] = [];

  const step = (parents: Json[], segment: string, idSoFar: string): Json[] | undefined => {
    const [name, slice] = segment.split(':') as [string, string | undefined];
    const unsliced = idSoFar ? `${idSoFar}.${name}` : name;
    const pick = (parent: Json): unknown[] => {
      if (name.endsWith('[x]')) {
        const stem = name.slice(0, -3);
        const key =
          slice ?? Object.keys(parent).find((k) => k.startsWith(stem) && /^[A-Z]/.test(k.slice(stem.length)));
        const v = key ? parent[key] : undefined;
        return v === undefined ? [] : [v];
      }
      const v = parent[name];
      return Array.isArray(v) ? v : v === undefined ? [] : [v];
    };
    let values = parents.flatMap(pick);
    if (slice && !name.endsWith('[x]')) {
      const discriminators = slicingOf.get(unsliced)?.discriminator ?? [];
      if (
        discriminators.length === 0 ||
        discriminators.some((d) => d.type !== 'pattern' && d.type !== 'value')
      )
        return undefined;
      const tests = discriminators.map((d) => {
        const at = byId.get(d.path === '$this' ? `${unsliced}:${slice}` : `${unsliced}:${slice}.${d.path}`);
        return { path: d.path!, spec: at ? specified(at) : undefined };
      });
      if (tests.some((t) => !t.spec)) return undefined;
      values = values.filter((v) =>
        tests.every((t) =>
          (t.path === '$this' ? [v] : valuesAt(v as Json, t.path.split('.'))).some((x) =>
            includes(x, t.spec!.value),
          ),
        ),
      );
    }
    return values.filter(isObject).concat(values.filter((v) => !isObject(v)) as Json[]);
  };

  for (const element of elements) {
    const id = element.id ?? '';
    const segments = id.split('.');
    if (segments.length <= 2 && !id.includes(':')) continue; // Medplum checks the top level
    if (segments.length === 2) continue; // a top-level slice: Medplum counts it
    let parents: Json[] | undefined = [resource as Json];
    let soFar = segments[0]!;
    for (const segment of segments.slice(1, -1)) {
      parents = step(parents, segment, soFar);
      if (!parents) break;
      soFar = `${soFar}.${segment}`;
    }
    if (!parents) continue;
    const last = segments.at(-1)!;
    for (const parent of parents.filter(isObject)) {
      const values = step([parent], last, soFar);
      if (!values) break;
      const max = element.max === '*' ? Infinity : Number(element.max ?? Infinity);
      const problem = (text: string) =>
        issues.push({ severity: 'error', code: 'structure', expression: [id], details: { text } });
      if (values.length < (element.min ?? 0) || values.length > max)
        problem(`expected ${element.min}..${element.max}, found ${values.length}`);
      const spec = specified(element);
      if (spec && values.some((v) => !includes(v, spec.value)))
        problem(`does not match ${JSON.stringify(spec.value)}`);
    }
  }
  return issues;
}
