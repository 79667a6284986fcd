import type { Insertable } from 'kysely';
import type { Database } from '../../storage/schema.js';

/** Tables that hold plan-API data loaded by ingest commands. */
export type PlanDataTable =
  | 'geo_counties'
  | 'geo_zip_counties'
  | 'rating_areas'
  | 'medicaid_limits'
  | 'issuers'
  | 'plans'
  | 'plan_variants'
  | 'plan_counties'
  | 'service_areas'
  | 'plan_rates'
  | 'plan_benefits'
  | 'crosswalks'
  | 'quality_ratings'
  | 'networks'
  | 'business_rules'
  | 'drugs'
  | 'drug_prefixes'
  | 'zip_locations'
  | 'providers'
  | 'provider_terms'
  | 'provider_taxonomies'
  | 'coverage_plans'
  | 'plan_drugs'
  | 'issuer_drugs'
  | 'network_providers'
  | 'decile_mappings'
  | 'ppl_costs'
  | 'ppl_procedures';

/** One row for one table, typed by the table. */
export type Write = { [T in PlanDataTable]: { table: T; values: Insertable<Database[T]> } }[PlanDataTable];

export function write<T extends PlanDataTable>(table: T, values: Insertable<Database[T]>): Write {
  return { table, values } as Write;
}
