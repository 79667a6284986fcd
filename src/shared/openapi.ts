import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './http.js';

/**
 * The OpenAPI document is generated from the route schemas. Register before any route, then
 * `serveApiDocs` after all of them.
 */
/** An API key sent as a query parameter or header (the only scheme the services use besides OAuth). */
export interface ApiKeyScheme {
  type: 'apiKey';
  in: 'query' | 'header';
  name: string;
  description?: string;
}

/**
 * The access tokens of the authorization service (RFC 6750 §2.1, header only), declared for every document
 * so Swagger UI's "Authorize" can send one to the data routes that name it (`security: [{ bearer: [] }]`).
 */
export const BEARER_SECURITY_SCHEME = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An access token from `POST /v2/o/token/`, sent as `Authorization: Bearer <token>` (never in the query).',
  },
} as const;

export async function collectApiDocs(
  app: App,
  publicUrl: string,
  version: string,
  securitySchemes: Record<string, ApiKeyScheme> = {},
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'openenroll',
        version,
        description:
          'Enrollee data authorization (OAuth 2.0 authorization code + PKCE S256, confidential clients) and the ' +
          'health plan API. Token-side requests are form-encoded; client credentials by HTTP Basic or in the body.',
      },
      servers: [{ url: publicUrl }],
      components: { securitySchemes: { ...BEARER_SECURITY_SCHEME, ...securitySchemes } },
      tags: [
        {
          name: 'authorization',
          description: 'OAuth 2.0 endpoints of the enrollee data authorization service',
        },
      ],
    },
  });
}

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
}

interface Document {
  paths?: Record<string, Record<string, Operation>>;
  info: Record<string, unknown>;
  tags?: { name: string }[];
  components?: { securitySchemes?: Record<string, unknown> };
  [key: string]: unknown;
}

/**
 * The document restricted to the paths under `prefix`: one service's API on its own, with only the tags and
 * security schemes its operations use (Swagger UI draws a declared tag as a section even when it is empty,
 * and offers every declared scheme under "Authorize").
 */
function documentOf(app: App, prefix: string, title: string, description: string): Document {
  const whole = app.swagger() as unknown as Document;
  const paths = Object.fromEntries(
    Object.entries(whole.paths ?? {}).filter(([path]) => path.startsWith(prefix)),
  );
  const operations = Object.values(paths).flatMap((methods) => Object.values(methods));
  const tags = new Set(operations.flatMap((o) => o.tags ?? []));
  const schemes = new Set(operations.flatMap((o) => (o.security ?? []).flatMap((s) => Object.keys(s))));
  const securitySchemes = Object.fromEntries(
    Object.entries(whole.components?.securitySchemes ?? {}).filter(([name]) => schemes.has(name)),
  );
  return {
    ...whole,
    info: { ...whole.info, title, description },
    tags: (whole.tags ?? []).filter((t) => tags.has(t.name)),
    components: { ...whole.components, securitySchemes },
    paths,
  };
}

export interface PartialDocs {
  prefix: string;
  title: string;
  description: string;
}

/**
 * `/openapi.json` + `/docs` for the whole service, and for each `partial` its own document and Swagger
 * UI under its prefix (`/api/v1/openapi.json`, `/api/v1/docs`).
 */
export async function serveApiDocs(app: App, partials: PartialDocs[] = []): Promise<void> {
  app.get('/openapi.json', { schema: { hide: true }, config: { offline: true } }, async () => app.swagger());
  // Each Swagger UI lives in a context of its own: the plugin decorates the instance it is given.
  await app.register(async (scope) => {
    await scope.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  });
  for (const { prefix, title, description } of partials) {
    app.get(`${prefix}/openapi.json`, { schema: { hide: true }, config: { offline: true } }, async () =>
      documentOf(app, prefix, title, description),
    );
    await app.register(async (scope) => {
      await scope.register(swaggerUi, {
        routePrefix: `${prefix}/docs`,
        staticCSP: true,
        transformSpecification: () => documentOf(app, prefix, title, description),
      });
    });
  }
}
