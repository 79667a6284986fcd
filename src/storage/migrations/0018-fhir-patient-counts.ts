import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * PostgreSQL only: `fhir_patient_counts`, how many resources of each type each patient has, kept by the
 * database itself (docs/decisions.md#fhir-patient-counts). A page of a search with no filter by `startIndex`
 * (every first page too) reads its `total` from here instead of counting the patient's rows on the page
 * index every time. Statement-level triggers with transition tables (PostgreSQL 10 and later) add what each
 * insert, delete or update changed per patient, in the writing statement's own transaction, whoever writes
 * (the service, the CLI, another instance): a page reads the count of the same snapshot as its rows. An
 * update that moves no row to another patient or type (a body stored at its first read, an import that
 * replaces a claim) writes nothing here. Counts are added in key order, so two writers lock the rows they
 * share in the same order. The function runs with the search path of the migration that made it, so it
 * counts into the `fhir_patient_counts` beside the table that fired it whatever the writer's own path.
 * SQLite counts in process, where counting the index costs little.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`
    create table fhir_patient_counts (
      resource_type text not null,
      patient_id text not null,
      n bigint not null,
      constraint fhir_patient_counts_pk primary key (resource_type, patient_id)
    )
  `.execute(db);
  await sql`
    create or replace function oe_fhir_patient_counts_v1() returns trigger
    language plpgsql volatile
    set search_path from current
    as $fn$
    begin
      if tg_op = 'INSERT' then
        insert into fhir_patient_counts as c (resource_type, patient_id, n)
          select resource_type, patient_id, count(*) from new_rows
          group by resource_type, patient_id order by resource_type, patient_id
          on conflict (resource_type, patient_id) do update set n = c.n + excluded.n;
      elsif tg_op = 'DELETE' then
        insert into fhir_patient_counts as c (resource_type, patient_id, n)
          select resource_type, patient_id, -count(*) from old_rows
          group by resource_type, patient_id order by resource_type, patient_id
          on conflict (resource_type, patient_id) do update set n = c.n + excluded.n;
      else
        insert into fhir_patient_counts as c (resource_type, patient_id, n)
          select resource_type, patient_id, sum(d) from (
            select resource_type, patient_id, 1 as d from new_rows
            union all
            select resource_type, patient_id, -1 as d from old_rows
          ) as moved
          group by resource_type, patient_id having sum(d) <> 0 order by resource_type, patient_id
          on conflict (resource_type, patient_id) do update set n = c.n + excluded.n;
      end if;
      return null;
    end;
    $fn$
  `.execute(db);
  await sql`
    create trigger fhir_patient_counts_insert after insert on fhir_resources
      referencing new table as new_rows
      for each statement execute function oe_fhir_patient_counts_v1()
  `.execute(db);
  await sql`
    create trigger fhir_patient_counts_update after update on fhir_resources
      referencing old table as old_rows new table as new_rows
      for each statement execute function oe_fhir_patient_counts_v1()
  `.execute(db);
  await sql`
    create trigger fhir_patient_counts_delete after delete on fhir_resources
      referencing old table as old_rows
      for each statement execute function oe_fhir_patient_counts_v1()
  `.execute(db);
  // The resources stored before: counted once, in the migration's transaction (writers wait for it).
  await sql`lock table fhir_resources in share row exclusive mode`.execute(db);
  await sql`
    insert into fhir_patient_counts (resource_type, patient_id, n)
      select resource_type, patient_id, count(*) from fhir_resources group by resource_type, patient_id
  `.execute(db);
}
