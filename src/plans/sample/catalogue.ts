/**
 * The shape of the sample market: which invented issuers sell which kinds of plan where. Everything
 * numeric (deductibles, premiums, tobacco loads) is drawn from the random seed in `market.ts`; this file only
 * fixes the structure, so every seed gives a market with the same mix of metals, types and designs.
 */

export type Metal = 'Catastrophic' | 'Expanded Bronze' | 'Bronze' | 'Silver' | 'Gold' | 'Platinum';
export type PlanType = 'HMO' | 'PPO' | 'EPO';
/** The Plan Attributes PUF `DesignType`: a CMS standardized plan option, or not. */
export type Design = 'Design 1' | 'Design 2' | 'Design 3' | 'Not Applicable';

export interface PlanSpec {
  metal: Metal;
  type: PlanType;
  design: Design;
  hsa?: boolean;
  /** Separate medical and drug deductibles (the PUF's `MedicalDrugDeductiblesIntegrated` = No). */
  separateDrugDeductible?: boolean;
  /** A preferred second in-network tier (`MultipleInNetworkTiers` = Yes). */
  secondTier?: boolean;
  nationalNetwork?: boolean;
  /** Index into the issuer's service areas (default 0). */
  serviceArea?: number;
  /** Index into the issuer's networks (default 0). */
  network?: number;
}

export interface ServiceAreaSpec {
  name: string;
  /** Whole counties, or a county limited to some of its ZIP codes (a partial county). */
  counties: readonly { fips: string; zips?: readonly string[] }[];
}

export interface IssuerSpec {
  /**
   * A HIOS-shaped issuer id no real issuer uses: the PY2025 Plan Attributes PUF's 405 issuers run from
   * 10046 to 99969, and Texas's 31 from 11718 to 98809.
   */
  id: string;
  letter: string;
  /** Whether the issuer rates tobacco use (its load is drawn from the random seed, 1.2 to 1.5). */
  ratesTobacco: boolean;
  /** Premium level of the issuer relative to the market. */
  priceLevel: number;
  serviceAreas: readonly ServiceAreaSpec[];
  networks: readonly string[];
  plans: readonly PlanSpec[];
}

const COMAL = '48091';
const GUADALUPE = '48187';
const HAYS = '48209';

export const SAMPLE_ISSUERS: readonly IssuerSpec[] = [
  {
    id: '99991',
    letter: 'A',
    ratesTobacco: false,
    priceLevel: 1,
    serviceAreas: [
      { name: 'Hill Country', counties: [{ fips: COMAL }, { fips: GUADALUPE }, { fips: HAYS }] },
    ],
    networks: ['Sample A Network'],
    plans: [
      { metal: 'Catastrophic', type: 'HMO', design: 'Not Applicable' },
      { metal: 'Expanded Bronze', type: 'HMO', design: 'Not Applicable', hsa: true },
      { metal: 'Expanded Bronze', type: 'HMO', design: 'Design 1' },
      { metal: 'Silver', type: 'HMO', design: 'Design 1' },
      { metal: 'Silver', type: 'HMO', design: 'Not Applicable' },
      { metal: 'Silver', type: 'HMO', design: 'Not Applicable', separateDrugDeductible: true },
      { metal: 'Gold', type: 'HMO', design: 'Design 1' },
      { metal: 'Gold', type: 'HMO', design: 'Not Applicable' },
      { metal: 'Platinum', type: 'HMO', design: 'Design 1' },
    ],
  },
  {
    id: '99992',
    letter: 'B',
    ratesTobacco: true,
    priceLevel: 1.08,
    serviceAreas: [{ name: 'Hays and Comal', counties: [{ fips: HAYS }, { fips: COMAL }] }],
    networks: ['Sample B Choice', 'Sample B Open Access'],
    plans: [
      { metal: 'Bronze', type: 'PPO', design: 'Not Applicable', hsa: true, network: 1 },
      { metal: 'Expanded Bronze', type: 'EPO', design: 'Not Applicable' },
      { metal: 'Silver', type: 'PPO', design: 'Not Applicable', secondTier: true, network: 1 },
      { metal: 'Silver', type: 'EPO', design: 'Design 2' },
      { metal: 'Gold', type: 'PPO', design: 'Not Applicable', nationalNetwork: true, network: 1 },
      { metal: 'Gold', type: 'EPO', design: 'Design 2' },
      { metal: 'Platinum', type: 'PPO', design: 'Not Applicable', network: 1 },
    ],
  },
  {
    id: '99993',
    letter: 'C',
    ratesTobacco: true,
    priceLevel: 0.95,
    serviceAreas: [
      // Hays only around San Marcos: a partial county, listed by ZIP as the PUF does.
      {
        name: 'Guadalupe Valley',
        counties: [{ fips: COMAL }, { fips: GUADALUPE }, { fips: HAYS, zips: ['78666', '78667'] }],
      },
      { name: 'Seguin', counties: [{ fips: GUADALUPE }] },
    ],
    networks: ['Sample C Network', 'Sample C Seguin Local'],
    plans: [
      { metal: 'Catastrophic', type: 'EPO', design: 'Not Applicable' },
      { metal: 'Expanded Bronze', type: 'EPO', design: 'Design 3' },
      { metal: 'Bronze', type: 'EPO', design: 'Not Applicable', hsa: true },
      { metal: 'Silver', type: 'EPO', design: 'Design 3' },
      { metal: 'Silver', type: 'EPO', design: 'Not Applicable' },
      { metal: 'Silver', type: 'HMO', design: 'Not Applicable', serviceArea: 1, network: 1 },
      { metal: 'Gold', type: 'EPO', design: 'Design 3' },
      { metal: 'Gold', type: 'EPO', design: 'Not Applicable' },
    ],
  },
];

/** "Sample Health Plan A (generated)": no one can take it for a real carrier. */
export function issuerName(issuer: IssuerSpec): string {
  return `Sample Health Plan ${issuer.letter} (generated)`;
}

/** Reserved `.example` domain (RFC 2606): every URL in the sample leads nowhere real. */
export function issuerSite(issuer: IssuerSpec): string {
  return `https://plan-${issuer.letter.toLowerCase()}.sample.example`;
}
