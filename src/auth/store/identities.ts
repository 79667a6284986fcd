import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { enrolleeRow, type Enrollee } from './enrollees.js';

/** An identity-provider account linked to an enrollee. */
export interface LinkedIdentity {
  issuer: string;
  subject: string;
  enrolleeId: string;
  linkedAt: number;
  lastSignInAt: number;
}

/** What a first sign-in links: the identity, and the enrollee to create when the patient has none yet. */
export interface IdentityLink {
  issuer: string;
  subject: string;
  /** Used only when no enrollee has `patientId` yet (`enrollees.patient_id` is unique). */
  enrollee: Omit<Enrollee, 'sandboxPassword'>;
}

export interface LinkResult {
  enrolleeId: string;
  /** A new enrollee row was written (none existed for the patient). */
  enrolleeCreated: boolean;
}

/** Links between identity-provider accounts, (issuer, subject), and enrollees. */
export function createIdentityStore(db: Kysely<Database>) {
  return {
    /** Records a sign-in of a linked identity: its enrollee, or undefined when it is not linked. */
    async recordSignIn(issuer: string, subject: string, now: number): Promise<string | undefined> {
      const row = await db
        .updateTable('enrollee_identities')
        .set({ last_sign_in_at: now })
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .returning('enrollee_id')
        .executeTakeFirst();
      return row?.enrollee_id;
    },

    /**
     * Links an identity in one transaction: the patient's enrollee (created when there is none), then the
     * identity pointing at it. Both inserts tolerate a concurrent first sign-in (`on conflict do nothing`)
     * and the rows are read back, so two racing callbacks end on the same enrollee and one link.
     */
    async linkIdentity(link: IdentityLink, now: number): Promise<LinkResult> {
      return db.transaction().execute(async (trx) => {
        const { enrollee } = link;
        const inserted = await trx
          .insertInto('enrollees')
          .values(enrolleeRow({ ...enrollee, sandboxPassword: null }, now))
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        const owner = await trx
          .selectFrom('enrollees')
          .select('id')
          .where('patient_id', '=', enrollee.patientId)
          .executeTakeFirstOrThrow();
        // `returning` gives the row as it stands after the insert or the update alike.
        const identity = await trx
          .insertInto('enrollee_identities')
          .values({
            issuer: link.issuer,
            subject: link.subject,
            enrollee_id: owner.id,
            linked_at: now,
            last_sign_in_at: now,
          })
          .onConflict((oc) => oc.columns(['issuer', 'subject']).doUpdateSet({ last_sign_in_at: now }))
          .returning('enrollee_id')
          .executeTakeFirstOrThrow();
        return {
          enrolleeId: identity.enrollee_id,
          enrolleeCreated: (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n,
        };
      });
    },

    async listIdentities(): Promise<LinkedIdentity[]> {
      const rows = await db
        .selectFrom('enrollee_identities')
        .selectAll()
        .orderBy('issuer')
        .orderBy('subject')
        .execute();
      return rows.map((row) => ({
        issuer: row.issuer,
        subject: row.subject,
        enrolleeId: row.enrollee_id,
        linkedAt: Number(row.linked_at),
        lastSignInAt: Number(row.last_sign_in_at),
      }));
    },

    /**
     * Unlinks an identity and ends every login session of its enrollee, in one transaction; the enrollee
     * and its grants stay (the next sign-in links again). The enrollee's id, or undefined when not linked.
     */
    async unlinkIdentity(issuer: string, subject: string): Promise<string | undefined> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .deleteFrom('enrollee_identities')
          .where('issuer', '=', issuer)
          .where('subject', '=', subject)
          .returning('enrollee_id')
          .executeTakeFirst();
        if (!row) return undefined;
        await trx.deleteFrom('sessions').where('enrollee_id', '=', row.enrollee_id).execute();
        return row.enrollee_id;
      });
    },
  };
}

export type IdentityStore = ReturnType<typeof createIdentityStore>;
