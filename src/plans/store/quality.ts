import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

/** CMS `QualityRating`: 1–5 stars, or 0 with the reason the plan is not rated. */
export interface QualityRating {
  available: boolean;
  year: number;
  global_rating: number;
  global_not_rated_reason: string;
  clinical_quality_management_rating: number;
  clinical_quality_management_not_rated_reason: string;
  enrollee_experience_rating: number;
  enrollee_experience_not_rated_reason: string;
  plan_efficiency_rating: number;
  plan_efficiency_not_rated_reason: string;
}

/** The columns a rating is built from. */
export const QUALITY_COLUMNS = [
  'overall',
  'medical_care',
  'member_experience',
  'plan_administration',
] as const;

export type QualityRow = Pick<Database['quality_ratings'], (typeof QUALITY_COLUMNS)[number]>;

/**
 * A Quality Rating System score as the QRS PUF writes it: "1"…"5", or "NR - <reason>" ("NR - New-Ineligible
 * for Scoring"). The API's form is the number, or 0 and the reason ("a rating value … 0 … is Not Rated").
 */
function score(text: string): { rating: number; reason: string } {
  const trimmed = text.trim();
  if (/^[1-5]$/.test(trimmed)) return { rating: Number(trimmed), reason: '' };
  if (/^NR$/i.test(trimmed)) return { rating: 0, reason: 'Not Rated' };
  return { rating: 0, reason: trimmed.replace(/^NR\s*-\s*/i, '') };
}

/** The API's rating of a QRS row; no row → `available: false` with every rating 0 and no reason. */
export function toQualityRating(year: number, row: QualityRow | undefined): QualityRating {
  const parts = {
    global: score(row?.overall ?? ''),
    clinical_quality_management: score(row?.medical_care ?? ''),
    enrollee_experience: score(row?.member_experience ?? ''),
    plan_efficiency: score(row?.plan_administration ?? ''),
  };
  return {
    available: row !== undefined,
    year,
    global_rating: parts.global.rating,
    global_not_rated_reason: parts.global.reason,
    clinical_quality_management_rating: parts.clinical_quality_management.rating,
    clinical_quality_management_not_rated_reason: parts.clinical_quality_management.reason,
    enrollee_experience_rating: parts.enrollee_experience.rating,
    enrollee_experience_not_rated_reason: parts.enrollee_experience.reason,
    plan_efficiency_rating: parts.plan_efficiency.rating,
    plan_efficiency_not_rated_reason: parts.plan_efficiency.reason,
  };
}

/** Quality ratings (QRS) of plans by year (the `quality` ingest kind). */
export function createQualityStore(db: Kysely<Database>) {
  return {
    async findQualityRow(year: number, planId: string): Promise<QualityRow | undefined> {
      return db
        .selectFrom('quality_ratings')
        .select(QUALITY_COLUMNS)
        .where('year', '=', year)
        .where('plan_id', '=', planId)
        .executeTakeFirst();
    },
  };
}

export type QualityStore = ReturnType<typeof createQualityStore>;
