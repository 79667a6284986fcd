import { keptReads, type KeptReads } from '../../storage/kept-reads.js';

/**
 * How long an instance on PostgreSQL keeps what a Bearer check read of a token family (its app, enrollee and
 * grant): data requests come in bursts with one token (a search, its pages, the reads it leads to), and each
 * read is a round trip (docs/decisions.md#kept-access-contexts).
 */
export const ACCESS_LEASE_MS = 500;

/**
 * The token families' access contexts kept by this process (storage/kept-reads.ts): on SQLite until another
 * connection commits, on PostgreSQL for `ACCESS_LEASE_MS`. Every store that writes a row a context is made
 * of — a family, its grant, its app — forgets them through this, and waits the lease out
 * (`written`) when the write takes access away.
 */
export function keptAccessContexts<V>(db: object, changeCounter: (() => number) | undefined): KeptReads<V> {
  return keptReads<V>(db, 'access_contexts', changeCounter, { leaseMs: ACCESS_LEASE_MS });
}
