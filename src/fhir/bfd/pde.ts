/**
 * A Part D prescription drug event (one RIF `pde` row) → its ExplanationOfBenefit, CARIN's pharmacy profile,
 * as BFD builds it (PartDEventTransformerV2 in BFD's public repository; docs/claims-rif.md): the shared
 * header, the prescription reference number, the plan contract and benefit package on the coverage, one item
 * for the fill (drug, quantity, date and the Part D amounts), the prescriber, the pharmacy, and the NCPDP codes
 * as supporting information.
 */
import {
  type IdentifierType,
  SYSTEMS,
  addAdjudication,
  addCareTeamMember,
  addCodedInformation,
  addInformationSlice,
  addInformationSliceWithCode,
  addInformationWithCode,
  addTotal,
  adjudicationAmount,
  codingExtension,
  field,
  ndcDisplay,
  npiProviderDisplay,
  orderKeys,
  organizationReference,
  requiredField,
  totalAmount,
  totalStatusAmount,
  ITEM_ORDER,
} from './adjudication.js';
import { type Json, decimal, identifierExtension, variableUrl } from './elements.js';
import { claimIdentifier, eobHeader, orderEob, optionalDate, requiredDate } from './eob-header.js';
import type { RifClaim, RifRow, TransformContext } from './rif-record.js';

/** A RIF number as Java's BigDecimal.toPlainString writes it: leading zeros of the whole part dropped. */
export function plainDecimal(raw: string): string {
  const m = /^([-+]?)0*(\d*)(\.\d+)?$/.exec(raw.trim());
  if (m === null) return raw;
  const whole = m[2] === '' ? '0' : m[2]!;
  return `${m[1] === '-' ? '-' : ''}${whole}${m[3] ?? ''}`;
}

/** A required numeric column as a number; throws naming the column when it is empty or not a number. */
function requiredNumber(row: RifRow, column: string): number {
  const value = decimal(requiredField(row, column).trim());
  if (value === undefined) throw new Error(`RIF column ${column} is not a number: '${row[column]}'`);
  return value;
}

/** HL7 v3 ActCode invoice types BFD uses for `CMPND_CD` (1 not compounded, 2 compounded; 0 says nothing). */
const COMPOUND_CODES: Readonly<Record<string, Json | null>> = {
  '0': null,
  '1': { system: SYSTEMS.v3ActCode, code: 'RXDINV', display: 'Rx dispense invoice' },
  '2': { system: SYSTEMS.v3ActCode, code: 'RXCINV', display: 'Rx compound invoice' },
};

/** The pharmacy's identifier type by `SRVC_PRVDR_ID_QLFYR_CD` (NCPDP's service provider id qualifier). */
const SERVICE_PROVIDER_ID_TYPES: Readonly<Record<string, IdentifierType>> = {
  '01': 'npi',
  '06': 'upin',
  '07': 'ncpdp',
  '08': 'sl',
  '11': 'tax',
};

/** The supporting-info entries of the NCPDP codes, in BFD's order, and whether the column may be empty. */
const CODED_INFORMATION: readonly (readonly [string, 'required' | 'optional'])[] = [
  ['DRUG_CVRG_STUS_CD', 'required'],
  ['DAW_PROD_SLCTN_CD', 'required'],
  ['DSPNSNG_STUS_CD', 'optional'],
  ['ADJSTMT_DLTN_CD', 'optional'],
  ['NSTD_FRMT_CD', 'optional'],
  ['PRCNG_EXCPTN_CD', 'optional'],
  ['CTSTRPHC_CVRG_CD', 'optional'],
];

/**
 * The fill's item: its drug (NDC, named from FDA's list), date, quantity and the Part D amounts. The plan's
 * paid amount is covered (`CVRD_D_PLAN_PD_AMT`, a benefit) or, when `DRUG_CVRG_STUS_CD` is not C, the
 * non-covered amount `NCVRD_PLAN_PD_AMT`, which BFD still labels with the covered amount's variable.
 */
function fillItem(row: RifRow, context: TransformContext): Json {
  const ndc = requiredField(row, 'PROD_SRVC_ID');
  const display = ndcDisplay(context.lookups, ndc);
  const item: Json = {
    sequence: 1,
    productOrService: {
      coding: [
        display === undefined
          ? { system: SYSTEMS.ndc, code: ndc }
          : { system: SYSTEMS.ndc, code: ndc, display },
      ],
    },
    servicedDate: requiredDate(row, 'SRVC_DT'),
    quantity: { value: requiredNumber(row, 'QTY_DSPNSD_NUM') },
  };
  const amount = (column: string): number => requiredNumber(row, column);
  if (requiredField(row, 'DRUG_CVRG_STUS_CD') === 'C') {
    addAdjudication(item, adjudicationAmount('CVRD_D_PLAN_PD_AMT', 'benefit', amount('CVRD_D_PLAN_PD_AMT')));
  } else {
    addAdjudication(
      item,
      adjudicationAmount('CVRD_D_PLAN_PD_AMT', 'noncovered', amount('NCVRD_PLAN_PD_AMT')),
    );
  }
  addAdjudication(item, adjudicationAmount('GDC_BLW_OOPT_AMT', 'coinsurance', amount('GDC_BLW_OOPT_AMT')));
  addAdjudication(item, adjudicationAmount('GDC_ABV_OOPT_AMT', 'coinsurance', amount('GDC_ABV_OOPT_AMT')));
  addAdjudication(item, adjudicationAmount('PTNT_PAY_AMT', 'paidByPatient', amount('PTNT_PAY_AMT')));
  addAdjudication(item, adjudicationAmount('OTHR_TROOP_AMT', 'priorPayerPaid', amount('OTHR_TROOP_AMT')));
  addAdjudication(item, adjudicationAmount('LICS_AMT', 'discount', amount('LICS_AMT')));
  addAdjudication(item, adjudicationAmount('PLRO_AMT', 'priorPayerPaid', amount('PLRO_AMT')));
  addAdjudication(item, adjudicationAmount('TOT_RX_CST_AMT', 'drugCost', amount('TOT_RX_CST_AMT')));
  addAdjudication(item, adjudicationAmount('RPTD_GAP_DSCNT_NUM', 'discount', amount('RPTD_GAP_DSCNT_NUM')));
  return item;
}

/**
 * The pharmacy (`SRVC_PRVDR_ID`): the facility, identified by the type its qualifier names and displayed by
 * the id's NPPES name, and the provider, under the NPI system whatever the qualifier (both as BFD's). Nothing
 * when the id is empty; no facility identifier for a qualifier outside NCPDP's NPI, UPIN, NCPDP, state license
 * and tax number.
 */
function addPharmacy(eob: Json, row: RifRow, context: TransformContext): void {
  const id = field(row, 'SRVC_PRVDR_ID');
  if (id === undefined) return;
  const type = SERVICE_PROVIDER_ID_TYPES[field(row, 'SRVC_PRVDR_ID_QLFYR_CD') ?? ''];
  if (type !== undefined) {
    eob.facility = organizationReference(type, id, npiProviderDisplay(context.lookups, id));
  }
  eob.provider = { identifier: { system: SYSTEMS.npi, value: id } };
}

/** BFD's ExplanationOfBenefit for a Part D event. */
export function pdeEob(claim: RifClaim, context: TransformContext): Json {
  const row = claim.rows[0];
  if (row === undefined) throw new Error('a Part D event has one row');
  const eob = eobHeader('pde', claim, context);
  (eob.identifier as Json[]).push(
    claimIdentifier(variableUrl('RX_SRVC_RFRNC_NUM'), plainDecimal(requiredField(row, 'RX_SRVC_RFRNC_NUM'))),
  );
  const coverage = (eob.insurance as Json[])[0]!.coverage as Json;
  (eob.insurance as Json[])[0]!.coverage = {
    extension: [
      identifierExtension('PLAN_CNTRCT_REC_ID', requiredField(row, 'PLAN_CNTRCT_REC_ID')),
      identifierExtension('PLAN_PBP_REC_NUM', requiredField(row, 'PLAN_PBP_REC_NUM')),
    ],
    ...coverage,
  };
  const paid = optionalDate(row, 'PD_DT');
  if (paid !== undefined) eob.payment = { date: paid };

  const compound = COMPOUND_CODES[requiredField(row, 'CMPND_CD').trim()];
  if (compound === undefined) throw new Error(`CMPND_CD must be 0, 1 or 2, not '${row.CMPND_CD}'`);
  if (compound !== null) addInformationSlice(eob, 'compoundCode').code = { coding: [compound] };

  const item = fillItem(row, context);
  eob.item = [item];
  addTotal(eob, totalAmount('drugCost', requiredNumber(row, 'TOT_RX_CST_AMT')));
  addTotal(eob, totalStatusAmount('other', 0));

  const qualifier = field(row, 'PRSCRBR_ID_QLFYR_CD');
  if (qualifier?.toUpperCase() !== '01')
    throw new Error(`PRSCRBR_ID_QLFYR_CD must be 01 (NPI), not '${qualifier ?? ''}'`);
  addCareTeamMember(eob, item, 'npi', 'prescribing', requiredField(row, 'PRSCRBR_ID'), context.lookups, {
    taxonomy: true,
  });
  orderKeys(item, ITEM_ORDER);

  addInformationSlice(eob, 'refillNum').valueQuantity = { value: requiredNumber(row, 'FILL_NUM') };
  addInformationSlice(eob, 'daysSupply').valueQuantity = { value: requiredNumber(row, 'DAYS_SUPLY_NUM') };
  addPharmacy(eob, row, context);

  for (const [column, presence] of CODED_INFORMATION) {
    const code = presence === 'required' ? requiredField(row, column) : field(row, column);
    if (code !== undefined) addInformationWithCode(eob, column, column, code);
  }
  addInformationSliceWithCode(eob, 'rxOriginCode', 'RX_ORGN_CD', field(row, 'RX_ORGN_CD'));
  addInformationSliceWithCode(eob, 'brandGenericIndicator', 'BRND_GNRC_CD', field(row, 'BRND_GNRC_CD'));
  const facility = (eob.facility as Json | undefined) ?? {};
  facility.extension = [codingExtension('PHRMCY_SRVC_TYPE_CD', requiredField(row, 'PHRMCY_SRVC_TYPE_CD'))];
  eob.facility = orderKeys(facility, ['extension', 'reference', 'type', 'identifier', 'display']);
  addInformationWithCode(eob, 'PTNT_RSDNC_CD', 'PTNT_RSDNC_CD', requiredField(row, 'PTNT_RSDNC_CD'));
  addCodedInformation(eob, row, 'SUBMSN_CLR_CD');
  return orderEob(eob);
}
