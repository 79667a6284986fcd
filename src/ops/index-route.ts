import { Type } from 'typebox';
import type { App } from '../shared/http.js';

export interface IndexPrefixes {
  /** The plan API's base path (`/api/v1`). */
  planApi: string;
  /** The procedure price lookup's base path (`/ppl/api/v1`). */
  priceLookup: string;
}

const Api = Type.Object({
  name: Type.String(),
  base: Type.String(),
  docs: Type.String(),
  openapi: Type.String(),
  discovery: Type.Optional(Type.Array(Type.String())),
  auth: Type.String(),
});

const Index = Type.Object({
  name: Type.String(),
  apis: Type.Array(Api),
  docs: Type.String(),
  openapi: Type.String(),
  health: Type.String(),
});

/** The index a JSON client gets at `/`: every API of the service, where it lives and how to call it. */
export function serviceIndex(publicUrl: string, prefixes: IndexPrefixes) {
  const at = (path: string) => `${publicUrl}${path}`;
  return {
    name: 'openenroll',
    apis: [
      {
        name: 'enrollee data authorization (Blue Button 2.0 kind): OAuth 2.0, OpenID Connect, FHIR R4',
        base: at('/v2'),
        docs: at('/docs'),
        openapi: at('/openapi.json'),
        discovery: [at('/.well-known/openid-configuration'), at('/v2/fhir/.well-known/smart-configuration')],
        auth: 'authorization code + PKCE S256; Bearer access token on /v2/fhir',
      },
      {
        name: 'health plan API (Marketplace API kind)',
        base: at(prefixes.planApi),
        docs: at(`${prefixes.planApi}/docs`),
        openapi: at(`${prefixes.planApi}/openapi.json`),
        auth: 'API key in the apikey query parameter or header',
      },
      {
        name: 'procedure price lookup (CMS PPL kind)',
        base: at(prefixes.priceLookup),
        docs: at(`${prefixes.priceLookup}/docs`),
        openapi: at(`${prefixes.priceLookup}/openapi.json`),
        auth: 'apiKey and amaLicense headers',
      },
    ],
    docs: at('/docs'),
    openapi: at('/openapi.json'),
    health: at('/health'),
  };
}

/**
 * `GET /`: a browser (its Accept names text/html) is sent to the Swagger UI; any other client gets the
 * JSON index, so the first request a new user makes shows where everything is instead of a 404. Needs no
 * database.
 */
export function registerIndexRoute(app: App, publicUrl: string, prefixes: IndexPrefixes): void {
  const index = serviceIndex(publicUrl, prefixes);
  app.get(
    '/',
    {
      schema: { hide: true, response: { 200: Index } },
      config: { offline: true },
    },
    async (request, reply) => {
      reply.header('vary', 'Accept');
      if ((request.headers.accept ?? '').includes('text/html')) return reply.redirect('/docs', 302);
      return index;
    },
  );
}
