import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Type } from 'typebox';
import { jsonError } from '../../shared/errors.js';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { BULK_DOCUMENTS, type BulkDefinition } from '../bulk/documents.js';
import { usesData } from '../gateway/sample-data.js';
import { bulkDataYears } from '../market-years.js';
import { invalidInput } from '../errors.js';
import { BULK_SHAPES, BulkNotFound } from './bulk-shapes.js';
import { refuseInvalidInput } from './invalid-input.js';
import { errorResponses } from './schemas.js';

/** What to load for a document that has no data (`error` of the 404). */
const MISSING: Record<string, string> = {
  apt: 'no applicable percentage table of that year is published in this release',
  'decile-mapping':
    'the OOPC utilization decile mapping has no public source: load the file you hold with ' +
    '`openenroll ingest decile-mapping --year <year> <file.json>`',
  'state-medicaid': 'no Medicaid limits of that year are loaded (`openenroll ingest medicaid`)',
  'rate-areas':
    'no rating areas can be determined: load counties, zip-county and rating-areas (or a QHP Landscape)',
  'county-zips': 'no geography is loaded (`openenroll ingest counties` and `zip-county`)',
  crosswalk: 'no Plan ID Crosswalk PUF into that year is loaded (`openenroll ingest crosswalk`)',
};

/**
 * RFC 9110 §13.1.2: If-None-Match matches when any listed tag equals the current one by the weak
 * comparison, or it is `*`.
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === etag);
}

/** RFC 9110 §12.5.3: whether `gzip` (or `x-gzip`, or `*`) is acceptable, i.e. listed with a q above 0. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const item of header.split(',')) {
    const [coding = '', ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (coding.trim() === 'gzip' || coding.trim() === 'x-gzip') return accepted;
    if (coding.trim() === '*') star = accepted;
  }
  return star ?? false;
}

function registerDocument(api: App, deps: PlansDeps, definition: BulkDefinition): void {
  api.get(
    `/data/${definition.name}`,
    {
      attachValidation: true,
      schema: {
        tags: ['bulk-data'],
        summary: definition.summary,
        description:
          'A bulk document of the current or the previous market year (400 `1003` for any other, naming ' +
          'them). Built once per data load and stored gzip-compressed with a strong `ETag`: sent as stored ' +
          'with `Content-Encoding: gzip` when `Accept-Encoding` allows it, else decompressed as it is sent; ' +
          '`If-None-Match` with the current tag → 304. With `BULK_DATA_URL` set, 302 to ' +
          '`<BULK_DATA_URL>/<year>/<name>.json` instead (as the deployed service redirects to S3).',
        querystring: Type.Object({
          year: Type.Integer({ minimum: 1000, maximum: 9999, description: '4-digit market year' }),
        }),
        response: {
          200: BULK_SHAPES[definition.name],
          302: Type.Null({ description: 'the document at `BULK_DATA_URL` (Location)' }),
          304: Type.Null({ description: 'unchanged since the ETag in If-None-Match' }),
          ...errorResponses,
          404: BulkNotFound,
        },
      },
    },
    async (request, reply) => {
      refuseInvalidInput(request, 'bulk data', { year: 'year: a 4-digit market year is required' });
      const { year } = request.query;
      const datasets = await deps.samples.datasets();
      const years = bulkDataYears(datasets, deps.now());
      if (!years.includes(year)) {
        throw invalidInput(
          'bulk data',
          `year: bulk data is served for the current and the previous market year, ${years[1]} and ${years[0]}`,
        );
      }
      usesData(request, definition.kinds);
      if (deps.settings.bulkDataUrl) {
        return reply.redirect(`${deps.settings.bulkDataUrl}/${year}/${definition.name}.json`, 302);
      }
      const document = await deps.bulk.current(definition, year, datasets);
      if (!document) {
        throw jsonError(404, {
          status: '404',
          message: 'bulk data not found',
          error: `${definition.name} ${year}: ${MISSING[definition.name]}`,
        });
      }
      reply.header('etag', document.etag);
      reply.header('last-modified', new Date(document.builtAt).toUTCString());
      reply.header('cache-control', 'private, no-cache');
      reply.header('vary', 'accept-encoding');
      if (noneMatch(request.headers['if-none-match'], document.etag)) return reply.code(304).send(null);
      reply.type('application/json; charset=utf-8');
      const stream = Readable.from(deps.bulk.gzipBytes(document));
      if (acceptsGzip(request.headers['accept-encoding'])) {
        reply.header('content-encoding', 'gzip');
        reply.header('content-length', document.gzipBytes);
        // A stream is piped as it is: the response schema documents, it does not serialize.
        return reply.send(stream as never);
      }
      reply.header('content-length', document.bytes);
      const gunzip = createGunzip({ chunkSize: 128 * 1024 });
      stream.on('error', (error) => gunzip.destroy(error));
      return reply.send(stream.pipe(gunzip) as never);
    },
  );
}

/** `/data/*`: the bulk documents (CMS document, "Bulk Data"). */
export function registerBulkDataRoutes(api: App, deps: PlansDeps): void {
  for (const definition of BULK_DOCUMENTS) registerDocument(api, deps, definition);
}
