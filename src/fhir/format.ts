/**
 * FHIR R4 §3.1.0.1.8 (http.html#mime-type): a client chooses the format with `Accept` or, where it cannot
 * set headers, `_format`. This server writes JSON only, so a request that can take nothing but XML (or
 * another format) is refused with 406 rather than answered in a format it did not ask for. Pure.
 */

/** `_format` values meaning JSON: the FHIR shorthands and the MIME types (R4 and the older DSTU2 name). */
const JSON_FORMATS = new Set(['json', 'application/json', 'application/fhir+json', 'application/json+fhir']);

const mediaType = (text: string) => text.split(';', 1)[0]!.trim().toLowerCase();

/** The `_format` values that are not JSON (empty when all are, or none is given). */
export function unservedFormats(formats: string[]): string[] {
  return formats.filter((format) => !JSON_FORMATS.has(mediaType(format)));
}

function isXml(type: string): boolean {
  return (
    type === 'application/xml' ||
    type === 'text/xml' ||
    type.endsWith('+xml') ||
    type === 'application/xml+fhir'
  );
}

/**
 * Whether `Accept` asks only for XML (RFC 9110 §12.5.1: ranges with `q=0` are refusals, not requests).
 * Anything else — no header, a range JSON falls in, or types we cannot serve either such as `text/html`
 * from a browser — is answered in JSON, as RFC 9110 allows a server to do.
 */
export function acceptsOnlyXml(accept: string | undefined): boolean {
  if (!accept) return false;
  const wanted = accept
    .split(',')
    .map((range) => {
      const q = /;\s*q\s*=\s*([0-9.]+)/i.exec(range)?.[1];
      return { type: mediaType(range), q: q === undefined ? 1 : Number(q) };
    })
    .filter(({ type, q }) => type !== '' && !(q <= 0));
  return wanted.length > 0 && wanted.every(({ type }) => isXml(type));
}
