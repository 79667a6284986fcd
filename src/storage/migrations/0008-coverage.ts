import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Drugs, providers and coverage (the plan API's "Provider & Drug Coverage" half).
 *
 * - RxNorm (`rxnorm`, one vintage): `drugs`, and `drug_prefixes`, every prefix of every word of a drug's
 *   name with the name's length as its rank, so a typeahead is one index range read in rank order.
 * - ZIP points (`zip-locations`, one vintage): Census ZCTA internal points, for distances.
 * - NPPES (`nppes`, one vintage): the provider directory, its practice addresses, and `provider_terms`,
 *   every prefix of every name word by ZIP, so "names like q near this ZIP" reads a few index ranges.
 * - NUCC taxonomy (`nucc-taxonomy`, one vintage): taxonomy codes → the specialty names providers carry.
 * - Issuer machine-readable files (`mr-puf`, per year, replaced per issuer): the plans an issuer published
 *   coverage for, each plan's formulary, and each plan's network of providers with their addresses.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Tables that are nothing but their key are stored as that key alone on SQLite (one B-tree, not a
  // table and an index): half the writes of a load and one read less per lookup.
  const indexOnly = db.getExecutor().adapter instanceof SqliteAdapter ? sql`without rowid` : sql``;

  await db.schema
    .createTable('drugs')
    .addColumn('rxcui', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tty', 'text', (c) => c.notNull())
    .addColumn('strength', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('rxnorm_dose_form', 'text', (c) => c.notNull())
    .addColumn('rxterms_dose_form', 'text', (c) => c.notNull())
    .addColumn('generic_rxcui', 'text')
    .execute();
  await db.schema
    .createTable('drug_prefixes')
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('rxcui', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('drug_prefixes_pk', ['prefix', 'rank', 'rxcui'])
    .modifyEnd(indexOnly)
    .execute();

  await db.schema
    .createTable('zip_locations')
    .addColumn('zip', 'text', (c) => c.primaryKey())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lon', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('zip_locations_lat').on('zip_locations').columns(['lat', 'lon']).execute();

  await db.schema
    .createTable('providers')
    .addColumn('npi', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('gender', 'text')
    .addColumn('taxonomy', 'text', (c) => c.notNull())
    // JSON array of every taxonomy code of the record, primary first.
    .addColumn('taxonomies', 'text', (c) => c.notNull())
    // The practice location (NPPES gives one per record; secondary locations are another file).
    .addColumn('street_1', 'text', (c) => c.notNull())
    .addColumn('street_2', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('zip', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('provider_terms')
    .addColumn('zip', 'text', (c) => c.notNull())
    .addColumn('term', 'text', (c) => c.notNull())
    .addColumn('npi', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('provider_terms_pk', ['zip', 'term', 'npi'])
    .modifyEnd(indexOnly)
    .execute();
  await db.schema
    .createTable('provider_taxonomies')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('classification', 'text', (c) => c.notNull())
    .addColumn('specialization', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('coverage_plans')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('issuer_id', 'text', (c) => c.notNull())
    .addColumn('marketing_name', 'text', (c) => c.notNull())
    // How many drugs and providers the issuer's files list for the plan (0: it published none).
    .addColumn('drugs', 'integer', (c) => c.notNull())
    .addColumn('providers', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('coverage_plans_pk', ['year', 'plan_id'])
    .execute();
  await db.schema
    .createIndex('coverage_plans_issuer')
    .on('coverage_plans')
    .columns(['year', 'issuer_id'])
    .execute();
  await db.schema
    .createTable('plan_drugs')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('rxcui', 'text', (c) => c.notNull())
    .addColumn('issuer_id', 'text', (c) => c.notNull())
    .addColumn('drug_tier', 'text', (c) => c.notNull())
    .addColumn('prior_authorization', 'integer', (c) => c.notNull())
    .addColumn('step_therapy', 'integer', (c) => c.notNull())
    .addColumn('quantity_limit', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('plan_drugs_pk', ['year', 'plan_id', 'rxcui'])
    .execute();
  await db.schema.createIndex('plan_drugs_issuer').on('plan_drugs').columns(['year', 'issuer_id']).execute();
  // Per issuer and drug, the plans whose formulary lists it (comma-joined): a coverage question about n
  // drugs and m plans of k issuers reads n × k rows, not n × m.
  await db.schema
    .createTable('issuer_drugs')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('issuer_id', 'text', (c) => c.notNull())
    .addColumn('rxcui', 'text', (c) => c.notNull())
    .addColumn('plan_ids', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('issuer_drugs_pk', ['year', 'issuer_id', 'rxcui'])
    .execute();
  await db.schema
    .createTable('network_providers')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('issuer_id', 'text', (c) => c.notNull())
    .addColumn('npi', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('gender', 'text')
    .addColumn('specialties', 'text', (c) => c.notNull())
    .addColumn('languages', 'text', (c) => c.notNull())
    .addColumn('facility_types', 'text', (c) => c.notNull())
    .addColumn('accepting', 'text', (c) => c.notNull())
    // JSON array of the addresses the issuer lists for the provider.
    .addColumn('addresses', 'text', (c) => c.notNull())
    // The issuer's plans whose network lists the provider (comma-joined), and each one's network tiers
    // (a JSON object: plan id → tiers).
    .addColumn('plan_ids', 'text', (c) => c.notNull())
    .addColumn('network_tiers', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('network_providers_pk', ['year', 'issuer_id', 'npi'])
    .execute();
  await db.schema
    .createIndex('network_providers_npi')
    .on('network_providers')
    .columns(['year', 'npi'])
    .execute();
}
