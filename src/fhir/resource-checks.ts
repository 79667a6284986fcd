/**
 * The small vocabulary of the import's shape checks (validate.ts, profile-checks.ts): each helper checks one
 * value and throws `InvalidResource` with the path of what is wrong. Pure.
 */

export class InvalidResource extends Error {}

export type Json = Record<string, unknown>;

export const DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
/** A literal reference `Type/id` (FHIR R4 §2.3.0 references.html#literal). */
export const LITERAL_REFERENCE = /^([A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/;

export function fail(message: string): never {
  throw new InvalidResource(message);
}

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function object(value: unknown, path: string): Json {
  if (!isObject(value)) fail(`${path} must be an object`);
  return value;
}

export function nonEmptyArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0) fail(`${path} must be a non-empty array`);
  return value;
}

/** The entries of an optional array (absent → none), each of which must be an object. */
export function entries(value: unknown, path: string): Json[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(`${path} must be an array`);
  return value.map((v, i) => object(v, `${path}[${i}]`));
}

export function oneOf(value: unknown, allowed: readonly string[], path: string): string {
  if (typeof value !== 'string' || !allowed.includes(value))
    fail(`${path} must be one of ${allowed.join(', ')}`);
  return value;
}

export function matching(value: unknown, pattern: RegExp, path: string, what: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) fail(`${path} must be ${what}`);
  return value;
}

export function codeable(value: unknown, path: string): Json[] {
  return nonEmptyArray(object(value, path).coding, `${path}.coding`).map((c, i) =>
    object(c, `${path}.coding[${i}]`),
  );
}

/** Whether a CodeableConcept has a coding of `system` (and `code`, when given). */
export function hasCoding(value: unknown, system: string, code?: string): boolean {
  const codings = isObject(value) && Array.isArray(value.coding) ? value.coding : [];
  return codings.some((c) => isObject(c) && c.system === system && (code === undefined || c.code === code));
}

/** `{"reference": "Type/id"}` with Type one of `types`; returns the type and id. */
export function literalReference<T extends string>(
  value: unknown,
  types: readonly T[],
  path: string,
): { resourceType: T; id: string } {
  const ref = object(value, path).reference;
  const match = typeof ref === 'string' ? LITERAL_REFERENCE.exec(ref) : null;
  if (!match || !types.includes(match[1] as T))
    fail(`${path}.reference must be ${types.map((t) => `"${t}/<id>"`).join(' or ')}`);
  return { resourceType: match[1] as T, id: match[2]! };
}
