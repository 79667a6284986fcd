import { write } from '../engine/writes.js';
import type { KindLoad } from '../engine/kind.js';
import { createNpiSet, type NpiSet } from './npi-set.js';
import type { PlanYear, PlanYears } from './plan-years.js';
import type { ListedAddress, ProviderRecord } from './records.js';

/** A provider in one issuer's network of one year: the issuer's plans listing it, and their tiers. */
interface NetworkEntry {
  year: number;
  issuerId: string;
  provider: ProviderRecord;
  plans: Map<string, { planYear: PlanYear; tiers: Set<string> }>;
}

/** Repeats gathered before they are merged into the rows already written (one read per few hundred). */
const MERGE_BATCH = 1000;
const READ_CHUNK = 500;

const union = <T>(earlier: T[], added: T[], key: (item: T) => string = String): T[] => {
  const seen = new Map(earlier.map((item) => [key(item), item]));
  for (const item of added) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
};

/** The columns of a stored row that a repeat of its provider may add to. */
const LISTS = ['network_tiers', 'addresses', 'specialties', 'languages', 'facility_types'] as const;
type StoredLists = Record<(typeof LISTS)[number], string>;

/**
 * The columns of a stored row that a repeat of its provider changes (none: an exact repeat), counting
 * each plan the repeat adds.
 */
function mergedColumns(row: StoredLists, { provider, plans }: NetworkEntry) {
  const tiers = JSON.parse(row.network_tiers) as Record<string, string[]>;
  for (const [planId, plan] of plans) {
    if (!(planId in tiers)) plan.planYear.providers += 1;
    tiers[planId] = union(tiers[planId] ?? [], [...plan.tiers]);
  }
  const merged = (column: string, added: string[]) =>
    JSON.stringify(union(JSON.parse(column) as string[], added));
  const columns = {
    plan_ids: Object.keys(tiers).join(','),
    network_tiers: JSON.stringify(tiers),
    addresses: JSON.stringify(
      union(JSON.parse(row.addresses) as ListedAddress[], provider.addresses, (a) => JSON.stringify(a)),
    ),
    specialties: merged(row.specialties, provider.specialties),
    languages: merged(row.languages, provider.languages),
    facility_types: merged(row.facility_types, provider.facilityTypes),
  };
  const same = LISTS.every((column) => row[column] === columns[column]);
  return same ? undefined : columns;
}

/** The provider's entries, one per issuer and year, or why it is refused (a plan plans.json lacks). */
function networkEntries(provider: ProviderRecord, planYears: PlanYears): NetworkEntry[] | string {
  const entries = new Map<string, NetworkEntry>();
  for (const listing of provider.plans) {
    const listed = planYears.listed(listing.planId, listing.years);
    if (typeof listed === 'string') return `provider ${provider.npi}: ${listed}`;
    for (const planYear of listed) {
      const key = `${planYear.year}:${planYear.issuerId}`;
      const entry = entries.get(key) ?? {
        year: planYear.year,
        issuerId: planYear.issuerId,
        provider,
        plans: new Map(),
      };
      entries.set(key, entry);
      const plan = entry.plans.get(listing.planId) ?? { planYear, tiers: new Set<string>() };
      entry.plans.set(listing.planId, plan);
      if (listing.tier !== '') plan.tiers.add(listing.tier);
    }
  }
  return [...entries.values()];
}

/**
 * Writes `network_providers`: one row per (year, issuer, NPI) holding the issuer's plans that list the
 * provider and each plan's distinct network tiers. A provider an issuer lists again (another file, another
 * location) adds its plans, tiers, addresses, specialties and languages to the row; name, type, gender and
 * accepting stay as first listed. `PlanYear.providers` counts each plan's distinct NPIs.
 */
export function createNetworkWriter(load: KindLoad, planYears: PlanYears) {
  const written = new Map<string, NpiSet>();
  const repeats = new Map<string, NetworkEntry>();

  async function mergeRepeats(): Promise<void> {
    if (repeats.size === 0) return;
    await load.writer.flush();
    const groups = new Map<string, NetworkEntry[]>();
    for (const entry of repeats.values()) {
      const key = `${entry.year}:${entry.issuerId}`;
      const group = groups.get(key) ?? [];
      groups.set(key, group);
      group.push(entry);
    }
    repeats.clear();
    for (const entries of groups.values()) {
      for (let i = 0; i < entries.length; i += READ_CHUNK) {
        const chunk = new Map(entries.slice(i, i + READ_CHUNK).map((e) => [e.provider.npi, e]));
        const { year, issuerId } = entries[0]!;
        const rows = await load.writer.db
          .selectFrom('network_providers')
          .select(['npi', ...LISTS])
          .where('year', '=', year)
          .where('issuer_id', '=', issuerId)
          .where('npi', 'in', [...chunk.keys()])
          .execute();
        for (const row of rows) {
          const changed = mergedColumns(row, chunk.get(row.npi)!);
          if (!changed) continue;
          await load.writer.db
            .updateTable('network_providers')
            .set(changed)
            .where('year', '=', year)
            .where('issuer_id', '=', issuerId)
            .where('npi', '=', row.npi)
            .execute();
        }
      }
    }
  }

  /** Folds a repeat into the one gathered before it for the same row, if any. */
  function gatherRepeat(entry: NetworkEntry): void {
    const key = `${entry.year}:${entry.issuerId}:${entry.provider.npi}`;
    const earlier = repeats.get(key);
    if (!earlier) {
      repeats.set(key, entry);
      return;
    }
    for (const [planId, plan] of entry.plans) {
      const known = earlier.plans.get(planId);
      if (known) for (const tier of plan.tiers) known.tiers.add(tier);
      else earlier.plans.set(planId, plan);
    }
    const a = earlier.provider;
    const b = entry.provider;
    earlier.provider = {
      ...a,
      addresses: union(a.addresses, b.addresses, (x) => JSON.stringify(x)),
      specialties: union(a.specialties, b.specialties),
      languages: union(a.languages, b.languages),
      facilityTypes: union(a.facilityTypes, b.facilityTypes),
    };
  }

  return {
    /** Writes a provider's rows; the reason when it is refused. */
    async add(provider: ProviderRecord): Promise<string | undefined> {
      const entries = networkEntries(provider, planYears);
      if (typeof entries === 'string') return entries;
      for (const entry of entries) {
        const key = `${entry.year}:${entry.issuerId}`;
        const npis = written.get(key) ?? createNpiSet();
        written.set(key, npis);
        if (!npis.add(provider.npi)) {
          gatherRepeat(entry);
          if (repeats.size >= MERGE_BATCH) await mergeRepeats();
          continue;
        }
        for (const { planYear } of entry.plans.values()) planYear.providers += 1;
        await load.writer.add(
          write('network_providers', {
            year: entry.year,
            issuer_id: entry.issuerId,
            npi: provider.npi,
            type: provider.type,
            name: provider.name,
            gender: provider.gender,
            specialties: JSON.stringify(provider.specialties),
            languages: JSON.stringify(provider.languages),
            facility_types: JSON.stringify(provider.facilityTypes),
            accepting: provider.accepting,
            addresses: JSON.stringify(provider.addresses),
            plan_ids: [...entry.plans.keys()].join(','),
            network_tiers: JSON.stringify(
              Object.fromEntries([...entry.plans].map(([planId, { tiers }]) => [planId, [...tiers]])),
            ),
          }),
        );
      }
      return undefined;
    },

    /** Merges the repeats still gathered. */
    finish: mergeRepeats,
  };
}
