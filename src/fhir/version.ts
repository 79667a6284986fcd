/**
 * FHIR R4 §3.1.0.5 / §3.1.0.8 (http.html#versioning, #concurrency): a read carries the version in
 * `meta.versionId` and as a weak `ETag` `W/"<versionId>"`, and `Last-Modified` from the last update.
 * Bodies imported before versions were stored have none: they are version "1", the same in the body, the
 * ETag and every search entry. Pure.
 */
export const FIRST_VERSION = '1';

/** The body with `meta.versionId` (set to "1" when missing) and that version. */
export function versioned(body: string): { body: string; versionId: string } {
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
