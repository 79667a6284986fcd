/**
 * The CARIN Blue Button 2.0.0 slices and line elements BFD leaves out of its claims, added from what the
 * claim says (docs/claims-rif.md#carin): benefit payment status (lines of professional claims, header of
 * institutional and pharmacy claims), line service dates, and the pharmacy DAW code and refills
 * authorized. Each function changes the EOB it is given (carin-conformance.ts hands it a copy).
 */
import { ADJUDICATION_STATUS, SYSTEMS, fixedCoding, type AdjudicationStatus } from './carin.js';
import { ITEM_ORDER } from './care-team.js';
import {
  CODINGS,
  after,
  appendSupportingInfo,
  codingsOf,
  dataAbsent,
  hasCoding,
  insertKey,
  list,
} from './carin-conformance-json.js';
import { VARIABLES, type Json } from './elements.js';
import { EOB_ELEMENT_ORDER } from './eob-header.js';

const NCPDP_DAW = 'http://terminology.hl7.org/CodeSystem/NCPDPDispensedAsWrittenOrProductSelectionCode';

// ---- Line dates --------------------------------------------------------------------------------------

/** An item's elements after `serviced[x]`, in FHIR's order. */
const AFTER_SERVICED = after(ITEM_ORDER, 'servicedPeriod');

/**
 * `item.serviced[x]` is 1..1 on professional claims. BFD dates a line from its expense dates
 * (`LINE_1ST_EXPNS_DT`, `LINE_LAST_EXPNS_DT`), which the CCW may leave empty; such a line gets the claim's
 * own period (`billablePeriod`, the claim's from and through dates), within which every line falls.
 */
export function professionalLineDates(eob: Json): void {
  const period = eob.billablePeriod as Json | undefined;
  if (period === undefined) return;
  for (const item of list(eob.item)) {
    if (item.servicedDate !== undefined || item.servicedPeriod !== undefined) continue;
    insertKey(item, 'servicedPeriod', { ...period }, AFTER_SERVICED);
  }
}

/**
 * `item.servicedDate` is 1..1 on outpatient claims (a date: the profile allows no period). BFD dates a line
 * from its revenue-centre date (`REV_CNTR_DT`), which the CCW may leave empty; such a line gets the claim's
 * from date (`billablePeriod.start`): the line's own day when the claim covers one day, the first day of
 * the claim's period otherwise (as the synthetic outpatient claims are dated, src/fhir/eob-lines.ts).
 */
export function outpatientLineDates(eob: Json): void {
  const start = (eob.billablePeriod as Json | undefined)?.start;
  if (typeof start !== 'string') return;
  for (const item of list(eob.item)) {
    if (item.servicedDate !== undefined || item.servicedPeriod !== undefined) continue;
    insertKey(item, 'servicedDate', start, AFTER_SERVICED);
  }
}

// ---- Benefit payment status --------------------------------------------------------------------------

/** CCW `PRTCPTNG_IND_CD`: 1, 2 and 7 are participating providers, 3 to 6 non-participating ones. */
const PARTICIPATING = new Set(['1', '2', '7']);
const NON_PARTICIPATING = new Set(['3', '4', '5', '6']);

/** The benefit-payment-status adjudication entry with its reason. */
function benefitPaymentStatus(status: AdjudicationStatus): Json {
  return {
    category: { coding: [fixedCoding(CODINGS.benefitPaymentStatus)] },
    reason: { coding: [fixedCoding(ADJUDICATION_STATUS[status])] },
  };
}

const hasStatus = (adjudication: Json[]) =>
  adjudication.some((a) => hasCoding(a.category, CODINGS.benefitPaymentStatus));

/**
 * `item.adjudication:benefitpaymentstatus` is 1..1 on professional claims. Medicare's network is its
 * participating providers, and the line says whether its provider participates: CCW `PRTCPTNG_IND_CD`,
 * which BFD puts on the line's performing care-team member. Participating → `innetwork`, non-participating
 * → `outofnetwork`, no indicator → `other` (C4BBPayerAdjudicationStatus: "other network status"). The
 * entry goes after the line's own adjudications.
 */
export function lineBenefitPaymentStatus(eob: Json): void {
  const team = new Map(list(eob.careTeam).map((m) => [Number(m.sequence), m]));
  for (const item of list(eob.item)) {
    const adjudication = list(item.adjudication);
    if (hasStatus(adjudication)) continue;
    const indicator = (Array.isArray(item.careTeamSequence) ? item.careTeamSequence : [])
      .map((s) => participatingIndicator(team.get(Number(s))))
      .find((code) => code !== undefined);
    const status: AdjudicationStatus =
      indicator !== undefined && PARTICIPATING.has(indicator)
        ? 'innetwork'
        : indicator !== undefined && NON_PARTICIPATING.has(indicator)
          ? 'outofnetwork'
          : 'other';
    item.adjudication = [...adjudication, benefitPaymentStatus(status)];
  }
}

function participatingIndicator(member: Json | undefined): string | undefined {
  const url = `${VARIABLES}prtcptng_ind_cd`;
  const code = (list(member?.extension).find((e) => e.url === url)?.valueCoding as Json | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Header `adjudication:benefitpaymentstatus` is 1..1 on institutional claims; BFD sends no header
 * adjudication. Institutional claims carry no network or participation indicator (Medicare pays every
 * certified facility under its provider agreement, not through a network), so the status is `other`
 * ("when a network does not apply"). It is a status, not an amount, so the amounts stay on the lines alone
 * (invariant EOB-institutional-item-or-header-adjudication).
 */
export function institutionalBenefitPaymentStatus(eob: Json): void {
  addHeaderStatus(eob, 'other');
}

/**
 * Header `adjudication:benefitpaymentstatus` is 1..1 on pharmacy claims; BFD sends no header adjudication.
 * The Part D event's pricing exception code says the network: CCW `PRCNG_EXCPTN_CD` blank is an in-network
 * pharmacy, `O` an out-of-network one, `M` (Medicare secondary) says nothing of the network (`other`). BFD
 * keeps the code as a supporting-information entry when it is not blank.
 */
export function pharmacyBenefitPaymentStatus(eob: Json): void {
  const system = `${VARIABLES}prcng_excptn_cd`;
  const code = list(eob.supportingInfo)
    .flatMap((i) => codingsOf(i.code))
    .find((c) => c.system === system)?.code;
  addHeaderStatus(eob, code === undefined ? 'innetwork' : code === 'O' ? 'outofnetwork' : 'other');
}

function addHeaderStatus(eob: Json, status: AdjudicationStatus): void {
  const adjudication = list(eob.adjudication);
  if (hasStatus(adjudication)) return;
  const entries = [...adjudication, benefitPaymentStatus(status)];
  if (eob.adjudication === undefined)
    insertKey(eob, 'adjudication', entries, after(EOB_ELEMENT_ORDER, 'adjudication'));
  else eob.adjudication = entries;
}

// ---- Pharmacy ----------------------------------------------------------------------------------------

/**
 * `supportingInfo:dawcode` is 1..1 on pharmacy claims, its code bound (required) to NCPDP's dispense-as-
 * written codes. BFD sends the CCW `DAW_PROD_SLCTN_CD` (whose values are NCPDP's DAW codes) as a generic
 * `info` entry; that entry's `info` category coding becomes CARIN's `dawcode` and its code gains the NCPDP
 * coding of the same code. Without the column the slice is added with an absent code (`unknown`).
 */
export function dawCodeSlice(eob: Json): void {
  const info = list(eob.supportingInfo);
  if (info.some((i) => hasCoding(i.category, CODINGS.dawCode))) return;
  const system = `${VARIABLES}daw_prod_slctn_cd`;
  const entry = info.find((i) => codingsOf(i.code).some((c) => c.system === system));
  if (entry === undefined) {
    appendSupportingInfo(eob, {
      category: { coding: [fixedCoding(CODINGS.dawCode)] },
      code: { extension: [dataAbsent('unknown')] },
    });
    return;
  }
  const categories = codingsOf(entry.category);
  const generic = categories.findIndex((c) => c.system === SYSTEMS.claimInformationCategory);
  (entry.category as Json).coding =
    generic >= 0
      ? categories.map((c, i) => (i === generic ? fixedCoding(CODINGS.dawCode) : c))
      : [fixedCoding(CODINGS.dawCode), ...categories];
  const daw = codingsOf(entry.code).find((c) => c.system === system)!;
  (entry.code as Json).coding = [...codingsOf(entry.code), { system: NCPDP_DAW, code: daw.code }];
}

/**
 * `supportingInfo:refillsAuthorized` is 1..1 on pharmacy claims, with a quantity. A Part D event does not
 * record how many refills the prescriber authorised (it has the fill number, BFD's `refillnum`), so the
 * slice is added with its quantity absent: the data-absent-reason `unknown`.
 */
export function refillsAuthorizedSlice(eob: Json): void {
  if (list(eob.supportingInfo).some((i) => hasCoding(i.category, CODINGS.refillsAuthorized))) return;
  appendSupportingInfo(eob, {
    category: { coding: [fixedCoding(CODINGS.refillsAuthorized)] },
    valueQuantity: { extension: [dataAbsent('unknown')] },
  });
}
