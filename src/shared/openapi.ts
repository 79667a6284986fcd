import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './http.js';

/**
 * The OpenAPI document is generated from the route schemas. Register before any route, then
 * `serveApiDocs` after all of them.
 */
export async function collectApiDocs(app: App, publicUrl: string, version: string): Promise<void> {
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
      tags: [
        {
          name: 'authorization',
          description: 'OAuth 2.0 endpoints of the enrollee data authorization service',
        },
      ],
    },
  });
}

export async function serveApiDocs(app: App): Promise<void> {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
}
