import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * PostgreSQL only: `fhir_patient_counts`, how many resources of each type each patient has, kept by the
 * database itself (docs/decisions.md#fhir-patient-counts). A page of a search with no filter by `startIndex`
 * (every first page too) reads its `total` here instead of counting the patient's rows on the page index
 * every time.
 *
 * The table holds changes, not totals: statement-level triggers with transition tables (PostgreSQL 10 and
 * later) add one row per patient and type that an insert, delete or update changed, with the difference,
 * in the writer's own transaction, whoever writes (the service, the CLI, another instance); a patient's
 * count is the sum of their rows, read in the page's own statement and snapshot. Writers only insert, so
 * two loads never wait for each other here. An update that moves no row to another patient or type (a body
 * stored at its first read, an import that replaces a claim) adds nothing; `TRUNCATE` empties the table.
 * `compactPatientCounts` (after each load) merges a patient's rows into one.
 *
 * The function runs with the schema it was created in as its search path, so it writes beside the table
 * that fired it whatever the writer's own path. The count of the rows stored before it is taken with the
 * triggers in place, in the migration's transaction: writers wait for it, and no statement timeout applies.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`set local statement_timeout = 0`.execute(db);
  const { rows } = await sql<{ schema: string }>`select quote_ident(current_schema()) as schema`.execute(db);
  const schema = sql.raw(rows[0]!.schema);
  await sql`
    create table fhir_patient_counts (
      resource_type text not null,
      patient_id text not null,
      n bigint not null
    )
  `.execute(db);
  await sql`create index fhir_patient_counts_patient on fhir_patient_counts (resource_type, patient_id)`.execute(
    db,
  );
  await sql`
    create function oe_fhir_patient_counts_v1() returns trigger
    language plpgsql volatile
    set search_path = ${schema}
    as $fn$
    begin
      if tg_op = 'TRUNCATE' then
        delete from fhir_patient_counts;
      elsif tg_op = 'INSERT' then
        insert into fhir_patient_counts (resource_type, patient_id, n)
          select resource_type, patient_id, count(*) from new_rows group by resource_type, patient_id;
      elsif tg_op = 'DELETE' then
        insert into fhir_patient_counts (resource_type, patient_id, n)
          select resource_type, patient_id, -count(*) from old_rows group by resource_type, patient_id;
      else
        insert into fhir_patient_counts (resource_type, patient_id, n)
          select resource_type, patient_id, sum(d) from (
            select resource_type, patient_id, 1 as d from new_rows
            union all
            select resource_type, patient_id, -1 as d from old_rows
          ) as moved
          group by resource_type, patient_id having sum(d) <> 0;
      end if;
      return null;
    end;
    $fn$
  `.execute(db);
  const triggers = [
    ['insert', 'referencing new table as new_rows'],
    ['update', 'referencing old table as old_rows new table as new_rows'],
    ['delete', 'referencing old table as old_rows'],
    ['truncate', ''],
  ] as const;
  for (const [event, tables] of triggers) {
    await sql`
      create trigger ${sql.raw(`fhir_patient_counts_${event}`)} after ${sql.raw(event)} on fhir_resources
        ${sql.raw(tables)}
        for each statement execute function oe_fhir_patient_counts_v1()
    `.execute(db);
  }
  await sql`
    insert into fhir_patient_counts (resource_type, patient_id, n)
      select resource_type, patient_id, count(*) from fhir_resources group by resource_type, patient_id
  `.execute(db);
}
