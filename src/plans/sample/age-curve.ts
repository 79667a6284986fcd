/**
 * The federal default standard age curve for plan years 2018 on (45 CFR 147.102(a)(1)(iii); CMS
 * "Market Rating Reforms: State Specific Age Curve Variations", 2018): the premium at each age relative
 * to age 21, a 3:1 band. Rate PUF rows use these age bands: `0-14`, `15` … `63`, `64 and over`.
 */
// prettier-ignore
const FACTORS_15_TO_64: readonly number[] = [
  0.833, 0.859, 0.885, 0.913, 0.941, 0.970, 1.000, 1.000, 1.000, 1.000, // 15–24
  1.004, 1.024, 1.048, 1.087, 1.119, 1.135, 1.159, 1.183, 1.198, 1.214, // 25–34
  1.222, 1.230, 1.238, 1.246, 1.262, 1.278, 1.302, 1.325, 1.357, 1.397, // 35–44
  1.444, 1.500, 1.563, 1.635, 1.706, 1.786, 1.865, 1.952, 2.040, 2.135, // 45–54
  2.230, 2.333, 2.437, 2.548, 2.603, 2.714, 2.810, 2.873, 2.952, 3.000, // 55–64
];

export interface AgeBand {
  /** As the Rate PUF writes it in its `Age` column. */
  label: string;
  factor: number;
}

/** Every age band of a Rate PUF, youngest first, with its federal default factor. */
export const FEDERAL_AGE_CURVE: readonly AgeBand[] = [
  { label: '0-14', factor: 0.765 },
  ...FACTORS_15_TO_64.map((factor, i) => ({
    label: i === FACTORS_15_TO_64.length - 1 ? '64 and over' : String(15 + i),
    factor,
  })),
];
