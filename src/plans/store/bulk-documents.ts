import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

/** A stored bulk document: its identity, what it was built from, and its sizes. */
export interface BulkDocument {
  name: string;
  year: number;
  /** Strong entity tag, quoted (RFC 9110 §8.8.3): the hash of the uncompressed JSON. */
  etag: string;
  /** The datasets (kind, year, load time) it was built from: it is stale once they differ. */
  version: string;
  sample: boolean;
  bytes: number;
  gzipBytes: number;
  chunks: number;
  builtAt: number;
  buildMs: number;
}

/** Bulk documents, stored gzip-compressed in chunks keyed by their ETag (one copy of equal content). */
export function createBulkDocumentStore(db: Kysely<Database>) {
  return {
    async findDocument(name: string, year: number): Promise<BulkDocument | undefined> {
      const row = await db
        .selectFrom('bulk_documents')
        .selectAll()
        .where('name', '=', name)
        .where('year', '=', year)
        .executeTakeFirst();
      return (
        row && {
          name: row.name,
          year: Number(row.year),
          etag: row.etag,
          version: row.version,
          sample: row.sample === 1,
          bytes: Number(row.bytes),
          gzipBytes: Number(row.gzip_bytes),
          chunks: Number(row.chunks),
          builtAt: Number(row.built_at),
          buildMs: Number(row.build_ms),
        }
      );
    },

    /** One chunk of a document's gzip bytes; undefined once a newer build has replaced the document. */
    async readChunk(etag: string, seq: number): Promise<Uint8Array | undefined> {
      const row = await db
        .selectFrom('bulk_chunks')
        .select('data')
        .where('etag', '=', etag)
        .where('seq', '=', seq)
        .executeTakeFirst();
      return row?.data;
    },

    /**
     * Stores a document in one transaction: its chunks (unless a document of the same content has them
     * already), its row, and the removal of chunks no document names any more.
     */
    async saveDocument(document: BulkDocument, chunks: Uint8Array[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const present = await trx
          .selectFrom('bulk_chunks')
          .select('seq')
          .where('etag', '=', document.etag)
          .where('seq', '=', 0)
          .executeTakeFirst();
        if (!present) {
          for (let seq = 0; seq < chunks.length; seq++) {
            // Another instance building the same content at the same moment writes the same chunks.
            await trx
              .insertInto('bulk_chunks')
              .values({ etag: document.etag, seq, data: chunks[seq]! })
              .onConflict((oc) => oc.columns(['etag', 'seq']).doNothing())
              .execute();
          }
        }
        const values = {
          etag: document.etag,
          version: document.version,
          sample: document.sample ? 1 : 0,
          bytes: document.bytes,
          gzip_bytes: document.gzipBytes,
          chunks: document.chunks,
          built_at: document.builtAt,
          build_ms: document.buildMs,
        };
        await trx
          .insertInto('bulk_documents')
          .values({ name: document.name, year: document.year, ...values })
          .onConflict((oc) => oc.columns(['name', 'year']).doUpdateSet(values))
          .execute();
        await trx
          .deleteFrom('bulk_chunks')
          .where('etag', 'not in', trx.selectFrom('bulk_documents').select('etag'))
          .execute();
      });
    },

    /** Removes a document (its data is gone: a document of nothing is not served). */
    async deleteDocument(name: string, year: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('bulk_documents').where('name', '=', name).where('year', '=', year).execute();
        await trx
          .deleteFrom('bulk_chunks')
          .where('etag', 'not in', trx.selectFrom('bulk_documents').select('etag'))
          .execute();
      });
    },
  };
}

export type BulkDocumentStore = ReturnType<typeof createBulkDocumentStore>;
