import type { CostSharing, NetworkTier } from '../../plans/store/plan-detail.js';
import { Reject } from '../engine/tabular-format.js';
import { cell } from './puf-cells.js';

/**
 * The copay and coinsurance cells of the Benefits and Cost Sharing PUF, as HIOS lets issuers fill them
 * (QHP Application Plans & Benefits template): copay "$30", "$30 Copay after deductible", "$30 Copay
 * with deductible", "$250 Copay per Day …", "No Charge", "No Charge after deductible", "Not Applicable";
 * coinsurance "20%", "20% Coinsurance after deductible", "No Charge", "No Charge after deductible",
 * "Not Applicable".
 */
interface Part {
  /** Dollars (copay) or a fraction of 1 (coinsurance); 0 for "No Charge"; null when not applicable. */
  value: number | null;
  /** What the cell says beyond the number ("Copay after deductible", "No Charge", …), or null. */
  options: string | null;
  text: string;
}

const NOT_APPLICABLE = /^not applicable$/i;
const NO_CHARGE = /^no charge\b/i;

function part(cells: Record<string, string>, column: string, copay: boolean): Part | null | Reject {
  const text = cell(cells, column);
  if (text === '') return null;
  if (NOT_APPLICABLE.test(text)) return { value: null, options: 'Not Applicable', text };
  if (NO_CHARGE.test(text)) return { value: 0, options: text, text };
  const match = copay
    ? /^\$\s*(\d[\d,]*(?:\.\d+)?)\s*(.*)$/.exec(text)
    : /^(\d+(?:\.\d+)?)\s*%\s*(.*)$/.exec(text);
  if (!match) return new Reject(`${column} "${text}" is not a ${copay ? 'copay' : 'coinsurance'}`);
  const number = Number(match[1]!.replace(/,/g, ''));
  return {
    value: copay ? number : Math.round(number * 100) / 10000,
    options: match[2] === '' ? null : match[2]!,
    text,
  };
}

/**
 * What a shopper reads for one tier (the API's `display_string`, e.g. "$30", "25% Coinsurance after
 * deductible", "No Charge"): the cell that charges something, as written (both, joined, when a copay
 * and coinsurance apply together); "No Charge…" when neither charges; "Not Applicable" when neither is
 * stated.
 */
function display(copay: Part | null, coins: Part | null): string {
  const charges = (p: Part | null) => p !== null && p.value !== null && p.value > 0;
  const coinsText = (p: Part) => (p.options === null ? `${p.text} Coinsurance` : p.text);
  if (charges(copay) && charges(coins)) return `${copay!.text}, ${coinsText(coins!)}`;
  if (charges(copay)) return copay!.text;
  if (charges(coins)) return coinsText(coins!);
  const free = [copay, coins].find((p) => p !== null && p.value === 0);
  if (free) return NO_CHARGE.test(free.text) ? free.text : 'No Charge';
  return 'Not Applicable';
}

const TIERS: readonly (readonly [NetworkTier, string, string])[] = [
  ['In-Network', 'CopayInnTier1', 'CoinsInnTier1'],
  ['In-Network Tier 2', 'CopayInnTier2', 'CoinsInnTier2'],
  ['Out-of-Network', 'CopayOutofNet', 'CoinsOutofNet'],
];

/** The benefit's cost sharing per network tier; a tier whose cells are empty or both "Not Applicable" is left out. */
export function costSharingsOf(cells: Record<string, string>): CostSharing[] | Reject {
  const sharings: CostSharing[] = [];
  for (const [tier, copayColumn, coinsColumn] of TIERS) {
    const copay = part(cells, copayColumn, true);
    if (copay instanceof Reject) return copay;
    const coins = part(cells, coinsColumn, false);
    if (coins instanceof Reject) return coins;
    if ((copay === null || copay.value === null) && (coins === null || coins.value === null)) continue;
    sharings.push({
      network_tier: tier,
      copay_amount: copay?.value ?? null,
      copay_options: copay?.options ?? null,
      coinsurance_rate: coins?.value ?? null,
      coinsurance_options: coins?.options ?? null,
      display_string: display(copay, coins),
    });
  }
  return sharings;
}
