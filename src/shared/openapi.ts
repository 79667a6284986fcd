import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './http.js';

/** An API key sent as a query parameter or header (the only scheme the services use besides OAuth). */
export interface ApiKeyScheme {
  type: 'apiKey';
  in: 'query' | 'header';
  name: string;
  description?: string;
}

/** A security scheme of a document (OpenAPI 3.1 §4.8.27): an API key, or HTTP bearer tokens. */
export type SecurityScheme = ApiKeyScheme | { type: 'http'; scheme: 'bearer'; description?: string };

/** What the whole-service document says of itself, and what its services contribute. */
export interface ApiDocsInfo {
  publicUrl: string;
  version: string;
  title: string;
  description: string;
  /** Tags declared up front (those the routes use are added as they register). */
  tags?: { name: string; description: string }[];
  securitySchemes?: Record<string, SecurityScheme>;
}

/**
 * The OpenAPI document is generated from the route schemas. Register before any route, then
 * `serveApiDocs` after all of them.
 */
export async function collectApiDocs(app: App, info: ApiDocsInfo): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: info.title, version: info.version, description: info.description },
      servers: [{ url: info.publicUrl }],
      components: { securitySchemes: { ...info.securitySchemes } },
      tags: info.tags ?? [],
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
