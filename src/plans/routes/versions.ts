import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { usesData } from '../gateway/sample-data.js';
import { marketYears } from '../market-years.js';
import { PLAN_KINDS } from '../tables/plan-kinds.js';
import { errorResponses } from './schemas.js';

const DataVersion = Type.Object({
  name: Type.String({ description: 'dataset: ingest kind and year' }),
  updated: Type.String({ description: 'ISO-8601 date the dataset was loaded' }),
  kind: Type.String(),
  year: Type.Optional(Type.Integer()),
  source: Type.String({ description: 'the files it was loaded from' }),
  sample: Type.Boolean({ description: 'true for the generated sample market (not real data)' }),
});

/** `/versions` and `/market-years`: what data is loaded, and which plan years it serves. */
export function registerVersionRoutes(api: App, deps: PlansDeps): void {
  api.get(
    '/versions',
    {
      schema: {
        tags: ['plan-api'],
        summary: 'Loaded datasets and when each was loaded',
        response: { 200: Type.Array(DataVersion), ...errorResponses },
      },
    },
    async (request) => {
      const datasets = await deps.samples.datasets();
      usesData(
        request,
        datasets.map((d) => d.kind),
      );
      return datasets.map((d) => ({
        name: d.year
          ? `${d.kind} ${d.year}${d.sample ? ' (sample)' : ''}`
          : `${d.kind}${d.sample ? ' (sample)' : ''}`,
        updated: new Date(d.loadedAt).toISOString().slice(0, 10),
        kind: d.kind,
        ...(d.year ? { year: d.year } : {}),
        source: d.source,
        sample: d.sample,
      }));
    },
  );

  api.get(
    '/market-years',
    {
      schema: {
        tags: ['plan-api'],
        summary: 'Current and supported market years (years with plans loaded)',
        description:
          'The years plan search and the priced endpoints answer for. Real data outranks the generated ' +
          'sample market: once real plans are loaded for any year, a year with only sample plans is not ' +
          'listed (and a priced request for it is 1003 saying so); `current` is the latest year with real ' +
          'plans, else the latest sample year.',
        response: {
          200: Type.Object({ current: Type.Integer(), supported: Type.Array(Type.Integer()) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const years = marketYears(await deps.samples.datasets());
      usesData(request, PLAN_KINDS);
      return {
        current: years.current ?? new Date(deps.now()).getUTCFullYear(),
        supported: [...years.supported],
      };
    },
  );
}
