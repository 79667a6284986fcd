import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import multipart from '@fastify/multipart';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { maxHeaderSize } from 'node:http';
import { clientErrorHandler, type RawAnswer } from './client-error.js';
import { CORS_HEADERS, isPreflight, PREFLIGHT_HEADERS } from './cors.js';
import { defaultErrors, type ErrorRenderer } from './error-renderer.js';
import { HttpError, UnavailableError } from './errors.js';
import type { Logger } from './logger.js';
import { checkQueryEncoding, parseUrlEncoded } from './form.js';
import { rejectInvalidInput } from './input-guard.js';
import { createRouteTable, type RouteTable } from './route-table.js';
import { AJV_OPTIONS, lazySchemaCompilers } from './schema-compilers.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How errors of this route render, when the route's own handler did not shape them. */
    errors?: ErrorRenderer;
    /** The route answers without the database (health, metrics, docs, assets): never failed fast. */
    offline?: boolean;
    /** Scripts of any origin may read the route (shared/cors.ts): preflights and CORS headers. */
    cors?: boolean;
  }
}

export interface HttpServerOptions {
  logger: Logger;
  trustProxy: boolean;
  /** Renders an HTML page for errors whose body is a page. */
  renderPage: (request: FastifyRequest, template: string, data: Record<string, unknown>) => string;
  bodyLimit?: number;
  /**
   * Renderers by URL path prefix (`{ '/api/v1': planErrors }`), for errors raised where no route's config
   * says how to render them: a malformed URL (refused before routing), a path no route serves. The
   * longest matching prefix wins; elsewhere `defaultErrors`.
   */
  errorRenderers?: Readonly<Record<string, ErrorRenderer>>;
  /**
   * Whether an error means a dependency could not be reached (the database went away), so the answer is
   * 503 with `Retry-After` instead of 500. `UnavailableError`s are always taken as such.
   */
  isUnavailable?: (error: unknown) => boolean;
  /**
   * Whether an error means a dependency answered but the request's work there took too long (a statement
   * timeout): the surface's `timedOut` answer, else its 503. Logged, since it is not an outage.
   */
  isTimedOut?: (error: unknown) => boolean;
  /** Seconds a 503 asks the client to wait (`Retry-After`). */
  retryAfterSeconds?: number;
}

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  import('fastify').FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The options and what the kernel learns of the app's routes as they are registered. */
interface Kernel extends HttpServerOptions {
  routes: RouteTable;
}

/** The HTTP kernel both services stand on: parsers, logging, security headers and one error renderer. */
export async function createHttpServer(serverOptions: HttpServerOptions): Promise<App> {
  const options: Kernel = { ...serverOptions, routes: createRouteTable({ ignoreTrailingSlash: true }) };
  const app = Fastify({
    bodyLimit: options.bodyLimit ?? 64 * 1024,
    trustProxy: options.trustProxy,
    // No parameter is refused for its length: the request line is already bounded (Node's maxHeaderSize),
    // no route has a regular-expression parameter to protect, and an over-long id is then answered by its
    // route like any other unknown one (404 `Not found.` in the surface's shape, after authentication).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxHeaderSize },
    loggerInstance: options.logger,
    // During a graceful shutdown a request that still arrives on an open connection is served (with
    // `Connection: close`) rather than refused with the framework's own 503 body.
    return503OnClosing: false,
    ajv: AJV_OPTIONS,
    // Raised before routing (a path that is not valid percent-encoded UTF-8; a parameter over
    // maxParamLength, which cannot happen at the length above, would be an unknown id): only the URL tells
    // the shape.
    frameworkErrors: (error, request, reply) => {
      const [status, message] =
        error.code === 'FST_ERR_BAD_URL'
          ? [400, 'Malformed URL: the path is not valid percent-encoded UTF-8.']
          : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? [404, 'Not found.']
            : [400, 'Bad request.'];
      // No hook runs for a request refused before routing: its headers are set here.
      securityHeaders(request, reply as FastifyReply);
      const httpError = rendererOfUrl(options, request.url).invalid(status, message);
      void render(options, httpError, request, reply as FastifyReply);
    },
    // Refused by Node's HTTP parser (oversized or unparseable request line and headers): no request exists.
    clientErrorHandler: clientErrorHandler(
      (status, message, path) => rawAnswer(options, status, message, path),
      options.logger,
    ),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      try {
        done(null, parseUrlEncoded(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { files: 0, fields: 50, fieldSize: 16 * 1024, parts: 50 },
  });
  await app.register(cookie);

  // Every route of every plugin registered from here on, for the 405s and shapes of unmatched requests.
  app.addHook('onRoute', (route) => options.routes.add(route));
  // Each route's schemas are compiled at its first request, not here (shared/schema-compilers.ts).
  app.addHook('onRoute', lazySchemaCompilers());

  // A query string that is not valid percent-encoded UTF-8 is refused, not silently repaired.
  // These two run on every request: callback hooks, which cost less than async ones.
  app.addHook('onRequest', (request, reply, done) => {
    try {
      checkQueryEncoding(request.url);
    } catch {
      done(rendererOf(options, request).invalid(400, 'Malformed percent-encoding in the query string.'));
      return;
    }
    // No route takes OPTIONS: a CORS preflight for a path whose routes allow it is answered here (204), so
    // that every other OPTIONS and wrong method keeps its 405 with `Allow`.
    if (request.is404 && isPreflight(request) && options.routes.lookup(request.url)?.config?.cors) {
      void reply.code(204).headers(PREFLIGHT_HEADERS).send();
      return;
    }
    // Before the body is parsed (a wrong method is not a 415 or a 413) and before any gateway.
    done(request.is404 ? methodNotAllowed(options, request) : undefined);
  });

  // Non-finite numbers and NUL characters are refused for every route, after validation coerced them.
  app.addHook('preHandler', rejectInvalidInput);

  app.addHook('onSend', (request, reply, payload, done) => {
    securityHeaders(request, reply);
    const config = request.is404 ? options.routes.lookup(request.url)?.config : request.routeOptions.config;
    if (config?.cors === true && !reply.hasHeader('access-control-allow-origin')) reply.headers(CORS_HEADERS);
    done(null, payload);
  });

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) =>
    sendError(options, error, request, reply),
  );
  app.setNotFoundHandler((request, reply) =>
    sendError(options, rendererOf(options, request).invalid(404, 'Not found.'), request, reply),
  );
  return app as unknown as App;
}

/**
 * RFC 9110 §15.5.6: a path some route serves, asked with a method none of them takes, is 405 with the
 * methods they do take in `Allow`, in the shape of the path's surface (DRF's wording,
 * docs/decisions.md#method-not-allowed).
 * Only for requests the router did not match.
 */
function methodNotAllowed(options: Kernel, request: FastifyRequest): HttpError | undefined {
  const match = options.routes.lookup(request.url);
  if (!match) return undefined;
  const renderer =
    match.config?.errors ?? rendererOfPath(options.errorRenderers, request.url) ?? defaultErrors;
  return renderer.invalid(405, `Method "${request.method}" not allowed.`, {
    allow: match.methods.join(', '),
  });
}

/** Headers every answer carries; a route may set its own content-security-policy. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};
const DEFAULT_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'";

function securityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(SECURITY_HEADERS);
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', DEFAULT_CSP);
  if (!reply.hasHeader('cache-control') && request.method !== 'GET')
    reply.header('cache-control', 'no-store');
}

/** The page renderer is given no request for an answer written before one existed: no language asked. */
const NO_REQUEST = { query: {}, headers: {} } as unknown as FastifyRequest;

/**
 * A framework error for a request Node's parser refused, as bytes for the socket: the shape of the path
 * the request line named (`message` when it could not be read), the headers every answer carries.
 */
function rawAnswer(options: Kernel, status: number, message: string, path: string | undefined): RawAnswer {
  const { body, headers } = rendererOfUrl(options, path ?? '').invalid(status, message);
  const [type, text] =
    body.kind === 'json'
      ? ['application/json; charset=utf-8', JSON.stringify(body.value)]
      : body.kind === 'text'
        ? ['text/plain; charset=utf-8', body.value]
        : [
            'text/html; charset=utf-8',
            options.renderPage(NO_REQUEST, body.template, { ...body.data, status }),
          ];
  return {
    status,
    headers: {
      'content-type': type,
      ...SECURITY_HEADERS,
      'content-security-policy': DEFAULT_CSP,
      'cache-control': 'no-store',
      ...headers,
    },
    body: text,
  };
}

/** The renderer of the longest prefix in `renderers` that `url`'s path is (or is under), if any. */
function rendererOfPath(
  renderers: Readonly<Record<string, ErrorRenderer>> | undefined,
  url: string,
): ErrorRenderer | undefined {
  if (!renderers) return undefined;
  const path = url.split('?', 1)[0]!;
  let best: string | undefined;
  for (const prefix of Object.keys(renderers)) {
    const base = prefix.replace(/\/+$/, '');
    const under = path === base || path.startsWith(`${base}/`);
    if (under && (best === undefined || base.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : renderers[best];
}

/** How errors of this request render: its route's config, else its URL's (below). */
function rendererOf(options: Kernel, request: FastifyRequest): ErrorRenderer {
  return request.routeOptions.config?.errors ?? rendererOfUrl(options, request.url);
}

/**
 * How errors render where no route was matched: the config of a route whose pattern the path matches
 * (under any method), else the longest `errorRenderers` prefix, else `defaultErrors`.
 */
function rendererOfUrl(options: Kernel, url: string): ErrorRenderer {
  return (
    options.routes.lookup(url)?.config?.errors ?? rendererOfPath(options.errorRenderers, url) ?? defaultErrors
  );
}

/** The multipart parser (busboy) reports a malformed body with plain errors; they are the client's fault. */
function malformedMultipart(error: FastifyError): boolean {
  return /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data)$/.test(
    error.message,
  );
}

/** A schema validation failure as "where: what is wrong" (`querystring.year: must be integer`). */
function describeClientError(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message ?? 'Bad request.';
  const path = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = first.params as { missingProperty?: string; additionalProperty?: string } | undefined;
  const where = [error.validationContext, path, params?.missingProperty ?? params?.additionalProperty]
    .filter(Boolean)
    .join('.');
  return `${where}: ${params?.additionalProperty ? 'is not a known field' : (first.message ?? 'is invalid')}`;
}

function sendError(
  options: Kernel,
  error: FastifyError | HttpError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let httpError: HttpError;
  if (error instanceof HttpError) {
    httpError = error;
  } else if (options.isTimedOut?.(error)) {
    request.log.warn({ err: error }, 'statement timed out');
    const renderer = rendererOf(options, request);
    httpError = renderer.timedOut?.() ?? renderer.unavailable(options.retryAfterSeconds ?? 5);
  } else if (error instanceof UnavailableError || options.isUnavailable?.(error)) {
    // The outage itself is logged once, when it starts and when it ends; each refused request only at debug.
    request.log.debug({ err: error }, 'dependency unavailable');
    httpError = rendererOf(options, request).unavailable(options.retryAfterSeconds ?? 5);
  } else {
    const status = malformedMultipart(error)
      ? 400
      : error.statusCode && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status === 500) request.log.error({ err: error }, 'unhandled error');
    const renderer = rendererOf(options, request);
    const message =
      status === 500
        ? 'Internal server error.'
        : renderer.namesInvalidField
          ? describeClientError(error)
          : (error.message ?? 'Bad request.');
    httpError = renderer.invalid(status, message);
  }
  return render(options, httpError, request, reply);
}

function render(
  options: HttpServerOptions,
  httpError: HttpError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  reply.status(httpError.status).headers(httpError.headers);
  const { body } = httpError;
  if (body.kind === 'json') return reply.type('application/json; charset=utf-8').send(body.value);
  if (body.kind === 'text') return reply.type('text/plain; charset=utf-8').send(body.value);
  return reply
    .type('text/html; charset=utf-8')
    .send(options.renderPage(request, body.template, { ...body.data, status: httpError.status }));
}
