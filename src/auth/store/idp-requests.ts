import type { Kysely, Selectable } from 'kysely';
import type { Database, IdpRequestsTable } from '../../storage/schema.js';

/** A sign-in sent to the identity provider and not yet back. */
export interface IdpRequest {
  /** SHA-256 of the `state` sent to the IdP; the value itself is never stored. */
  stateHash: string;
  /** SHA-256 of the browser-binding cookie set when the sign-in started. */
  browserHash: string;
  issuer: string;
  codeVerifier: string;
  nonce: string;
  /** Where the browser goes once signed in (an authorize request, the connected-apps page) or ''. */
  next: string;
  lang: 'en' | 'es' | null;
  createdAt: number;
  expiresAt: number;
}

function toRequest(row: Selectable<IdpRequestsTable>): IdpRequest {
  return {
    stateHash: row.state_hash,
    browserHash: row.browser_hash,
    issuer: row.issuer,
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    next: row.next,
    lang: row.lang === 'en' || row.lang === 'es' ? row.lang : null,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/** Pending identity-provider sign-ins live in the database so the callback can land on any instance. */
export function createIdpRequestStore(db: Kysely<Database>) {
  return {
    async insertIdpRequest(request: IdpRequest): Promise<void> {
      await db
        .insertInto('idp_requests')
        .values({
          state_hash: request.stateHash,
          browser_hash: request.browserHash,
          issuer: request.issuer,
          code_verifier: request.codeVerifier,
          nonce: request.nonce,
          next: request.next,
          lang: request.lang,
          created_at: request.createdAt,
          expires_at: request.expiresAt,
        })
        .execute();
    },

    /**
     * Removes the pending sign-in of this `state` and returns it if it was still live. One statement
     * (`delete … returning`), so of two callbacks with the same `state` — a replay, a double click, two
     * instances — exactly one gets it.
     */
    async takeIdpRequest(stateHash: string, now: number): Promise<IdpRequest | undefined> {
      const row = await db
        .deleteFrom('idp_requests')
        .where('state_hash', '=', stateHash)
        .returningAll()
        .executeTakeFirst();
      return row && Number(row.expires_at) > now ? toRequest(row) : undefined;
    },

    /** Drops sign-ins that were never finished. */
    async purgeExpired(now: number): Promise<void> {
      await db.deleteFrom('idp_requests').where('expires_at', '<=', now).execute();
    },
  };
}

export type IdpRequestStore = ReturnType<typeof createIdpRequestStore>;
