import type { FastifyRequest } from 'fastify';

export type FormValues = Record<string, string | string[]>;

/** Thrown for bytes that are not valid `application/x-www-form-urlencoded` (bad `%` escapes, bad UTF-8). */
export class MalformedEncodingError extends Error {
  readonly statusCode = 400;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new MalformedEncodingError('Malformed percent-encoding.');
  }
}

/**
 * Strict `application/x-www-form-urlencoded` parsing (WHATWG URL §5.1, but refusing what it would
 * silently repair): a repeated name collects its values in order.
 */
export function parseUrlEncoded(text: string): FormValues {
  const out: FormValues = Object.create(null) as FormValues;
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(part.slice(eq + 1));
    const previous = out[name];
    out[name] = previous === undefined ? value : [previous, value].flat();
  }
  return out;
}

/** The raw query string of a request, checked for valid encoding. */
export function checkQueryEncoding(url: string): void {
  const q = url.indexOf('?');
  // Without a `%` there is no escape to get wrong: only percent-decoding can fail.
  if (q >= 0 && url.includes('%', q)) parseUrlEncoded(url.slice(q + 1));
}

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * Flattens parsed parameters to single strings. RFC 6749 §3.1/§3.2: a parameter must not repeat; values
 * that are not text are refused too.
 */
export function singleParams(
  source: unknown,
  onProblem: (message: string) => Error,
  repeatable: readonly string[] = [],
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (source === null || source === undefined) return out;
  if (typeof source !== 'object') throw onProblem('Request parameters must be form-encoded.');
  for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
    if (Array.isArray(value) && !repeatable.includes(key)) {
      throw onProblem(`Parameter ${key} must not be repeated.`);
    }
    const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof last !== 'string') throw onProblem(`Parameter ${key} must be text.`);
    // No parameter of ours can hold a NUL, and PostgreSQL text cannot store one.
    if (last.includes('\u0000') || key.includes('\u0000'))
      throw onProblem(`Parameter ${key} contains a NUL character.`);
    out[key] = last;
  }
  return out;
}

/**
 * The parameters of a form POST: only form-urlencoded or multipart bodies (the Python SDK sends multipart)
 * are forms; anything else is refused with 415 through `onProblem`.
 */
export function formBody(
  request: FastifyRequest,
  onProblem: (status: number, message: string) => Error,
  repeatable: readonly string[] = [],
): Record<string, string | undefined> {
  const type = request.headers['content-type'];
  if (type !== undefined && !FORM_TYPES.test(type)) {
    throw onProblem(415, 'The body must be application/x-www-form-urlencoded or multipart/form-data.');
  }
  return singleParams(request.body, (message) => onProblem(400, message), repeatable);
}
