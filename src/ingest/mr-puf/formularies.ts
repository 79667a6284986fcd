import { sql } from 'kysely';
import { write } from '../engine/writes.js';
import type { KindLoad } from '../engine/kind.js';
import type { PlanYear, PlanYears } from './plan-years.js';
import type { DrugRecord } from './records.js';

/**
 * Writes a drug's `plan_drugs` rows: one per (year, plan, RxCUI). A drug listed again for the same plan
 * and year (another formulary file of the issuer names the RxCUI too) keeps its first listing: the
 * load ignores repeated keys. Returns why the drug is refused, if it is.
 */
export async function addDrug(load: KindLoad, planYears: PlanYears, drug: DrugRecord) {
  const rows: { listing: DrugRecord['plans'][number]; planYear: PlanYear }[] = [];
  for (const listing of drug.plans) {
    const listed = planYears.listed(listing.planId, listing.years);
    if (typeof listed === 'string') return `drug ${drug.rxcui}: ${listed}`;
    for (const planYear of listed) rows.push({ listing, planYear });
  }
  for (const { listing, planYear } of rows) {
    await load.writer.add(
      write('plan_drugs', {
        year: planYear.year,
        plan_id: listing.planId,
        rxcui: drug.rxcui,
        issuer_id: planYear.issuerId,
        drug_tier: listing.tier,
        prior_authorization: listing.priorAuthorization ? 1 : 0,
        step_therapy: listing.stepTherapy ? 1 : 0,
        quantity_limit: listing.quantityLimit ? 1 : 0,
      }),
    );
  }
  return undefined;
}

/**
 * Once every formulary is written: per issuer and drug, the plans listing it (what a coverage question
 * reads), and how many drugs each plan of the load lists (`year:plan` → count; counted from the rows
 * stored, so a drug two files list counts once).
 */
export async function finishFormularies(load: KindLoad, planYears: PlanYears): Promise<Map<string, number>> {
  await load.writer.flush();
  const counts = new Map<string, number>();
  for (const { year, issuerIds } of planYears.issuersByYear()) {
    await load.writer.db
      .insertInto('issuer_drugs')
      .columns(['year', 'issuer_id', 'rxcui', 'plan_ids'])
      .expression((eb) =>
        eb
          .selectFrom('plan_drugs')
          .select(['year', 'issuer_id', 'rxcui', sql<string>`string_agg(plan_id, ',')`.as('plan_ids')])
          .where('year', '=', year)
          .where('issuer_id', 'in', issuerIds)
          .groupBy(['year', 'issuer_id', 'rxcui']),
      )
      .execute();
    const perPlan = await load.writer.db
      .selectFrom('plan_drugs')
      .select(['plan_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('year', '=', year)
      .where('issuer_id', 'in', issuerIds)
      .groupBy('plan_id')
      .execute();
    for (const { plan_id, n } of perPlan) counts.set(`${year}:${plan_id}`, Number(n));
  }
  return counts;
}
