import type { Kysely } from 'kysely';
import { instant } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';

/** A validated authorization request waiting for the enrollee's decision. */
export interface PendingAuthorization {
  redirectUri: string;
  /** Whether the authorization request named it (else the app's only registered one was taken). */
  redirectUriGiven: boolean;
  scopes: string[];
  state: string;
  codeChallenge: string;
  lang: 'en' | 'es' | null;
  /** OIDC Core §3.1.2.1: returned unchanged in the ID token; absent in approvals stored before it existed. */
  nonce?: string | null;
}

export interface Approval {
  id: string;
  enrolleeId: string;
  clientId: string;
  request: PendingAuthorization;
  expiresAt: number;
  /** When the enrollee logged in (epoch ms); null for approvals stored before it was recorded. */
  authTime: number | null;
}

/** Login sessions and approvals live in the database so any instance can serve the next request. */
export function createSessionStore(db: Kysely<Database>) {
  return {
    async insertSession(idHash: string, enrolleeId: string, now: number, expiresAt: number): Promise<void> {
      await db
        .insertInto('sessions')
        .values({ id_hash: idHash, enrollee_id: enrolleeId, created_at: now, expires_at: expiresAt })
        .execute();
    },

    /** A live session's enrollee and when it was opened (the login: a session opens at each login). */
    async findSession(
      idHash: string,
      now: number,
    ): Promise<{ enrolleeId: string; authTime: number } | undefined> {
      const row = await db
        .selectFrom('sessions')
        .select(['enrollee_id', 'created_at'])
        .where('id_hash', '=', idHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row && { enrolleeId: row.enrollee_id, authTime: Number(row.created_at) };
    },

    async deleteSession(idHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    },

    async insertApproval(approval: Approval, now: number): Promise<void> {
      await db
        .insertInto('approvals')
        .values({
          id: approval.id,
          enrollee_id: approval.enrolleeId,
          client_id: approval.clientId,
          request: JSON.stringify(approval.request),
          created_at: now,
          expires_at: approval.expiresAt,
          auth_time: approval.authTime,
        })
        .execute();
    },

    async findApproval(id: string, now: number): Promise<Approval | undefined> {
      const row = await db
        .selectFrom('approvals')
        .selectAll()
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        id: row.id,
        enrolleeId: row.enrollee_id,
        clientId: row.client_id,
        request: JSON.parse(row.request) as PendingAuthorization,
        expiresAt: Number(row.expires_at),
        authTime: instant(row.auth_time),
      };
    },

    /** Removes the approval; true only for the one caller that removed it (a decision is made once). */
    async consumeApproval(id: string): Promise<boolean> {
      const result = await db.deleteFrom('approvals').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** Drops expired sessions, approvals and counters. */
    async purgeExpired(now: number): Promise<void> {
      await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
      await db.deleteFrom('approvals').where('expires_at', '<=', now).execute();
      await db.deleteFrom('counters').where('expires_at', '<=', now).execute();
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
