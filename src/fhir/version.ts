/**
 * FHIR R4 §3.1.0.5 / §3.1.0.8 (http.html#versioning, #concurrency): a read carries the version in
 * `meta.versionId` and as a weak `ETag` `W/"<versionId>"`, and `Last-Modified` from the last update.
 * Bodies imported before versions were stored have none: they are version "1", the same in the body, the
 * ETag and every search entry. Pure.
 */
export const FIRST_VERSION = '1';

/**
 * The body with `meta.versionId` (set to "1" when missing) and that version. A body that names its version
 * is served as it is, its version read by `storedVersionId` rather than by parsing the whole body.
 */
export function versioned(body: string): { body: string; versionId: string } {
  const stored = storedVersionId(body);
  if (stored !== undefined && stored !== '') return { body, versionId: stored };
  const resource = JSON.parse(body) as { meta?: { versionId?: unknown } };
  const current = resource.meta?.versionId;
  if (typeof current === 'string' && current !== '') return { body, versionId: current };
  resource.meta = { versionId: FIRST_VERSION, ...resource.meta };
  return { body: JSON.stringify(resource), versionId: FIRST_VERSION };
}

/**
 * A search entry's body with a version: left as stored (not parsed again) when it names one, which every
 * body imported since versions are stored does.
 */
export function versionedEntry(body: string): string {
  return body.includes('"versionId"') ? body : versioned(body).body;
}

export function weakETag(versionId: string): string {
  return `W/"${versionId.replace(/["\\]/g, '')}"`;
}

/**
 * `meta.versionId` of a resource's JSON text, found by stepping over the top level's members up to `meta`
 * and over its members up to `versionId` (strings with their escapes, nested values by their brackets),
 * which stops near the start of a body that names `meta` early, as every stored body does; a nested
 * resource's `meta` (in `contained`) is never taken for the resource's own. Undefined when there is no such
 * string, or when the text ends first (the caller then parses the body, which reports bad JSON).
 */
export function storedVersionId(json: string): string | undefined {
  const meta = memberValue(json, skipSpace(json, 0), '"meta"');
  if (meta === undefined || json[meta] !== '{') return undefined;
  const version = memberValue(json, meta, '"versionId"');
  if (version === undefined || json[version] !== '"') return undefined;
  const end = stringEnd(json, version);
  return end === undefined ? undefined : (JSON.parse(json.slice(version, end)) as string);
}

const SPACE = new Set([' ', '\t', '\n', '\r']);

function skipSpace(json: string, at: number): number {
  let i = at;
  while (i < json.length && SPACE.has(json[i]!)) i += 1;
  return i;
}

/** Just past the string that opens at `at` (a `"`). */
function stringEnd(json: string, at: number): number | undefined {
  for (let i = at + 1; i < json.length; i += 1) {
    const c = json[i];
    if (c === '\\') i += 1;
    else if (c === '"') return i + 1;
  }
  return undefined;
}

/** Just past the value that starts at `at`. */
function valueEnd(json: string, at: number): number | undefined {
  const first = json[at];
  if (first === '"') return stringEnd(json, at);
  if (first !== '{' && first !== '[') {
    let i = at;
    while (i < json.length && !SPACE.has(json[i]!) && !',}]'.includes(json[i]!)) i += 1;
    return i;
  }
  let depth = 0;
  for (let i = at; i < json.length; i += 1) {
    const c = json[i];
    if (c === '"') {
      const end = stringEnd(json, i);
      if (end === undefined) return undefined;
      i = end - 1;
    } else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

/** Where the value of the member named `key` (as JSON text) of the object opening at `at` starts. */
function memberValue(json: string, at: number, key: string): number | undefined {
  if (json[at] !== '{') return undefined;
  let i = skipSpace(json, at + 1);
  while (json[i] === '"') {
    const keyEnd = stringEnd(json, i);
    if (keyEnd === undefined) return undefined;
    const colon = skipSpace(json, keyEnd);
    if (json[colon] !== ':') return undefined;
    const value = skipSpace(json, colon + 1);
    if (json.slice(i, keyEnd) === key) return value;
    const end = valueEnd(json, value);
    if (end === undefined) return undefined;
    i = skipSpace(json, end);
    if (json[i] !== ',') return undefined;
    i = skipSpace(json, i + 1);
  }
  return undefined;
}
