/**
 * HHS poverty guidelines: the three regions HHS publishes (42 U.S.C. 9902(2)): the 48 contiguous states
 * and DC, Alaska, Hawaii.
 */
export type PovertyRegion = 'contiguous' | 'AK' | 'HI';

interface RegionGuideline {
  /** One person. */
  first: number;
  /** Each additional person, for the sizes the notice computes this way. */
  additional: number;
  /** Sizes whose published figure differs from `first + additional × (n − 1)`. */
  sizes?: Readonly<Record<number, number>>;
  /** "For families with more than 8 persons, add …" when it differs from `additional`. */
  over8?: number;
}

type YearGuidelines = Readonly<Record<PovertyRegion, RegionGuideline>>;

// HHS "Annual Update of the HHS Poverty Guidelines", Federal Register, one notice a year (citation per
// row); 2026: ASPE 2026 Poverty Guidelines (https://aspe.hhs.gov/topics/poverty-economic-mobility/
// poverty-guidelines). test/plans/households.test.ts checks the table against the hand-entered copy it
// reads from ../shared/data/reference_tables/hhs_poverty_guidelines.csv.
// 2016 exception (81 FR 4036): the CPI barely rose, and HHS kept every figure at least at its 2015 value,
// so sizes 7–8 (48 states) and 8 (AK, HI) are the 2015 figures and the over-8 step is 2015's.
const GUIDELINES: Readonly<Record<number, YearGuidelines>> = {
  // 78 FR 5182 (2013-01-24)
  2013: { contiguous: g(11490, 4020), AK: g(14350, 5030), HI: g(13230, 4620) },
  // 79 FR 3593 (2014-01-22)
  2014: { contiguous: g(11670, 4060), AK: g(14580, 5080), HI: g(13420, 4670) },
  // 80 FR 3236 (2015-01-22)
  2015: { contiguous: g(11770, 4160), AK: g(14720, 5200), HI: g(13550, 4780) },
  // 81 FR 4036 (2016-01-25)
  2016: {
    contiguous: { first: 11880, additional: 4140, sizes: { 7: 36730, 8: 40890 }, over8: 4160 },
    AK: { first: 14840, additional: 5180, sizes: { 8: 51120 }, over8: 5200 },
    HI: { first: 13670, additional: 4760, sizes: { 8: 47010 }, over8: 4780 },
  },
  // 82 FR 8831 (2017-01-31)
  2017: { contiguous: g(12060, 4180), AK: g(15060, 5230), HI: g(13860, 4810) },
  // 83 FR 2642 (2018-01-18)
  2018: { contiguous: g(12140, 4320), AK: g(15180, 5400), HI: g(13960, 4970) },
  // 84 FR 1167 (2019-02-01)
  2019: { contiguous: g(12490, 4420), AK: g(15600, 5530), HI: g(14380, 5080) },
  // 85 FR 3060 (2020-01-17)
  2020: { contiguous: g(12760, 4480), AK: g(15950, 5600), HI: g(14680, 5150) },
  // 86 FR 7732 (2021-02-01)
  2021: { contiguous: g(12880, 4540), AK: g(16090, 5680), HI: g(14820, 5220) },
  // 87 FR 3315 (2022-01-21)
  2022: { contiguous: g(13590, 4720), AK: g(16990, 5900), HI: g(15630, 5430) },
  // 88 FR 3424 (2023-01-19)
  2023: { contiguous: g(14580, 5140), AK: g(18210, 6430), HI: g(16770, 5910) },
  // 89 FR 2961 (2024-01-17)
  2024: { contiguous: g(15060, 5380), AK: g(18810, 6730), HI: g(17310, 6190) },
  // 90 FR 5917 (2025-01-17)
  2025: { contiguous: g(15650, 5500), AK: g(19550, 6880), HI: g(17990, 6330) },
  // ASPE, 2026 Poverty Guidelines (January 2026)
  2026: { contiguous: g(15960, 5680), AK: g(19950, 7100), HI: g(18360, 6530) },
};

function g(first: number, additional: number): RegionGuideline {
  return { first, additional };
}

/** A year's table for one region: the figures for 1–8 persons and the step beyond eight. */
/** Shared by every caller (kept per year and region): read-only. */
export interface PovertyTable {
  readonly guidelineYear: number;
  /** `sizes[n − 1]` = the guideline for n persons, n = 1…8. */
  readonly sizes: readonly number[];
  readonly addPerPersonAfterEight: number;
}

/** The region a state's residents are measured against. */
export function povertyRegion(state: string): PovertyRegion {
  return state === 'AK' || state === 'HI' ? state : 'contiguous';
}

/**
 * Marketplace year Y is measured against the guidelines published in Y − 1: the premium tax credit uses
 * the guidelines "in effect on the first day of the open enrollment period" for the coverage year (26 CFR
 * 1.36B-1(h); 45 CFR 155.300(a) "Federal poverty level"), and open enrollment for Y starts in Y − 1.
 */
export function guidelineYearOf(marketYear: number): number {
  return marketYear - 1;
}

/** The published table of `guidelineYear` for `region`, or undefined for a year we do not hold. */
export function povertyTable(guidelineYear: number, region: PovertyRegion): PovertyTable | undefined {
  const key = `${guidelineYear}|${region}`;
  let table = tables.get(key);
  if (table === undefined) {
    const row = GUIDELINES[guidelineYear]?.[region];
    if (!row) return undefined;
    const sizes = Array.from({ length: 8 }, (_, i) => row.sizes?.[i + 1] ?? row.first + row.additional * i);
    table = { guidelineYear, sizes, addPerPersonAfterEight: row.over8 ?? row.additional };
    tables.set(key, table);
  }
  return table;
}

/** Tables already worked out (the guidelines are constants of this module). */
const tables = new Map<string, PovertyTable>();

/** The guideline for a household of `size` (≥ 1) persons. */
export function guidelineFor(table: PovertyTable, size: number): number {
  if (size <= 8) return table.sizes[size - 1]!;
  return table.sizes[7]! + table.addPerPersonAfterEight * (size - 8);
}

/** Income as a percentage of the guideline, rounded to two decimals (`{pc_fpl: 146.91}`). */
export function percentOfPoverty(income: number, guideline: number): number {
  return Math.round((income / guideline) * 10000) / 100;
}
