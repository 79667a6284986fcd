import type { Kysely } from 'kysely';

/**
 * The plan API's data. Every dataset is keyed by year and owned by one ingest kind, so re-loading a
 * dataset is "delete that kind's rows for that year, insert the new ones" inside one transaction.
 * Money is integer cents; booleans are 0/1; FIPS codes, ZIP codes and plan ids are text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plan_datasets')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('sample', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('loaded_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('plan_datasets_pk', ['kind', 'year'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('per_second', 'integer', (c) => c.notNull())
    .addColumn('per_minute', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();

  // Geography: one current vintage each (dataset year = the vintage's year).
  await db.schema
    .createTable('geo_counties')
    .addColumn('fips', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('geo_counties_state').on('geo_counties').columns(['state', 'name']).execute();

  await db.schema
    .createTable('geo_zip_counties')
    .addColumn('zip', 'text', (c) => c.notNull())
    .addColumn('fips', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('res_ratio', 'double precision', (c) => c.notNull())
    .addColumn('tot_ratio', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('geo_zip_counties_pk', ['zip', 'fips'])
    .execute();
  await db.schema.createIndex('geo_zip_counties_fips').on('geo_zip_counties').columns(['fips']).execute();

  // zip3 = '' for a whole county; otherwise the 3-digit ZIP prefix that decides the area inside it.
  await db.schema
    .createTable('rating_areas')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('fips', 'text', (c) => c.notNull())
    .addColumn('zip3', 'text', (c) => c.notNull())
    .addColumn('area', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rating_areas_pk', ['year', 'state', 'fips', 'zip3'])
    .execute();

  // One row per (year, quarter, state, program, category); pct_fpl null = category not covered.
  await db.schema
    .createTable('medicaid_limits')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('quarter', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('program', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('pct_fpl', 'double precision')
    .addPrimaryKeyConstraint('medicaid_limits_pk', ['year', 'quarter', 'state', 'program', 'category'])
    .execute();

  // source = the ingest kind that wrote the row ('plan-attributes' or 'landscape').
  await db.schema
    .createTable('issuers')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('issuer_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('toll_free', 'text')
    .addColumn('tty', 'text')
    .addColumn('individual_url', 'text')
    .addColumn('shop_url', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('issuers_pk', ['year', 'issuer_id'])
    .execute();
  await db.schema.createIndex('issuers_state').on('issuers').columns(['year', 'state']).execute();

  // A plan is a standard component id (14 characters); `detail` is JSON of what the API shows and no
  // query filters on.
  await db.schema
    .createTable('plans')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('issuer_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('market', 'text', (c) => c.notNull())
    .addColumn('dental_only', 'integer', (c) => c.notNull())
    .addColumn('metal_level', 'text', (c) => c.notNull())
    .addColumn('plan_type', 'text', (c) => c.notNull())
    .addColumn('design_type', 'text', (c) => c.notNull())
    .addColumn('service_area_id', 'text')
    .addColumn('network_id', 'text')
    .addColumn('hsa_eligible', 'integer', (c) => c.notNull())
    .addColumn('ehb_pct', 'double precision')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('plans_pk', ['year', 'plan_id'])
    .execute();
  await db.schema.createIndex('plans_issuer').on('plans').columns(['year', 'issuer_id']).execute();
  await db.schema
    .createIndex('plans_service_area')
    .on('plans')
    .columns(['year', 'issuer_id', 'service_area_id'])
    .execute();

  // One row per CSR variant (`12345TX0010001-04`) with its cost-sharing grid as JSON.
  await db.schema
    .createTable('plan_variants')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('variant_id', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('csr_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('plan_variants_pk', ['year', 'variant_id'])
    .execute();
  // With variant_id in the index a plan's variants come in order from it: without it SQLite walks the
  // primary key (year, variant_id) through every variant of the year to avoid a sort.
  await db.schema
    .createIndex('plan_variants_plan')
    .on('plan_variants')
    .columns(['year', 'plan_id', 'variant_id'])
    .execute();

  // Plan availability by county where the source says it per county (the QHP Landscape files).
  await db.schema
    .createTable('plan_counties')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('fips', 'text', (c) => c.notNull())
    .addColumn('rating_area', 'integer', (c) => c.notNull())
    .addColumn('premiums', 'text', (c) => c.notNull())
    // A county split between rating areas by 3-digit ZIP lists a plan once per area (ID 2017).
    .addPrimaryKeyConstraint('plan_counties_pk', ['year', 'plan_id', 'fips', 'rating_area'])
    .execute();
  await db.schema.createIndex('plan_counties_fips').on('plan_counties').columns(['year', 'fips']).execute();

  await db.schema
    .createTable('service_areas')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('issuer_id', 'text', (c) => c.notNull())
    .addColumn('service_area_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('cover_entire_state', 'integer', (c) => c.notNull())
    .addColumn('fips', 'text', (c) => c.notNull())
    .addColumn('partial_county', 'integer', (c) => c.notNull())
    .addColumn('zips', 'text', (c) => c.notNull())
    .addColumn('market', 'text', (c) => c.notNull())
    .addColumn('dental_only', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('service_areas_area')
    .on('service_areas')
    .columns(['year', 'issuer_id', 'service_area_id'])
    .execute();
  await db.schema.createIndex('service_areas_county').on('service_areas').columns(['year', 'fips']).execute();

  await db.schema
    .createTable('plan_rates')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('rating_area', 'integer', (c) => c.notNull())
    .addColumn('age', 'text', (c) => c.notNull())
    .addColumn('tobacco', 'text', (c) => c.notNull())
    .addColumn('effective_date', 'text', (c) => c.notNull())
    .addColumn('expiration_date', 'text', (c) => c.notNull())
    .addColumn('individual_rate', 'integer', (c) => c.notNull())
    .addColumn('tobacco_rate', 'integer')
    .addColumn('family', 'text')
    .execute();
  await db.schema
    .createIndex('plan_rates_lookup')
    .on('plan_rates')
    .columns(['year', 'plan_id', 'rating_area', 'age'])
    .execute();

  await db.schema
    .createTable('plan_benefits')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('variant_id', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('covered', 'integer', (c) => c.notNull())
    .addColumn('is_ehb', 'integer', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('plan_benefits_plan')
    .on('plan_benefits')
    .columns(['year', 'plan_id', 'variant_id'])
    .execute();

  // year = the earlier plan year (PY N−1 → N); zip '00000' = the whole county.
  await db.schema
    .createTable('crosswalks')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('old_plan_id', 'text', (c) => c.notNull())
    .addColumn('fips', 'text', (c) => c.notNull())
    .addColumn('zip', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('reason', 'integer', (c) => c.notNull())
    .addColumn('new_plan_id', 'text')
    .addColumn('ageoff_plan_id', 'text')
    .execute();
  await db.schema
    .createIndex('crosswalks_lookup')
    .on('crosswalks')
    .columns(['year', 'old_plan_id', 'fips'])
    .execute();

  await db.schema
    .createTable('quality_ratings')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('issuer_id', 'text', (c) => c.notNull())
    .addColumn('overall', 'text', (c) => c.notNull())
    .addColumn('medical_care', 'text', (c) => c.notNull())
    .addColumn('member_experience', 'text', (c) => c.notNull())
    .addColumn('plan_administration', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('quality_ratings_pk', ['year', 'plan_id'])
    .execute();

  await db.schema
    .createTable('networks')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('issuer_id', 'text', (c) => c.notNull())
    .addColumn('network_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('networks_pk', ['year', 'issuer_id', 'network_id'])
    .execute();

  // Keyed by standard component id when the row names one, else by product id (whole product).
  await db.schema
    .createTable('business_rules')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('issuer_id', 'text', (c) => c.notNull())
    .addColumn('scope_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('business_rules_pk', ['year', 'issuer_id', 'scope_id'])
    .execute();
}
