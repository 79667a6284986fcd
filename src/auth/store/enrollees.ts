import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, EnrolleesTable } from '../../storage/schema.js';

export interface Enrollee {
  id: string;
  username: string;
  passwordHash: string;
  patientId: string;
  givenName: string;
  familyName: string;
  email: string | null;
  /** Published password of a synthetic sandbox enrollee; null for real accounts. */
  sandboxPassword: string | null;
}

function toEnrollee(row: Selectable<EnrolleesTable>): Enrollee {
  return {
    id: row.id,
    username: row.username,
    passwordHash: row.password_hash,
    patientId: row.patient_id,
    givenName: row.given_name,
    familyName: row.family_name,
    email: row.email,
    sandboxPassword: row.sandbox_password,
  };
}

/** The `enrollees` row of an enrollee created at `now`. */
export function enrolleeRow(e: Enrollee, now: number): Insertable<EnrolleesTable> {
  return {
    id: e.id,
    username: e.username,
    password_hash: e.passwordHash,
    patient_id: e.patientId,
    given_name: e.givenName,
    family_name: e.familyName,
    email: e.email,
    sandbox_password: e.sandboxPassword,
    created_at: now,
  };
}

export function createEnrolleeStore(db: Kysely<Database>) {
  return {
    /** Inserts all or none; usernames that already exist are left as they are. */
    async insertEnrollees(enrollees: Enrollee[], now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < enrollees.length; i += 200) {
          await trx
            .insertInto('enrollees')
            .values(enrollees.slice(i, i + 200).map((e) => enrolleeRow(e, now)))
            .onConflict((oc) => oc.doNothing())
            .execute();
        }
      });
    },

    async findEnrolleeByUsername(username: string): Promise<Enrollee | undefined> {
      const row = await db
        .selectFrom('enrollees')
        .selectAll()
        .where('username', '=', username)
        .executeTakeFirst();
      return row ? toEnrollee(row) : undefined;
    },

    async findEnrolleeById(id: string): Promise<Enrollee | undefined> {
      const row = await db.selectFrom('enrollees').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toEnrollee(row) : undefined;
    },

    async findEnrolleeByPatientId(patientId: string): Promise<Enrollee | undefined> {
      const row = await db
        .selectFrom('enrollees')
        .selectAll()
        .where('patient_id', '=', patientId)
        .executeTakeFirst();
      return row ? toEnrollee(row) : undefined;
    },

    async listEnrollees(): Promise<Enrollee[]> {
      const rows = await db.selectFrom('enrollees').selectAll().orderBy('username').execute();
      return rows.map(toEnrollee);
    },

    async countEnrollees(): Promise<number> {
      const row = await db
        .selectFrom('enrollees')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type EnrolleeStore = ReturnType<typeof createEnrolleeStore>;
