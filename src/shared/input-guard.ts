import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * How deeply a request's values may nest. The deepest body any route documents (a plan-API household:
 * body → household → people → person → field) is about six levels; 32 leaves room for every honest
 * client while a body nested thousands of levels deep — which JSON.parse accepts — is refused before any
 * code walks it (OWASP ASVS 4.0 V13.1.4: limit the structure of input, not only its size).
 */
export const MAX_INPUT_DEPTH = 32;

/**
 * What no route accepts, whatever its schema says, checked once for every request after validation:
 * - values nested deeper than `MAX_INPUT_DEPTH`;
 * - a number that is not finite. JSON's `1e309` parses to Infinity, and ajv coerces a query string's
 *   `Infinity`, `1e309` or a 400-digit number to ±Infinity *after* its type check and then skips
 *   `minimum`/`maximum` for it (they only apply to finite numbers), so an infinite value passes every
 *   numeric schema and reaches the store;
 * - a string with U+0000 (NUL): PostgreSQL refuses it in text (`invalid byte sequence 0x00`) where SQLite
 *   takes it, so one request would answer differently on the two databases.
 *
 * The walk is iterative (an explicit stack), so no input can exhaust the call stack. Returns the first
 * problem as "where: what is wrong", or undefined.
 */
export function findInvalidValue(root: unknown, rootPath: string): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value: root, path: rootPath, depth: 0 },
  ];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return `${path}: must be a finite number`;
      continue;
    }
    if (typeof value === 'string') {
      if (value.includes('\0')) return `${path}: must not contain a NUL character`;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return `${rootPath}: must not nest deeper than ${MAX_INPUT_DEPTH} levels`;
    const children: { value: unknown; path: string; depth: number }[] = [];
    if (Array.isArray(value)) {
      value.forEach((item, i) => children.push({ value: item, path: `${path}[${i}]`, depth: depth + 1 }));
    } else {
      for (const key in value) {
        if (key.includes('\0')) return `${path}: a name must not contain a NUL character`;
        const child = (value as Record<string, unknown>)[key];
        children.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
      }
    }
    // Pushed in reverse so the first problem in document order is the one reported.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
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
