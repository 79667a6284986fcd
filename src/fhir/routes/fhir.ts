import type { FastifyReply, FastifyRequest } from 'fastify';
import { notModifiedSince, noneMatch } from '../../shared/conditional.js';
import type { App } from '../../shared/http.js';
import { checkSubject, mayRead, requireScope, withinReach, type ReadableType } from '../access.js';
import { searchsetBundle } from '../bundle.js';
import { capabilityStatement } from '../capability.js';
import { acceptsOnlyXml, unservedFormats } from '../format.js';
import { includeAll } from '../include.js';
import { TAX_NUM_URL, includeTaxNumbersHeader, withoutTaxNumbers } from '../bfd/professional.js';
import { parseSearch, type SearchParams } from '../search-params.js';
import { identifiersMatch } from '../token-search.js';
import { DIRECTORY_RESOURCE_TYPES, RESOURCE_TYPES, type ResourceType } from '../validate.js';
import { versioned, versionedEntry, weakETag } from '../version.js';
import type { FhirDeps } from '../deps.js';
import { detailError } from '../../shared/detail-error.js';
import { fhirErrors } from '../errors.js';
import { ReadParams, requestHeaders, searchQuery } from './fhir-schemas.js';

const FHIR_JSON = 'application/fhir+json; charset=utf-8';
type Query = Record<string, string | string[] | undefined>;

function authenticate(deps: FhirDeps, request: FastifyRequest) {
  const query = request.query as Query;
  return deps.authenticate(request.headers.authorization, 'access_token' in query);
}

/** FHIR R4 §3.1.0.1.8: JSON is the only format served; a request that can take only another one is 406. */
async function refuseOtherFormats(request: FastifyRequest): Promise<void> {
  const format = (request.query as Query)._format;
  const unserved = unservedFormats(format === undefined ? [] : [format].flat());
  if (unserved.length > 0) {
    throw detailError(406, `_format ${unserved[0]} is not available: resources are served as JSON only.`);
  }
  if (acceptsOnlyXml(request.headers.accept)) {
    throw detailError(
      406,
      'XML is not available: resources are served as JSON only (application/fhir+json).',
    );
  }
}

/**
 * Whether the request's `IncludeTaxNumbers` header asks for the claim lines' tax numbers, as BFD reads it:
 * `true` or `false` in any case, absent is false; any other value (or the header twice) is 400 in BFD's
 * words (docs/decisions.md#fhir-search).
 */
function wantsTaxNumbers(request: FastifyRequest): boolean {
  try {
    return includeTaxNumbersHeader(request.headers.includetaxnumbers);
  } catch (error) {
    throw detailError(400, (error as Error).message);
  }
}

/**
 * A body as served: without `IncludeTaxNumbers: true` an EOB's lines' tax numbers are left out (BFD's
 * default answer). A RIF claim's stored body has none (the store makes one with them when asked), so only an
 * imported body that names them is parsed; the others are passed on as stored.
 */
function taxNumbersAsAsked(body: string, include: boolean): string {
  if (include || !body.includes(TAX_NUM_URL)) return body;
  return JSON.stringify(withoutTaxNumbers(JSON.parse(body) as Record<string, unknown>));
}

/**
 * GET /v2/fhir/<Type>/<id> — only the token's own patient's resources and the directory exist for it
 * (fhir/access.ts: who may read Organization and Practitioner). The version is in
 * `meta.versionId`, `ETag` and `Last-Modified`; a conditional read of the current version is 304
 * (FHIR R4 §3.1.0.5, RFC 9110 §13.1.2–3, If-None-Match first).
 */
async function read(
  deps: FhirDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  type: ReadableType,
  id: string,
) {
  const context = await authenticate(deps, request);
  requireScope(context, type, 'read');
  const eob = type === 'ExplanationOfBenefit';
  const taxNumbers = eob && wantsTaxNumbers(request);
  const resource = await deps.fhir.findResource(type, id, { taxNumbers });
  if (!resource || !withinReach(context, resource)) throw detailError(404, 'Not found.');
  const { body, versionId } = versioned(taxNumbersAsAsked(resource.body, !eob || taxNumbers));
  const etag = weakETag(versionId);
  if (eob) void reply.header('vary', 'IncludeTaxNumbers');
  void reply
    .header('cache-control', 'no-store')
    .header('etag', etag)
    .header('last-modified', new Date(resource.lastUpdated).toUTCString());
  const ifNoneMatch = request.headers['if-none-match'];
  const unchanged =
    ifNoneMatch === undefined
      ? notModifiedSince(request.headers['if-modified-since'], resource.lastUpdated)
      : noneMatch(ifNoneMatch, etag);
  if (unchanged) return reply.code(304).send();
  // The stored bytes stand for the body only while it is served as stored.
  return reply.type(FHIR_JSON).send(body === resource.body && resource.bytes ? resource.bytes : body);
}

/** Patient `identifier` (token search): only the caller's own Patient can match, so it is checked here. */
async function identifierMatches(
  deps: FhirDeps,
  context: Awaited<ReturnType<typeof authenticate>>,
  params: SearchParams,
) {
  if (params.identifiers === undefined) return true;
  const own = await deps.fhir.findResource('Patient', context.patientId);
  if (!own) return false;
  return identifiersMatch((JSON.parse(own.body) as { identifier?: unknown }).identifier, params.identifiers);
}

/**
 * `_include` and `_include:iterate` (FHIR R4 §3.1.1.5.5): what the page's matches refer to, and with
 * `:iterate` what those refer to in turn (include.ts), each once, limited to what the token could read by id
 * (fhir/access.ts `mayRead`): never another patient's resource, nor the Patient without Patient scope.
 */
async function included(
  deps: FhirDeps,
  context: Awaited<ReturnType<typeof authenticate>>,
  type: ResourceType,
  params: SearchParams,
  bodies: { body: string }[],
) {
  if (params.includes.length === 0 && params.iterate.length === 0) return undefined;
  const entries = await includeAll(
    type,
    bodies.map((b) => b.body),
    params,
    (refs) => deps.fhir.findReferenced(refs),
    (r) => mayRead(context, r),
  );
  return entries.map((e) => ({ ...e, body: versionedEntry(e.body) }));
}

/**
 * Where the page of a search starts and how long it is (docs/decisions.md#fhir-paging): `startIndex` alone
 * skips that many matches; a link's `cursor` seeks from an entry's id and carries the total. The last page,
 * sought from the end, holds what `startIndex` leaves of the total (at most `_count`), so that it lines up
 * with the `startIndex` pages before it.
 */
function pageOf(params: SearchParams) {
  const { cursor, startIndex, count } = params;
  if (!cursor) return { offset: startIndex, limit: count };
  const left = cursor.total - startIndex;
  const fromEnd = cursor.direction === 'before' && cursor.id === undefined;
  return {
    offset: 0,
    limit: fromEnd && left > 0 && left < count ? left : count,
    seek: { direction: cursor.direction, ...(cursor.id === undefined ? {} : { id: cursor.id }) },
    total: cursor.total,
  };
}

/** GET /v2/fhir/<Type>/ — a searchset over the token's patient, paged with absolute links. */
async function search(deps: FhirDeps, request: FastifyRequest, reply: FastifyReply, type: ResourceType) {
  const context = await authenticate(deps, request);
  requireScope(context, type, 'search');
  const params = parseSearch(type, request.query as Query);
  checkSubject(context, type, params.subject);
  const eob = type === 'ExplanationOfBenefit';
  const taxNumbers = eob && wantsTaxNumbers(request);
  const page = (await identifierMatches(deps, context, params))
    ? await deps.fhir.search({
        resourceType: type,
        patientId: context.patientId,
        lastUpdated: params.lastUpdated,
        serviceDate: params.serviceDate,
        eobTypes: params.eobTypes,
        ids: params.ids,
        tokens: params.tokens,
        dates: params.dates,
        excludeSamhsa: params.excludeSamhsa,
        taxNumbers,
        ...pageOf(params),
      })
    : { total: 0, bodies: [], before: false, after: false };
  const bundle = searchsetBundle({
    base: deps.publicUrl,
    type,
    total: page.total,
    startIndex: params.startIndex,
    count: params.count,
    ...(params.cursor ? { cursor: params.cursor } : {}),
    before: page.before,
    after: page.after,
    echo: params.echo,
    entries: page.bodies.map((stored) => {
      const body = versionedEntry(taxNumbersAsAsked(stored.body, !eob || taxNumbers));
      // The stored bytes stand for the body only while it is served as stored.
      return body === stored.body ? stored : { id: stored.id, body };
    }),
    included: await included(deps, context, type, params, page.bodies),
    now: deps.now(),
  });
  if (eob) void reply.header('vary', 'IncludeTaxNumbers');
  return reply.header('cache-control', 'no-store').type(FHIR_JSON).send(bundle);
}

/**
 * The schemas document the parameters; the values are read by search-params.ts, which refuses bad ones in
 * Blue Button's words (docs/decisions.md#fhir-search, e.g. `value must be at most 50`) and ignores unknown
 * ones as Blue Button does.
 * Fastify's validator would answer in its own words first, so these routes do not use it.
 */
const documentOnly = () => () => true;

/**
 * The claims data the tokens protect (docs/decisions.md#fhir-endpoints): metadata, read and search of the
 * patient's three resource types (search with `_include`), and read of the directory they refer to
 * (Organization, Practitioner: readable with ExplanationOfBenefit or Coverage read scope).
 * Read-only: writes are 405 `Method "POST" not allowed.` with `Allow` from the HTTP kernel. Readable
 * across origins (routes/cors.ts).
 */
export function registerFhirService(app: App, deps: FhirDeps): void {
  const config = { errors: fhirErrors };
  const onRequest = refuseOtherFormats;
  // The Bearer scheme of the OpenAPI document (shared/openapi.ts): Swagger UI's "Authorize" sends it.
  const security = [{ bearer: [] }];
  const readRoute = (type: ReadableType, summary: string) =>
    app.get(
      `/v2/fhir/${type}/:id`,
      {
        config,
        onRequest,
        validatorCompiler: documentOnly,
        schema: { tags: ['data'], security, summary, ...ReadParams, ...requestHeaders(type) },
      },
      (request, reply) => read(deps, request, reply, type, (request.params as { id: string }).id),
    );
  app.get(
    '/v2/fhir/metadata',
    { config, onRequest, schema: { tags: ['data'], summary: 'CapabilityStatement' } },
    (_request, reply) => reply.type(FHIR_JSON).send(capabilityStatement(deps.publicUrl, deps.now())),
  );
  for (const type of RESOURCE_TYPES) {
    app.get(
      `/v2/fhir/${type}`,
      {
        config,
        onRequest,
        validatorCompiler: documentOnly,
        schema: {
          tags: ['data'],
          security,
          summary: `Search ${type} of the token's patient`,
          querystring: searchQuery(type),
          ...requestHeaders(type),
        },
      },
      (request, reply) => search(deps, request, reply, type),
    );
    readRoute(type, `Read one ${type} of the token's patient`);
  }
  for (const type of DIRECTORY_RESOURCE_TYPES) {
    readRoute(
      type,
      `Read one ${type} the claims refer to (in no patient's compartment: readable with ` +
        'patient/ExplanationOfBenefit or patient/Coverage read scope, else 403)',
    );
  }
}
