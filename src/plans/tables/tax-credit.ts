/**
 * Applicable percentage tables of the premium tax credit, by tax (= coverage) year: bands of household
 * income as a percentage of the federal poverty line, with the initial and final percentage of income
 * inside each band, in hundredths of a percent (2.01 % → 201). Inside a band the percentage rises
 * linearly from initial to final (26 CFR 1.36B-3(g)(1)).
 *
 * Sources: 26 U.S.C. 36B(b)(3)(A)(i) (2014, statutory table); Rev. Procs 2014-37 (2015), 2015-30 (2016),
 * 2016-24 (2017), 2017-36 (2018), 2018-34 (2019), 2019-29 (2020); 36B(b)(3)(A)(iii) as added by ARPA 2021
 * §9661 and extended by IRA 2022 §12001 (2021–2025: no upper limit, 8.5 % above 400 %, superseding Rev.
 * Proc. 2020-36 for 2021); Rev. Proc. 2025-25 (2026). test/plans/rating-tables.test.ts checks every cell
 * against the transcription it reads from ../shared/data/reference_tables/irs_applicable_percentage.csv.
 */

export interface ApplicableBand {
  /** Lower bound, % FPL (inclusive). */
  fromPct: number;
  /** Upper bound, % FPL (exclusive); null = no upper limit. */
  toPct: number | null;
  initial: number;
  final: number;
}

export const APPLICABLE_PERCENTAGE: Readonly<Record<number, readonly ApplicableBand[]>> = {
  2014: [
    { fromPct: 0, toPct: 133, initial: 200, final: 200 },
    { fromPct: 133, toPct: 150, initial: 300, final: 400 },
    { fromPct: 150, toPct: 200, initial: 400, final: 630 },
    { fromPct: 200, toPct: 250, initial: 630, final: 805 },
    { fromPct: 250, toPct: 300, initial: 805, final: 950 },
    { fromPct: 300, toPct: 400, initial: 950, final: 950 },
  ],
  2015: [
    { fromPct: 0, toPct: 133, initial: 201, final: 201 },
    { fromPct: 133, toPct: 150, initial: 302, final: 402 },
    { fromPct: 150, toPct: 200, initial: 402, final: 634 },
    { fromPct: 200, toPct: 250, initial: 634, final: 810 },
    { fromPct: 250, toPct: 300, initial: 810, final: 956 },
    { fromPct: 300, toPct: 400, initial: 956, final: 956 },
  ],
  2016: [
    { fromPct: 0, toPct: 133, initial: 203, final: 203 },
    { fromPct: 133, toPct: 150, initial: 305, final: 407 },
    { fromPct: 150, toPct: 200, initial: 407, final: 641 },
    { fromPct: 200, toPct: 250, initial: 641, final: 818 },
    { fromPct: 250, toPct: 300, initial: 818, final: 966 },
    { fromPct: 300, toPct: 400, initial: 966, final: 966 },
  ],
  2017: [
    { fromPct: 0, toPct: 133, initial: 204, final: 204 },
    { fromPct: 133, toPct: 150, initial: 306, final: 408 },
    { fromPct: 150, toPct: 200, initial: 408, final: 643 },
    { fromPct: 200, toPct: 250, initial: 643, final: 821 },
    { fromPct: 250, toPct: 300, initial: 821, final: 969 },
    { fromPct: 300, toPct: 400, initial: 969, final: 969 },
  ],
  2018: [
    { fromPct: 0, toPct: 133, initial: 201, final: 201 },
    { fromPct: 133, toPct: 150, initial: 302, final: 403 },
    { fromPct: 150, toPct: 200, initial: 403, final: 634 },
    { fromPct: 200, toPct: 250, initial: 634, final: 810 },
    { fromPct: 250, toPct: 300, initial: 810, final: 956 },
    { fromPct: 300, toPct: 400, initial: 956, final: 956 },
  ],
  2019: [
    { fromPct: 0, toPct: 133, initial: 208, final: 208 },
    { fromPct: 133, toPct: 150, initial: 311, final: 415 },
    { fromPct: 150, toPct: 200, initial: 415, final: 654 },
    { fromPct: 200, toPct: 250, initial: 654, final: 836 },
    { fromPct: 250, toPct: 300, initial: 836, final: 986 },
    { fromPct: 300, toPct: 400, initial: 986, final: 986 },
  ],
  2020: [
    { fromPct: 0, toPct: 133, initial: 206, final: 206 },
    { fromPct: 133, toPct: 150, initial: 309, final: 412 },
    { fromPct: 150, toPct: 200, initial: 412, final: 649 },
    { fromPct: 200, toPct: 250, initial: 649, final: 829 },
    { fromPct: 250, toPct: 300, initial: 829, final: 978 },
    { fromPct: 300, toPct: 400, initial: 978, final: 978 },
  ],
  2021: [
    { fromPct: 0, toPct: 150, initial: 0, final: 0 },
    { fromPct: 150, toPct: 200, initial: 0, final: 200 },
    { fromPct: 200, toPct: 250, initial: 200, final: 400 },
    { fromPct: 250, toPct: 300, initial: 400, final: 600 },
    { fromPct: 300, toPct: 400, initial: 600, final: 850 },
    { fromPct: 400, toPct: null, initial: 850, final: 850 },
  ],
  2022: [
    { fromPct: 0, toPct: 150, initial: 0, final: 0 },
    { fromPct: 150, toPct: 200, initial: 0, final: 200 },
    { fromPct: 200, toPct: 250, initial: 200, final: 400 },
    { fromPct: 250, toPct: 300, initial: 400, final: 600 },
    { fromPct: 300, toPct: 400, initial: 600, final: 850 },
    { fromPct: 400, toPct: null, initial: 850, final: 850 },
  ],
  2023: [
    { fromPct: 0, toPct: 150, initial: 0, final: 0 },
    { fromPct: 150, toPct: 200, initial: 0, final: 200 },
    { fromPct: 200, toPct: 250, initial: 200, final: 400 },
    { fromPct: 250, toPct: 300, initial: 400, final: 600 },
    { fromPct: 300, toPct: 400, initial: 600, final: 850 },
    { fromPct: 400, toPct: null, initial: 850, final: 850 },
  ],
  2024: [
    { fromPct: 0, toPct: 150, initial: 0, final: 0 },
    { fromPct: 150, toPct: 200, initial: 0, final: 200 },
    { fromPct: 200, toPct: 250, initial: 200, final: 400 },
    { fromPct: 250, toPct: 300, initial: 400, final: 600 },
    { fromPct: 300, toPct: 400, initial: 600, final: 850 },
    { fromPct: 400, toPct: null, initial: 850, final: 850 },
  ],
  2025: [
    { fromPct: 0, toPct: 150, initial: 0, final: 0 },
    { fromPct: 150, toPct: 200, initial: 0, final: 200 },
    { fromPct: 200, toPct: 250, initial: 200, final: 400 },
    { fromPct: 250, toPct: 300, initial: 400, final: 600 },
    { fromPct: 300, toPct: 400, initial: 600, final: 850 },
    { fromPct: 400, toPct: null, initial: 850, final: 850 },
  ],
  2026: [
    { fromPct: 0, toPct: 133, initial: 210, final: 210 },
    { fromPct: 133, toPct: 150, initial: 314, final: 419 },
    { fromPct: 150, toPct: 200, initial: 419, final: 660 },
    { fromPct: 200, toPct: 250, initial: 660, final: 844 },
    { fromPct: 250, toPct: 300, initial: 844, final: 996 },
    { fromPct: 300, toPct: 400, initial: 996, final: 996 },
  ],
};

/**
 * Required contribution percentage (§36B(c)(2)(C)): employer coverage or an ICHRA is affordable when the
 * employee's self-only share is at most this share of household income. Hundredths of a percent.
 * Sources: 36B(c)(2)(C)(i) (2014) and the Rev. Procs named per year.
 */
export const REQUIRED_CONTRIBUTION: Readonly<Record<number, { pct: number; source: string }>> = {
  2014: { pct: 950, source: '26 U.S.C. 36B(c)(2)(C)(i)' },
  2015: { pct: 956, source: 'Rev. Proc. 2014-37' },
  2016: { pct: 966, source: 'Rev. Proc. 2015-30' },
  2017: { pct: 969, source: 'Rev. Proc. 2016-24' },
  2018: { pct: 956, source: 'Rev. Proc. 2017-36' },
  2019: { pct: 986, source: 'Rev. Proc. 2018-34' },
  2020: { pct: 978, source: 'Rev. Proc. 2019-29' },
  2021: { pct: 983, source: 'Rev. Proc. 2020-36' },
  2022: { pct: 961, source: 'Rev. Proc. 2021-36' },
  2023: { pct: 912, source: 'Rev. Proc. 2022-34' },
  2024: { pct: 839, source: 'Rev. Proc. 2023-29' },
  2025: { pct: 902, source: 'Rev. Proc. 2024-35' },
  2026: { pct: 996, source: 'Rev. Proc. 2025-25' },
};
