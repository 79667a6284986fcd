/**
 * Dates and amounts of the synthetic claims: what Medicare pays of a submitted charge, the C4BB
 * `adjudicationamounttype` entries (HL7 adjudication codes, all in C4BBAdjudication), and the
 * adjudication-discriminator status entries (`benefitpaymentstatus`, `billingnetworkstatus`). Pure.
 */
import type { Random } from '../shared/random.js';
import { CARIN_SYSTEMS } from './carin.js';
import { coding } from './directory.js';
import type { MedicarePart } from './eob.js';
import { SYSTEMS } from './sample-codes.js';

const DAY_MS = 86_400_000;
export const fromDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const usd = (cents: number) => ({ value: cents / 100, currency: 'USD' });

/** A C4BB adjudication-discriminator entry with the in/out-of-network reason. */
export function statusAdjudication(slice: string, inNetwork: boolean) {
  return {
    category: { coding: [coding(CARIN_SYSTEMS.adjudicationDiscriminator, slice)] },
    reason: {
      coding: [
        coding(
          CARIN_SYSTEMS.payerAdjudicationStatus,
          inNetwork ? 'innetwork' : 'outofnetwork',
          inNetwork ? 'In Network' : 'Out Of Network',
        ),
      ],
    },
  };
}

/** The header status entries every C4BB EOB family here carries: payment status and network status. */
export function headerStatus(inNetwork: boolean) {
  return [
    statusAdjudication('benefitpaymentstatus', inNetwork),
    statusAdjudication('billingnetworkstatus', inNetwork),
  ];
}

/** The share of the allowed amount Medicare pays, by part (Part B's 80% coinsurance; A and D simplified). */
const PAID_SHARE: Record<MedicarePart, [number, number]> = {
  a: [0.85, 0.98],
  b: [0.8, 0.8],
  c: [0.8, 0.9],
  d: [0.6, 0.95],
};

export interface Amounts {
  submitted: number;
  eligible: number;
  benefit: number;
}

export function adjudicate(submitted: number, part: MedicarePart, rng: Random): Amounts {
  const eligible = part === 'd' ? submitted : Math.max(1, Math.round(submitted * (0.3 + rng.next() * 0.35)));
  const [low, high] = PAID_SHARE[part];
  const benefit = Math.max(1, Math.round(eligible * (low + rng.next() * (high - low))));
  return { submitted, eligible, benefit };
}

const category = (code: string, display: string) => ({
  coding: [coding(SYSTEMS.adjudication, code, display)],
});

/** The C4BB `adjudicationamounttype` entries (HL7 adjudication codes, all in C4BBAdjudication). */
export function amounts(a: Amounts) {
  return [
    { category: category('submitted', 'Submitted Amount'), amount: usd(a.submitted) },
    { category: category('eligible', 'Eligible Amount'), amount: usd(a.eligible) },
    { category: category('benefit', 'Benefit Amount'), amount: usd(a.benefit) },
  ];
}

export function sum(list: Amounts[]): Amounts {
  return list.reduce(
    (s, a) => ({
      submitted: s.submitted + a.submitted,
      eligible: s.eligible + a.eligible,
      benefit: s.benefit + a.benefit,
    }),
    { submitted: 0, eligible: 0, benefit: 0 },
  );
}
