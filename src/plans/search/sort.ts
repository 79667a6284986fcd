import { totalCosts } from '../quote/yearly-cost.js';
import type { SearchRow } from './search.js';

/** `sort` of a search request (CMS `PlanSearchRequest`). */
export const SORTS = ['premium', 'deductible', 'oopc', 'total_costs', 'quality_rating'] as const;
export type SortKey = (typeof SORTS)[number];

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

interface Keyed {
  row: SearchRow;
  k: number | null;
  premium: number;
}

/**
 * Sort keys: `premium` = premium after credit; `deductible` = the individual in-network deductible of the
 * variant shown; `oopc` = the estimated yearly out-of-pocket cost; `total_costs` = 12 × premium after
 * credit + that estimate (docs/decisions.md#oopc-method); `quality_rating` = overall rating. Unknown figures
 * (no premium, no estimate: `oopc` -1) sort last in either order; ties by premium, then plan id.
 */
const SORT_KEYS: Readonly<Record<SortKey, (row: SearchRow) => number | null>> = {
  premium: (row) => row.premiumWithCredit,
  deductible: (row) => row.deductible,
  total_costs: (row) => totalCosts(row.premiumWithCredit, row.oopc),
  quality_rating: (row) => row.plan.qualityRating,
  oopc: (row) => (row.oopc.computed ? row.oopc.oopc : null),
};

/** Ascending (`direction` 1) or descending (-1) by key; unknown keys last; ties by premium, then plan id. */
function compareKeyed(a: Keyed, b: Keyed, direction: number): number {
  if (a.k !== b.k) {
    if (a.k === null) return 1;
    if (b.k === null) return -1;
    return (a.k - b.k) * direction;
  }
  if (a.premium !== b.premium) return a.premium < b.premium ? -1 : 1;
  return a.row.plan.id < b.row.plan.id ? -1 : 1;
}

/**
 * Rows `offset` … `offset + limit − 1` of the result in that order. A first page is picked from the rows
 * in one pass (a sorted run of `offset + limit` kept by binary insertion) instead of sorting them all:
 * the order of the rest is never shown, and `total`, facets and ranges do not depend on it.
 */
export function sortedPage(
  rows: readonly SearchRow[],
  sort: SortKey | undefined,
  order: SortOrder | undefined,
  offset: number,
  limit: number,
): SearchRow[] {
  const key = SORT_KEYS[sort ?? 'premium'];
  const direction = order === 'desc' ? -1 : 1;
  const keyed = (row: SearchRow): Keyed => ({ row, k: key(row), premium: row.premiumWithCredit ?? Infinity });
  const wanted = Math.min(rows.length, offset + limit);
  if (wanted === 0) return [];
  if (wanted * 4 >= rows.length) {
    return rows
      .map(keyed)
      .sort((a, b) => compareKeyed(a, b, direction))
      .slice(offset, offset + limit)
      .map((k) => k.row);
  }
  const best: Keyed[] = [];
  const probe: Keyed = { row: rows[0]!, k: null, premium: 0 };
  for (const row of rows) {
    // Rows that cannot enter the page are compared through one reused probe, not a new object each.
    probe.row = row;
    probe.k = key(row);
    probe.premium = row.premiumWithCredit ?? Infinity;
    if (best.length === wanted && compareKeyed(probe, best[wanted - 1]!, direction) >= 0) continue;
    const item: Keyed = { row, k: probe.k, premium: probe.premium };
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeyed(best[mid]!, item, direction) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, item);
    if (best.length > wanted) best.pop();
  }
  return best.slice(offset).map((k) => k.row);
}
