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
      components: { securitySchemes },
      tags: [
        {
          name: 'authorization',
          description: 'OAuth 2.0 endpoints of the enrollee data authorization service',
        },
      ],
    },
  });
}

interface Document {
  paths?: Record<string, unknown>;
  info: Record<string, unknown>;
  [key: string]: unknown;
}

/** The document restricted to the paths under `prefix`: one service's API on its own. */
function documentOf(app: App, prefix: string, title: string, description: string): Document {
  const whole = app.swagger() as unknown as Document;
  const paths = Object.fromEntries(
    Object.entries(whole.paths ?? {}).filter(([path]) => path.startsWith(prefix)),
  );
  return { ...whole, info: { ...whole.info, title, description }, paths };
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
