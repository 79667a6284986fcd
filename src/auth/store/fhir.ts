import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../storage/schema.js';

/** A resource as stored: its body plus the facts searches filter on. */
export interface StoredResource {
  resourceType: string;
  id: string;
  patientId: string;
  eobType: string | null;
  serviceDate: string | null;
  lastUpdated: number;
  body: string;
}

/** Writes one import; every call happens inside the import's single transaction. */
export interface ImportWriter {
  upsert(resources: StoredResource[]): Promise<void>;
  /** Which of `ids` (of one type) exist, counting what this import already wrote. */
  existing(resourceType: string, ids: string[]): Promise<Set<string>>;
}

function writer(trx: Transaction<Database>): ImportWriter {
  return {
    async upsert(resources) {
      if (resources.length === 0) return;
      await trx
        .insertInto('fhir_resources')
        .values(
          resources.map((r) => ({
            resource_type: r.resourceType,
            id: r.id,
            patient_id: r.patientId,
            eob_type: r.eobType,
            service_date: r.serviceDate,
            last_updated: r.lastUpdated,
            body: r.body,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['resource_type', 'id']).doUpdateSet((eb) => ({
            patient_id: eb.ref('excluded.patient_id'),
            eob_type: eb.ref('excluded.eob_type'),
            service_date: eb.ref('excluded.service_date'),
            last_updated: eb.ref('excluded.last_updated'),
            body: eb.ref('excluded.body'),
          })),
        )
        .execute();
    },
    async existing(resourceType, ids) {
      const found = new Set<string>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await trx
          .selectFrom('fhir_resources')
          .select('id')
          .where('resource_type', '=', resourceType)
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
        for (const row of rows) found.add(row.id);
      }
      return found;
    },
  };
}

export function createFhirStore(db: Kysely<Database>) {
  return {
    /** Runs a whole import in one transaction: it lands completely or not at all. */
    async importAll<T>(work: (writer: ImportWriter) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => work(writer(trx)));
    },

    async countResources(resourceType?: string): Promise<number> {
      let query = db.selectFrom('fhir_resources').select((eb) => eb.fn.countAll<number>().as('n'));
      if (resourceType) query = query.where('resource_type', '=', resourceType);
      return Number((await query.executeTakeFirstOrThrow()).n);
    },

    search(q: ResourceQuery) {
      return searchResources(db, q);
    },

    async findResource(resourceType: string, id: string): Promise<StoredResource | undefined> {
      const row = await db
        .selectFrom('fhir_resources')
        .selectAll()
        .where('resource_type', '=', resourceType)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        resourceType: row.resource_type,
        id: row.id,
        patientId: row.patient_id,
        eobType: row.eob_type,
        serviceDate: row.service_date,
        lastUpdated: Number(row.last_updated),
        body: row.body,
      };
    },
  };
}

export type FhirStore = ReturnType<typeof createFhirStore>;

/** Conditions of a search; all of them apply. */
export interface ResourceQuery {
  resourceType: string;
  patientId: string;
  /** Epoch-millisecond bounds on the last update, e.g. `{ op: 'ge', value }`. */
  lastUpdated: { op: ComparisonOp; value: number }[];
  eobTypes?: string[];
  /** `YYYY-MM-DD` bounds on the service date. */
  serviceDate: { op: ComparisonOp; value: string }[];
  offset: number;
  limit: number;
}

export type ComparisonOp = 'lt' | 'le' | 'gt' | 'ge';

const SQL_OP = { lt: '<', le: '<=', gt: '>', ge: '>=' } as const;

/** A page of matching resources (raw JSON bodies, in id order) and how many match in all. */
async function searchResources(
  db: Kysely<Database>,
  q: ResourceQuery,
): Promise<{ total: number; bodies: { id: string; body: string }[] }> {
  let where = db
    .selectFrom('fhir_resources')
    .where('resource_type', '=', q.resourceType)
    .where('patient_id', '=', q.patientId);
  for (const { op, value } of q.lastUpdated) where = where.where('last_updated', SQL_OP[op], value);
  for (const { op, value } of q.serviceDate) where = where.where('service_date', SQL_OP[op], value);
  if (q.eobTypes && q.eobTypes.length > 0) where = where.where('eob_type', 'in', q.eobTypes);
  const counted = await where.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  if (q.limit === 0 || q.offset >= total) return { total, bodies: [] };
  const bodies = await where.select(['id', 'body']).orderBy('id').limit(q.limit).offset(q.offset).execute();
  return { total, bodies };
}
