import { mulRatio, type Cents } from './money.js';

/**
 * Family-tier rating in the two community-rated states: no age rating, one single-adult rate per plan and
 * area (Rate PUF rows with `Age` = `Family Option`), times a factor for the policy's tier (45 CFR
 * 147.102(c) lets a state that rates without age use uniform family tiers; NY Ins. Law §4317 and 33 V.S.A. §1811 community rating).
 * Factors in thousandths, as transcribed in PolicyEngine-US (`policyengine_us/parameters/gov/aca/
 * family_tier_ratings/ny.yaml`, `vt.yaml`; docs/decisions.md#family-tiers).
 * VT publishes no child-only factor there, so a VT child-only policy has no price from us.
 */
export type TierState = 'NY' | 'VT';

export type FamilyTier = 'single' | 'couple' | 'adult-and-children' | 'couple-and-children' | 'child-only';

const TIER_FACTORS: Readonly<Record<TierState, Partial<Record<FamilyTier, number>>>> = {
  NY: {
    single: 1000,
    couple: 2000,
    'adult-and-children': 1700,
    'couple-and-children': 2850,
    'child-only': 412,
  },
  VT: { single: 1000, couple: 2000, 'adult-and-children': 1930, 'couple-and-children': 2810 },
};

/** The `Age` value of the Rate PUF rows that carry a tier state's single-adult rate. */
export const FAMILY_OPTION_AGE_KEY = 'Family Option';

/** A covered member as the tiers see them. */
export interface TierMember {
  age: number;
  subscriber: boolean;
  relationship?: string | null;
}

const PARTNERS = new Set(['Spouse', 'Life Partner']);

/** Dependants count as children in the tiers up to 26, the ACA's dependent age (45 CFR 147.120). */
const TIER_CHILD_AGE_LIMIT = 26;

/** Child-only coverage is for those under 21 (45 CFR 156.200(c)(2)). */
const CHILD_ONLY_AGE_LIMIT = 21;

function isChild(member: TierMember): boolean {
  if (member.subscriber) return member.age < CHILD_ONLY_AGE_LIMIT;
  return !PARTNERS.has(member.relationship ?? '') && member.age < TIER_CHILD_AGE_LIMIT;
}

/**
 * The tier of a policy covering `members` (docs/decisions.md#family-tiers): one or two adults, with or
 * without children, or children alone. Undefined when it fits no tier (more than two adults: they need
 * separate policies).
 */
export function familyTier(members: readonly TierMember[]): FamilyTier | undefined {
  const children = members.filter(isChild).length;
  const adults = members.length - children;
  if (adults > 2 || members.length === 0) return undefined;
  if (adults === 0) return 'child-only';
  if (adults === 1) return children > 0 ? 'adult-and-children' : 'single';
  return children > 0 ? 'couple-and-children' : 'couple';
}

/**
 * A tier state's premium: single-adult rate × tier factor, rounded once (docs/decisions.md#family-tiers).
 * Child-only policies take the child factor for each child (our reading; the source gives one child).
 * Undefined when the tier or its factor is unknown — we never guess a rate.
 */
export function familyTierPremium(
  state: TierState,
  singleAdultRate: Cents,
  members: readonly TierMember[],
): Cents | undefined {
  const tier = familyTier(members);
  if (tier === undefined) return undefined;
  const factor = TIER_FACTORS[state][tier];
  if (factor === undefined) return undefined;
  const count = tier === 'child-only' ? members.length : 1;
  return mulRatio(singleAdultRate, factor * count, 1000);
}
