import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { planError } from '../errors.js';
import { usesData } from '../gateway/sample-data.js';
import { toQualityRating } from '../store/quality.js';
import { refuseInvalidInput } from './invalid-input.js';
import { PlanId, Year } from '../input-schemas.js';
import { errorResponses } from './schemas.js';
import { QualityRating } from './shapes.js';

/** A plan's Quality Rating System scores. */
export function registerQualityRoutes(api: App, deps: PlansDeps): void {
  api.get(
    '/plans/:plan_id/quality-ratings',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: "A plan's quality ratings (QRS) for a year",
        description:
          'Ratings 1–5; 0 with the reason (the QRS "NR - …" text) when not rated. 1011 when the plan has no ' +
          'rating for the year.',
        params: Type.Object({ plan_id: PlanId }),
        querystring: Type.Object({ year: Year }),
        response: { 200: Type.Object({ quality_rating: QualityRating }), ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'quality rating', {
        plan_id: 'plan_id: must be a 14-character HIOS plan ID (5 digits, state, 7 digits)',
        year: 'year: a 4-digit market year is required',
      });
      const { year } = request.query;
      usesData(request, ['quality'], year);
      const row = await deps.quality.findQualityRow(year, request.params.plan_id);
      if (!row) throw planError(1011, `no quality rating for plan ${request.params.plan_id} in ${year}`);
      return { quality_rating: toQualityRating(year, row) };
    },
  );
}
