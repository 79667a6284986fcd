/**
 * How a benefit's cost-sharing phrases are read: whether its copay and its coinsurance apply, whether the
 * benefit is subject to the deductible, and whether the copay is paid before the deductible (the member
 * pays the copay and the rest of the allowed amount accrues to the deductible). The phrases are the
 * option words of the Benefits and Cost Sharing PUF cells with the amount taken off ("$30 Copay after
 * deductible" → "Copay after deductible"; a bare "$30" or "20%" → no phrase).
 *
 * First CMS's own table (`csRulesMap` of `oopc.go`, https://github.com/CMSgov/oopc-calculations, CC0),
 * matched as CMS matches it but ignoring case and runs of spaces; then, for a combination the table does
 * not list (CMS's code gives up the whole estimate there), the phrase read word by word; and when even
 * that fails, a conservative reading (docs/decisions.md#oopc-method).
 */

export interface CostSharingRule {
  /** The stated copay is charged (false: no copay). */
  copay: boolean;
  /** The stated coinsurance is charged (false: no coinsurance). */
  coinsurance: boolean;
  /** The benefit is subject to the deductible. */
  deductible: boolean;
  /** CMS's stored flag; CMS (and we) replace it by the benefit's own MOOP exclusion. */
  moop: boolean;
  /** The copay is paid before the deductible is met, and only the rest of the allowed amount accrues to it. */
  copayBeforeDeductible: boolean;
}

/** CMS's table, in its source order: copay phrase, coinsurance phrase, then the five flags. */
export const CMS_COST_SHARING_RULES: readonly (readonly [string, string, ...boolean[]])[] = [
  ['No Charge', 'No Charge', false, false, false, true, false],
  ['No Charge', 'Not Applicable', false, false, false, true, false],
  ['Not Applicable', 'No Charge', false, false, false, true, false],
  ['Not Applicable', 'Not Applicable', false, false, false, true, false],
  ['No Charge', 'No Charge after deductible', false, false, true, true, false],
  ['No Charge after deductible', 'No Charge', false, false, true, true, false],
  ['No Charge after deductible', 'No Charge after deductible', false, false, true, true, false],
  ['No Charge after deductible', 'Not Applicable', false, false, true, true, false],
  ['Not Applicable', 'No Charge after deductible', false, false, true, true, false],
  ['No Charge', '', false, true, false, true, false],
  ['Not Applicable', '', false, true, false, true, false],
  ['Copay before deductible', '', false, true, true, true, false],
  ['Copay before deductible', 'Coinsurance after deductible', false, true, true, true, false],
  ['No Charge', 'Coinsurance after deductible', false, true, true, true, false],
  ['No Charge after deductible', 'Coinsurance after deductible', false, true, true, true, false],
  ['No Charge after deductible', '', false, true, true, true, false],
  ['Not Applicable', 'Coinsurance after deductible', false, true, true, true, false],
  ['', 'No Charge', true, false, false, true, false],
  ['', 'Not Applicable', true, false, false, true, false],
  ['Copay after deductible', 'No Charge', true, false, true, true, false],
  ['Copay after deductible', 'No Charge after deductible', true, false, true, true, false],
  ['Copay after deductible', 'Not Applicable', true, false, true, true, false],
  ['', 'No Charge after deductible', true, false, true, true, false],
  ['Copay before deductible', 'No Charge', true, false, true, true, true],
  ['Copay before deductible', 'No Charge after deductible', true, false, true, true, true],
  ['Copay before deductible', 'Not Applicable', true, false, true, true, true],
  ['', '', true, true, false, true, false],
  ['Copay after deductible', 'Coinsurance after deductible', true, true, true, true, false],
  ['Copay after deductible', '', true, true, true, true, false],
  ['', 'Coinsurance after deductible', true, true, true, true, false],
  ['Copay per Day', '', true, true, false, true, false],
  ['Copay per Day', 'No Charge', true, false, false, true, false],
  ['Copay per Day', 'Not Applicable', true, false, false, true, false],
  ['Copay per Day', 'Coinsurance after deductible', true, true, true, true, false],
  ['Copay per Day', 'No Charge after deductible', true, false, true, true, false],
  ['Copay per Day after deductible', 'No Charge after deductible', true, false, true, true, false],
  ['Copay per Day after deductible', 'Not Applicable', true, false, true, true, false],
  ['Copay per Day after deductible', 'Coinsurance after deductible', true, true, true, true, false],
  ['Copay per Stay', '', true, false, true, true, false],
  ['Copay per Stay', 'No Charge', true, false, false, true, false],
  ['Copay per Stay', 'Not Applicable', true, false, false, true, false],
  ['Copay per Stay', 'No Charge after deductible', true, false, true, true, false],
  ['Copay per Stay', 'Coinsurance after deductible', true, true, true, true, false],
  ['Copay per Stay after deductible', 'No Charge', true, false, true, true, false],
  ['Copay per Stay after deductible', 'No Charge after deductible', true, false, true, true, false],
  ['Copay per Stay after deductible', 'Not Applicable', true, false, true, true, false],
  ['Copay per Stay before deductible', 'No Charge after deductible', true, false, true, true, true],
  ['Copay per Stay before deductible', 'Not Applicable', true, false, true, true, true],
  ['Copay per Stay after deductible', 'Coinsurance after deductible', true, true, true, true, false],
  ['Copay per Stay before deductible', 'Coinsurance after deductible', true, true, true, true, false],
  ['Copay per Day before deductible', 'Coinsurance after deductible', false, true, true, true, false],
  ['Copay per Day before deductible', 'No Charge after deductible', true, false, true, true, true],
  ['Copay per Day before deductible', 'Not Applicable', true, false, true, true, false],
];

/** How a phrase pair was read: CMS's table, our word-by-word reading, or the conservative fallback. */
export type RuleSource = 'table' | 'parsed' | 'fallback';

/** Phrases compared as CMS compares them, but blind to case and to runs of spaces. */
const normal = (phrase: string | null | undefined) =>
  (phrase ?? '').trim().replace(/\s+/g, ' ').toLowerCase();

const TABLE = new Map<string, CostSharingRule>(
  CMS_COST_SHARING_RULES.map(([copay, coins, ...flags]) => [
    `${normal(copay)}..${normal(coins)}`,
    {
      copay: flags[0]!,
      coinsurance: flags[1]!,
      deductible: flags[2]!,
      moop: flags[3]!,
      copayBeforeDeductible: flags[4]!,
    },
  ]),
);

type Timing = 'after' | 'before' | null;

interface Side {
  charged: boolean;
  timing: Timing;
}

const NONE: Record<string, Side> = {
  'no charge': { charged: false, timing: null },
  'not applicable': { charged: false, timing: null },
  'no charge after deductible': { charged: false, timing: 'after' },
};

/**
 * One cell's phrase read word by word. "with deductible" is read as "before deductible": the HIOS
 * templates' wording for "the consumer first pays the copay, and any net remaining allowed charges accrue
 * to the deductible" (the CMS QHP formulary schema's copay options, as HL7's US Drug Formulary
 * CopayOptionVS records them).
 */
function side(phrase: string, kind: 'copay' | 'coinsurance'): Side | undefined {
  if (phrase === '') return { charged: true, timing: null };
  const none = NONE[phrase];
  if (none) return none;
  const pattern =
    kind === 'copay'
      ? /^copay(?: per (?:day|stay))?(?: (after|before|with) deductible)?$/
      : /^coinsurance(?: (after|before|with) deductible)?$/;
  const match = pattern.exec(phrase);
  if (!match) return undefined;
  const timing = match[1] === undefined ? null : match[1] === 'after' ? 'after' : 'before';
  return { charged: true, timing };
}

/** Whatever is stated is charged, after the deductible: the reading that costs the member most. */
const FALLBACK: CostSharingRule = {
  copay: true,
  coinsurance: true,
  deductible: true,
  moop: true,
  copayBeforeDeductible: false,
};

/**
 * The phrases read word by word, without CMS's table; undefined when a phrase is not understood. It agrees
 * with CMS's table on all but four of its 53 entries, where CMS's choices are its own (the tests list them).
 */
export function readPhrases(
  copayOptions: string | null | undefined,
  coinsuranceOptions: string | null | undefined,
): CostSharingRule | undefined {
  const copay = side(normal(copayOptions), 'copay');
  const coins = side(normal(coinsuranceOptions), 'coinsurance');
  if (!copay || !coins) return undefined;
  // One rate serves both sides of the deductible in this model: a charge "before" the deductible next to
  // one "after" it cannot both hold, and CMS's table keeps the "after" one ("Copay before deductible" with
  // "Coinsurance after deductible"); so do we.
  const split = copay.timing === 'before' && coins.charged && coins.timing === 'after';
  const coinsSplit = coins.timing === 'before' && copay.charged && copay.timing === 'after';
  return {
    copay: copay.charged && !split,
    coinsurance: coins.charged && !coinsSplit,
    deductible: copay.timing !== null || coins.timing !== null,
    moop: true,
    copayBeforeDeductible:
      (copay.charged && copay.timing === 'before' && !split) ||
      (coins.charged && coins.timing === 'before' && !coinsSplit),
  };
}

/** The rule for one in-network cost sharing's copay and coinsurance phrases, and how it was found. */
export function costSharingRule(
  copayOptions: string | null | undefined,
  coinsuranceOptions: string | null | undefined,
): { rule: CostSharingRule; source: RuleSource } {
  const listed = TABLE.get(`${normal(copayOptions)}..${normal(coinsuranceOptions)}`);
  if (listed) return { rule: listed, source: 'table' };
  const read = readPhrases(copayOptions, coinsuranceOptions);
  return read ? { rule: read, source: 'parsed' } : { rule: FALLBACK, source: 'fallback' };
}
