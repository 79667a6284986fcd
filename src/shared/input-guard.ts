import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * What no route accepts, whatever its schema says, checked once for every request after validation:
 * - a number that is not finite. JSON's `1e309` parses to Infinity, and ajv coerces a query string's
 *   `Infinity`, `1e309` or a 400-digit number to ±Infinity *after* its type check and then skips
 *   `minimum`/`maximum` for it (they only apply to finite numbers), so an infinite value passes every
 *   numeric schema and reaches the store;
 * - a string with U+0000 (NUL): PostgreSQL refuses it in text (`invalid byte sequence 0x00`) where SQLite
 *   takes it, so one request would answer differently on the two databases.
 */
export function findInvalidValue(value: unknown, path: string): string | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) ? undefined : `${path}: must be a finite number`;
  if (typeof value === 'string')
    return value.includes('\0') ? `${path}: must not contain a NUL character` : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = findInvalidValue(value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  for (const key in value) {
    if (key.includes('\0')) return `${path}: a name must not contain a NUL character`;
    const problem = findInvalidValue((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * A `preHandler` hook (it runs after validation has coerced the inputs): refuses the request with 400,
 * rendered in the route's error shape, when a path id, query parameter, body field or cookie holds a value
 * `findInvalidValue` refuses.
 */
export function rejectInvalidInput(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
) {
  const problem =
    findInvalidValue(request.params, 'params') ??
    findInvalidValue(request.query, 'querystring') ??
    findInvalidValue(request.body, 'body') ??
    findInvalidValue(request.cookies, 'cookie');
  if (!problem) {
    done();
    return;
  }
  done(Object.assign(new Error(problem), { statusCode: 400 }));
}
