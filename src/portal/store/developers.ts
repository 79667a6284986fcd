import type { Kysely } from 'kysely';
import { instant } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';

export interface Developer {
  id: string;
  email: string;
  name: string;
  organization: string;
  passwordHash: string;
  verifiedAt: number | null;
  createdAt: number;
}

export type LinkPurpose = 'verify' | 'reset';

export class DuplicateEmailError extends Error {}

function toDeveloper(row: Database['developers']): Developer {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    organization: row.organization,
    passwordHash: row.password_hash,
    verifiedAt: instant(row.verified_at),
    createdAt: Number(row.created_at),
  };
}

/** The e-mail address as accounts are told apart: one account per address, whatever its case. */
export const emailKey = (email: string) => email.trim().toLowerCase();

/**
 * Developer accounts, their browser sessions and their mailed links, all in the database so any instance
 * serves any request. Secrets (session cookies, link tokens) are stored only as SHA-256 hashes.
 */
export function createDeveloperStore(db: Kysely<Database>) {
  return {
    async insertDeveloper(d: Omit<Developer, 'verifiedAt'>): Promise<void> {
      try {
        await db
          .insertInto('developers')
          .values({
            id: d.id,
            email: d.email,
            email_key: emailKey(d.email),
            name: d.name,
            organization: d.organization,
            password_hash: d.passwordHash,
            verified_at: null,
            created_at: d.createdAt,
          })
          .execute();
      } catch (error) {
        if (/unique/i.test(String((error as Error).message))) throw new DuplicateEmailError(d.email);
        throw error;
      }
    },

    async findByEmail(email: string): Promise<Developer | undefined> {
      const row = await db
        .selectFrom('developers')
        .selectAll()
        .where('email_key', '=', emailKey(email))
        .executeTakeFirst();
      return row && toDeveloper(row);
    },

    async findById(id: string): Promise<Developer | undefined> {
      const row = await db.selectFrom('developers').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toDeveloper(row);
    },

    async markVerified(id: string, now: number): Promise<void> {
      await db
        .updateTable('developers')
        .set({ verified_at: now })
        .where('id', '=', id)
        .where('verified_at', 'is', null)
        .execute();
    },

    /** A new password; every session of the account ends with it, in one transaction. */
    async replacePassword(id: string, passwordHash: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('developers')
          .set({ password_hash: passwordHash })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('developer_sessions').where('developer_id', '=', id).execute();
      });
    },

    async insertSession(idHash: string, developerId: string, now: number, expiresAt: number): Promise<void> {
      await db
        .insertInto('developer_sessions')
        .values({ id_hash: idHash, developer_id: developerId, created_at: now, expires_at: expiresAt })
        .execute();
    },

    async findSession(idHash: string, now: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('developer_sessions')
        .select('developer_id')
        .where('id_hash', '=', idHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row?.developer_id;
    },

    async deleteSession(idHash: string): Promise<void> {
      await db.deleteFrom('developer_sessions').where('id_hash', '=', idHash).execute();
    },

    /** A new link of `purpose`; earlier unused links of the same purpose stop working (one transaction). */
    async insertLink(
      tokenHash: string,
      developerId: string,
      purpose: LinkPurpose,
      now: number,
      expiresAt: number,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('developer_links')
          .where('developer_id', '=', developerId)
          .where('purpose', '=', purpose)
          .execute();
        await trx
          .insertInto('developer_links')
          .values({
            token_hash: tokenHash,
            developer_id: developerId,
            purpose,
            created_at: now,
            expires_at: expiresAt,
          })
          .execute();
      });
    },

    /** Uses a link once: the developer it was for, if it exists, is fresh and has this purpose. */
    async consumeLink(tokenHash: string, purpose: LinkPurpose, now: number): Promise<string | undefined> {
      const row = await db
        .deleteFrom('developer_links')
        .where('token_hash', '=', tokenHash)
        .where('purpose', '=', purpose)
        .where('expires_at', '>', now)
        .returning('developer_id')
        .executeTakeFirst();
      return row?.developer_id;
    },

    /** Whether a link is still usable, without using it (the reset form is shown before it is sent). */
    async linkIsLive(tokenHash: string, purpose: LinkPurpose, now: number): Promise<boolean> {
      const row = await db
        .selectFrom('developer_links')
        .select('developer_id')
        .where('token_hash', '=', tokenHash)
        .where('purpose', '=', purpose)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type DeveloperStore = ReturnType<typeof createDeveloperStore>;
