import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../shared/http.js';
import { checkSubject, requireScope } from '../fhir/access.js';
import { searchsetBundle } from '../fhir/bundle.js';
import { capabilityStatement } from '../fhir/capability.js';
import { parseSearch } from '../fhir/search-params.js';
import { RESOURCE_TYPES, type ResourceType } from '../fhir/validate.js';
import { authenticateBearer } from '../oauth/bearer.js';
import type { AuthDeps } from '../oauth/deps.js';
import { detailError } from '../oauth/errors.js';

const FHIR_JSON = 'application/fhir+json; charset=utf-8';
type Query = Record<string, string | string[] | undefined>;

function authenticate(deps: AuthDeps, request: FastifyRequest) {
  const query = request.query as Query;
  return authenticateBearer(deps, request.headers.authorization, 'access_token' in query);
}

/** GET /v2/fhir/<Type>/<id> — only the token's own patient's resources exist for it. */
async function read(
  deps: AuthDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  type: ResourceType,
  id: string,
) {
  const context = await authenticate(deps, request);
  requireScope(context, type, 'read');
  const resource = await deps.fhir.findResource(type, id);
  if (!resource || resource.patientId !== context.patientId) throw detailError(404, 'Not found.');
  return reply.header('cache-control', 'no-store').type(FHIR_JSON).send(resource.body);
}

/** GET /v2/fhir/<Type>/ — a searchset over the token's patient, paged with absolute links. */
async function search(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply, type: ResourceType) {
  const context = await authenticate(deps, request);
  requireScope(context, type, 'search');
  const params = parseSearch(type, request.query as Query);
  checkSubject(context, type, params.subject);
  const { total, bodies } = await deps.fhir.search({
    resourceType: type,
    patientId: context.patientId,
    lastUpdated: params.lastUpdated,
    serviceDate: params.serviceDate,
    eobTypes: params.eobTypes,
    offset: params.startIndex,
    limit: params.count,
  });
  const bundle = searchsetBundle({
    base: deps.settings.publicUrl,
    type,
    total,
    startIndex: params.startIndex,
    count: params.count,
    echo: params.echo,
    entries: bodies,
    now: deps.now(),
  });
  return reply.header('cache-control', 'no-store').type(FHIR_JSON).send(bundle);
}

/**
 * The claims data the tokens protect (research §4): metadata, read and search of three resource types.
 * Read-only: writes are 405 `Method "POST" not allowed.` with `Allow` from the HTTP kernel.
 */
export function registerFhirRoutes(app: App, deps: AuthDeps): void {
  const config = { errorShape: 'detail' as const };
  app.get(
    '/v2/fhir/metadata',
    { config, schema: { tags: ['data'], summary: 'CapabilityStatement' } },
    (_request, reply) => reply.type(FHIR_JSON).send(capabilityStatement(deps.settings.publicUrl, deps.now())),
  );
  for (const type of RESOURCE_TYPES) {
    app.get(
      `/v2/fhir/${type}`,
      { config, schema: { tags: ['data'], summary: `Search ${type} of the token's patient` } },
      (request, reply) => search(deps, request, reply, type),
    );
    app.get(
      `/v2/fhir/${type}/:id`,
      { config, schema: { tags: ['data'], summary: `Read one ${type} of the token's patient` } },
      (request, reply) => read(deps, request, reply, type, (request.params as { id: string }).id),
    );
  }
}
