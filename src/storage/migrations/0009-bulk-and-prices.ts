import { SqliteAdapter, type Kysely } from 'kysely';

/**
 * Bulk data documents and the procedure price lookup.
 *
 * - `bulk_documents` / `bulk_chunks`: each `/api/v1/data/*` document of a year, built once per data load and
 *   stored gzip-compressed in chunks keyed by its strong ETag (the content's hash), so every instance on one
 *   database serves the same bytes and a request streams them chunk by chunk. `version` names the datasets
 *   (kind, year, load time) the document was built from: when they change, it is built again.
 * - `decile_mappings` (`decile-mapping`, per year): the OOPC utilization decile mapping an operator loads
 *   (no public source).
 * - `ppl_costs` (`opps-addendum-b`, `asc-addendum-aa`, per calendar year): the national payment rate and
 *   the beneficiary's copayment per HCPCS code and facility type; `ppl_procedures` (`ppl-procedures`, one
 *   list): the procedures the price lookup offers, with their descriptions and frequencies.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof SqliteAdapter ? 'blob' : 'bytea';
  await db.schema
    .createTable('bulk_documents')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('sample', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('gzip_bytes', 'bigint', (c) => c.notNull())
    .addColumn('chunks', 'integer', (c) => c.notNull())
    .addColumn('built_at', 'bigint', (c) => c.notNull())
    .addColumn('build_ms', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_documents_pk', ['name', 'year'])
    .execute();
  await db.schema
    .createTable('bulk_chunks')
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_chunks_pk', ['etag', 'seq'])
    .execute();

  await db.schema
    .createTable('decile_mappings')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('utilization', 'text', (c) => c.notNull())
    .addColumn('gender', 'text', (c) => c.notNull())
    .addColumn('age_max', 'integer', (c) => c.notNull())
    .addColumn('decile', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('decile_mappings_pk', ['year', 'utilization', 'gender', 'age_max'])
    .execute();

  await db.schema
    .createTable('ppl_costs')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('facility_type', 'text', (c) => c.notNull())
    // The ingest kind that wrote the row (each addendum replaces its own rows of a year).
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    // OPPS status indicator or ASC payment indicator, and the APC (OPPS only).
    .addColumn('indicator', 'text', (c) => c.notNull())
    .addColumn('apc', 'text')
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('copay_cents', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ppl_costs_pk', ['facility_type', 'year', 'code'])
    .execute();
  await db.schema.createIndex('ppl_costs_code').on('ppl_costs').columns(['code', 'facility_type']).execute();
  await db.schema
    .createTable('ppl_procedures')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('frequency', 'bigint', (c) => c.notNull())
    .execute();
}
