import type { Transaction } from 'kysely';
import { write, type Write } from '../engine/writes.js';
import type { VariantDetail } from '../../plans/store/plan-detail.js';
import type { Database } from '../../storage/schema.js';
import { Reject, missingFrom, type TabularFormat } from '../engine/tabular-format.js';
import { PLAN_ID, VARIANT_ID, firstReject, matching, yesNo } from './values.js';
import { designTypeOf, ehbFraction, metalLevelOf, planDetailOf, planTypeOf } from './plan-attributes-plan.js';
import { costLimits, csrOf, oopcCells, sbcsOf } from './plan-attributes-variant.js';
import { issuerRows, notAVariantOf } from './issuer-rows.js';
import { Preferred, cell, marketOf, optionalCell } from './puf-cells.js';

const SOURCE = 'plan-attributes';

const REQUIRED = [
  'BusinessYear',
  'StateCode',
  'IssuerId',
  'MarketCoverage',
  'DentalOnlyPlan',
  'StandardComponentId',
  'PlanMarketingName',
  'PlanType',
  'MetalLevel',
  'PlanId',
  'CSRVariationType',
];

const SERVICE_AREA_ID = /^[A-Z]{2}S\d{3}$/;
const NETWORK_ID = /^[A-Z]{2}N\d{3}$/;

/**
 * The plan row comes from the variant a shopper sees first: the on-exchange standard variant (-01),
 * else the off-exchange one (-00), else any. Plan-level columns agree across variants except a few
 * (IsHSAEligible is "No" on CSR variants, the SBC URL differs per variant).
 */
const rankOf = (suffix: string) => (suffix === '01' ? 3 : suffix === '00' ? 2 : 1);

/** What one load keeps across its files. */
interface LoadState {
  plans: Preferred<Write>;
  /** `year|state` whose Landscape-sourced plans this load has already replaced. */
  superseded: Set<string>;
  landscapeStates: Map<number, Promise<Set<string>>>;
}

/**
 * The Plan Attributes PUF files a state's plans completely, so plans, variants and issuers that the QHP
 * Landscape wrote for the same year and state give way (the Landscape format, loaded after, skips plans
 * the PUF has). Without this, a PUF load after a Landscape load would collide on the tables' keys.
 */
async function supersedeLandscape(db: Transaction<Database>, state: LoadState, year: number, usps: string) {
  const key = `${year}|${usps}`;
  if (state.superseded.has(key)) return;
  state.superseded.add(key);
  let states = state.landscapeStates.get(year);
  if (!states) {
    states = db
      .selectFrom('plans')
      .select('state')
      .distinct()
      .where('year', '=', year)
      .where('source', '=', 'landscape')
      .execute()
      .then((rows) => new Set(rows.map((r) => r.state)));
    state.landscapeStates.set(year, states);
  }
  if (!(await states).has(usps)) return;
  const landscape = (table: 'plans' | 'issuers' | 'plan_variants') =>
    db.deleteFrom(table).where('year', '=', year).where('source', '=', 'landscape');
  await landscape('plans').where('state', '=', usps).execute();
  await landscape('issuers').where('state', '=', usps).execute();
  await landscape('plan_variants').where('variant_id', 'like', `_____${usps}%`).execute();
}

/**
 * CMS Plan Attributes PUF (one row per plan variant, e.g. `12345TX0010001-01`; the CMS .zip or its
 * .csv): fills `plans` (one per standard component id), `plan_variants` with their deductible and MOOP
 * grid, and `issuers`. Year: BusinessYear.
 */
export const planAttributesFormat: TabularFormat<LoadState> = {
  kind: 'plan-attributes',
  summary: 'CMS Plan Attributes PUF (plan-attributes-puf.zip or .csv): plans, CSR variants, issuers',
  owns: [
    { table: 'plans', scope: 'source' },
    { table: 'plan_variants', scope: 'source' },
    { table: 'issuers', scope: 'source' },
  ],
  missingColumns: (header) => missingFrom(header, REQUIRED),
  startLoad: () => ({ plans: new Preferred(), superseded: new Set(), landscapeStates: new Map() }),
  start({ db, seen, load }) {
    return issuerRows(
      async (cells, year, issuer) => {
        const { issuerId, state } = issuer;
        const planId = matching(cells, 'StandardComponentId', PLAN_ID, 'a 14-character HIOS plan id');
        const variantId = matching(cells, 'PlanId', VARIANT_ID, 'a plan variant id like 12345TX0010001-01');
        const market = marketOf(cells);
        const dental = yesNo(cells, 'DentalOnlyPlan');
        const hsa = yesNo(cells, 'IsHSAEligible');
        const metal = metalLevelOf(cell(cells, 'MetalLevel'));
        const planType = planTypeOf(cell(cells, 'PlanType'));
        const design = designTypeOf(cell(cells, 'DesignType'));
        const ehb = ehbFraction(cell(cells, 'EHBPercentTotalPremium'));
        const bad = firstReject(planId, variantId, market, dental, hsa, metal, planType, design, ehb);
        if (bad) return bad;
        const plan = planId as string;
        const variant = variantId as string;
        const notOurs = notAVariantOf(issuer, plan, variant);
        if (notOurs) return notOurs;
        const name = cell(cells, 'PlanMarketingName');
        if (name === '') return new Reject('PlanMarketingName is empty');
        const serviceArea = optionalCell(cells, 'ServiceAreaId');
        if (serviceArea !== null && !SERVICE_AREA_ID.test(serviceArea)) {
          return new Reject(`ServiceAreaId "${serviceArea}" is not a service area id like TXS001`);
        }
        const network = optionalCell(cells, 'NetworkId');
        if (network !== null && !NETWORK_ID.test(network)) {
          return new Reject(`NetworkId "${network}" is not a network id like TXN001`);
        }
        const suffix = variant.slice(15);
        const csr = csrOf(cell(cells, 'CSRVariationType'), suffix);
        if (csr instanceof Reject) return csr;
        const limits = costLimits(cells, csr);
        if (limits instanceof Reject) return limits;
        const sbcs = sbcsOf(cells);
        if (sbcs instanceof Reject) return sbcs;
        const oopc = oopcCells(cells);
        if (oopc instanceof Reject) return oopc;
        const detail = planDetailOf(cells);
        if (detail instanceof Reject) return detail;

        const variantKey = `variant|${year}|${variant}`;
        if (seen.has(variantKey)) return new Reject(`PlanId ${variant} appears twice`);
        seen.add(variantKey);
        await supersedeLandscape(db, load, year, state);

        const variantDetail: VariantDetail = {
          csr,
          ...limits,
          sbcs,
          issuer_actuarial_value: optionalCell(cells, 'IssuerActuarialValue'),
          hsa_eligible: hsa === 1,
          ...oopc,
        };
        const writes: Write[] = [
          write('plan_variants', {
            year,
            variant_id: variant,
            plan_id: plan,
            csr_type: csr,
            name: cell(cells, 'PlanVariantMarketingName') || name,
            source: SOURCE,
            detail: JSON.stringify(variantDetail),
          }),
        ];
        const issuerKey = `issuer|${year}|${issuerId}`;
        if (!seen.has(issuerKey)) {
          seen.add(issuerKey);
          writes.push(
            write('issuers', { year, issuer_id: issuerId, state, name: detail.issuer_name, source: SOURCE }),
          );
        }
        load.plans.offer(`${year}|${plan}`, rankOf(suffix), () =>
          write('plans', {
            year,
            plan_id: plan,
            state,
            issuer_id: issuerId,
            name,
            market: market as string,
            dental_only: dental as number,
            metal_level: metal as string,
            plan_type: planType as string,
            design_type: design as string,
            service_area_id: serviceArea,
            network_id: network,
            hsa_eligible: hsa as number,
            ehb_pct: ehb as number | null,
            source: SOURCE,
            detail: JSON.stringify(detail),
          }),
        );
        return writes;
      },
      () => load.plans.take(),
    );
  },
};
