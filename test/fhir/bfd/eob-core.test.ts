/**
 * The EOB elements every claim type shares (header, diagnoses, procedures, adjudication, supporting info, care
 * team, benefit balance, contained provider, NPI and drug names): against the parts of BFD's published v2
 * answers they build, for every claim type's sample record, and their rules on their own.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  addAdjudication,
  addAdmissionPeriod,
  addBenefitBalanceAmount,
  addBenefitBalanceCount,
  addCareTeamExtension,
  addCareTeamMember,
  addCareTeamOrganization,
  addCareTeamQualification,
  addInformationSlice,
  addInformationSliceWithCode,
  addInformationWithCode,
  addProviderSlice,
  addReceivedDate,
  adjudicationAmount,
  amountExtension,
  variableCoding,
  variableSystem,
  denialReasonAdjudication,
  findOrCreateContainedObservation,
  ndcDisplay,
  npiOrganizationDisplay,
  npiProviderDisplay,
  npiTaxonomyCoding,
  orderKeys,
  productNdc,
  providerName,
  totalAmount,
  totalStatusAmount,
} from '../../../src/fhir/bfd/adjudication.js';
import {
  addDiagnoses,
  addDiagnosis,
  addDiagnosisLink,
  addLineDiagnosis,
  extractDiagnoses,
  icdSystem,
} from '../../../src/fhir/bfd/diagnosis.js';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import { eobHeader, eobId, longText, orderEob } from '../../../src/fhir/bfd/eob-header.js';
import type { ClaimLookups, NpiRecord } from '../../../src/fhir/bfd/lookups.js';
import { addProcedures, extractProcedures } from '../../../src/fhir/bfd/procedure.js';
import type { RifClaim, RifClaimType, TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { bfdResponse, fhirDifferences, fixtureLookups, rifClaims } from '../../helpers/bfd.js';

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-02T03:04:05.000Z' };

/** Each claim type's sample record and BFD's answer for it. */
const SAMPLES: readonly (readonly [RifClaimType, string, string])[] = [
  ['carrier', 'sample-a-bcarrier.txt', 'eobReadCarrier.json'],
  ['carrier', 'sample-a-bcarrier-multiple-lines.txt', 'eobReadCarrierWithMultipleLines.json'],
  ['dme', 'sample-a-dme.txt', 'eobReadDme.json'],
  ['hha', 'sample-a-hha.txt', 'eobReadHha.json'],
  ['hospice', 'sample-a-hospice.txt', 'eobReadHospice.json'],
  ['inpatient', 'sample-a-inpatient.txt', 'eobReadInpatient.json'],
  ['outpatient', 'sample-a-outpatient.txt', 'eobReadOutpatient.json'],
  ['snf', 'sample-a-snf.txt', 'eobReadSnf.json'],
  ['pde', 'sample-a-pde.txt', 'eobReadPde.json'],
];

function claimOf(type: RifClaimType, file: string): RifClaim {
  const claims = rifClaims(type, file);
  assert.equal(claims.length, 1);
  return claims[0]!;
}

/** The listed elements of a resource (those it has). */
function elements(resource: Json, keys: readonly string[]): Json {
  return Object.fromEntries(keys.filter((k) => k in resource).map((k) => [k, resource[k]]));
}

const HEADER_KEYS = [
  'resourceType',
  'id',
  'meta',
  'identifier',
  'status',
  'type',
  'use',
  'patient',
  'created',
  'insurer',
  'outcome',
] as const;

describe('the header every claim type shares', () => {
  for (const [type, file, answer] of SAMPLES) {
    test(`${file}: as BFD's ${answer}`, () => {
      const expected = bfdResponse(answer);
      const ours = eobHeader(type, claimOf(type, file), context);
      // Part D adds its prescription reference number after the header's two identifiers.
      const expectedHeader = elements(expected, HEADER_KEYS);
      if (type === 'pde') expectedHeader.identifier = (expected.identifier as Json[]).slice(0, 2);
      assert.deepEqual(fhirDifferences(expectedHeader, elements(ours, HEADER_KEYS)), []);
      // The near-line record extension comes first; the per-type transforms add the rest.
      assert.deepEqual(ours.extension, type === 'pde' ? undefined : [(expected.extension as Json[])[0]]);
      const period = expected.billablePeriod as Json;
      assert.deepEqual(ours.billablePeriod, { start: period.start, end: period.end });
      // Part D's coverage carries the plan's extensions, which pde.ts adds.
      const coverage = ((expected.insurance as Json[])[0]!.coverage as Json).reference;
      assert.deepEqual(ours.insurance, [{ focal: true, coverage: { reference: coverage } }]);
      const payment = (expected.payment as Json | undefined)?.amount;
      assert.deepEqual((ours.payment as Json | undefined)?.amount, type === 'pde' ? undefined : payment);
    });
  }

  test('a claim not final is cancelled; an unknown final action is refused', () => {
    const claim = claimOf('carrier', 'sample-a-bcarrier.txt');
    const cancelled = { type: claim.type, rows: [{ ...claim.rows[0]!, FINAL_ACTION: 'N' }] };
    assert.equal(eobHeader('carrier', cancelled, context).status, 'cancelled');
    const odd = { type: claim.type, rows: [{ ...claim.rows[0]!, FINAL_ACTION: 'X' }] };
    assert.throws(() => eobHeader('carrier', odd, context), /FINAL_ACTION/);
  });

  test('longs lose their leading zeros; an empty claim group is 0', () => {
    assert.equal(longText('000123'), '123');
    assert.equal(longText('0'), '0');
    assert.equal(eobId('snf', '0042'), 'snf-42');
    const claim = claimOf('carrier', 'sample-a-bcarrier.txt');
    const noGroup = { type: claim.type, rows: [{ ...claim.rows[0]!, CLM_GRP_ID: '' }] };
    assert.equal(((eobHeader('carrier', noGroup, context).identifier as Json[])[1] as Json).value, '0');
  });

  test('orderEob puts elements in FHIR order and drops empty arrays', () => {
    const ordered = orderEob({
      item: [1],
      id: 'x',
      diagnosis: [],
      careTeam: [2],
      custom: 1,
      resourceType: 'E',
    });
    assert.deepEqual(Object.keys(ordered), ['resourceType', 'id', 'careTeam', 'item', 'custom']);
  });
});

describe('diagnoses', () => {
  for (const [type, file, answer] of SAMPLES) {
    if (type === 'pde') continue;
    test(`${file}: as BFD's ${answer}`, () => {
      const claim = claimOf(type, file);
      const eob: Json = {};
      addDiagnoses(eob, claim.rows[0]!, type, context.lookups);
      // Carrier and DME lines add their own diagnosis after the claim's, each linked from its item.
      for (const row of claim.rows) addLineDiagnosis(eob, {}, row, context.lookups);
      const expected = bfdResponse(answer).diagnosis;
      assert.deepEqual(fhirDifferences(expected, eob.diagnosis), []);
    });
  }

  test('ICD systems by version code', () => {
    assert.equal(icdSystem('9'), 'http://hl7.org/fhir/sid/icd-9-cm');
    assert.equal(icdSystem('0'), 'http://hl7.org/fhir/sid/icd-10');
    assert.equal(icdSystem(undefined), 'http://hl7.org/fhir/sid/unknown-icd-version');
    assert.equal(icdSystem(' '), 'http://hl7.org/fhir/sid/unknown-icd-version');
    assert.equal(icdSystem('X'), 'http://hl7.org/fhir/sid/unknown-icd-version/X');
  });

  test('BFD order: admitting, ICD 1 (principal), the principal column, others, external causes, reasons', () => {
    const row = {
      ADMTG_DGNS_CD: 'A1',
      ICD_DGNS_CD1: 'B1',
      PRNCPAL_DGNS_CD: 'B1',
      ICD_DGNS_CD2: 'C2',
      ICD_DGNS_E_CD1: 'E1',
      FST_DGNS_E_CD: 'E0',
      ICD_DGNS_E_CD2: 'E2',
      RSN_VISIT_CD1: 'R1',
      CLM_POA_IND_SW1: 'Y',
    };
    assert.deepEqual(
      extractDiagnoses(row).map((d) => `${d.code}:${d.label}:${d.presentOnAdmissionVariable ?? ''}`),
      [
        'A1:admitting:',
        'B1:principal:CLM_POA_IND_SW1',
        'B1:principal:',
        'C2:other:',
        'E1:firstExternal:',
        'E0:firstExternal:',
        'E2:external:',
        'R1:reasonForVisit:',
      ],
    );
  });

  test('a code already there (same system) is not added again; another version is', () => {
    const eob: Json = {};
    assert.equal(
      addDiagnosis(eob, { code: 'A1', version: '0', label: 'principal' }, 'carrier', context.lookups),
      1,
    );
    assert.equal(
      addDiagnosis(eob, { code: 'A1', version: '0', label: 'other' }, 'carrier', context.lookups),
      1,
    );
    assert.equal(
      addDiagnosis(eob, { code: 'A1', version: '9', label: 'other' }, 'carrier', context.lookups),
      2,
    );
    assert.equal((eob.diagnosis as Json[]).length, 2);
  });

  test('types by claim family: outpatient reasons for visit, inpatient admitting, Part D external', () => {
    const typeOf = (type: RifClaimType, label: Parameters<typeof addDiagnosis>[1]['label']): Json => {
      const eob: Json = {};
      addDiagnosis(eob, { code: 'Z', label }, type, context.lookups);
      return ((((eob.diagnosis as Json[])[0]!.type as Json[])[0]!.coding as Json[])[0] as Json).code as never;
    };
    assert.equal(typeOf('outpatient', 'reasonForVisit'), 'patientreasonforvisit');
    assert.equal(typeOf('snf', 'admitting'), 'other');
    assert.equal(typeOf('inpatient', 'admitting'), 'admitting');
    assert.equal(typeOf('inpatient', 'external'), 'externalcauseofinjury');
    assert.equal(typeOf('hha', 'external'), 'secondary');
    assert.equal(typeOf('pde', 'external'), 'external');
  });

  test('a line diagnosis links its item each time', () => {
    const eob: Json = {};
    const item: Json = { sequence: 1, adjudication: [] };
    addDiagnosisLink(eob, item, { code: 'A1', version: '0', label: 'other' }, 'dme', context.lookups);
    addDiagnosisLink(eob, item, { code: 'A1', version: '0', label: 'other' }, 'dme', context.lookups);
    assert.deepEqual(item.diagnosisSequence, [1, 1]);
    assert.deepEqual(Object.keys(item), ['sequence', 'diagnosisSequence', 'adjudication']);
  });
});

describe('procedures', () => {
  for (const [type, file, answer] of SAMPLES) {
    const expected = bfdResponse(answer).procedure;
    if (expected === undefined) continue;
    test(`${file}: as BFD's ${answer}`, () => {
      const eob: Json = {};
      addProcedures(eob, claimOf(type, file).rows[0]!, context.lookups);
      assert.deepEqual(fhirDifferences(expected, eob.procedure), []);
    });
  }

  test('codes, versions and dates 1–25; an empty code is skipped', () => {
    const row = {
      ICD_PRCDR_CD1: 'P1',
      ICD_PRCDR_VRSN_CD1: '9',
      PRCDR_DT1: '16-JAN-2016',
      ICD_PRCDR_CD25: 'P25',
    };
    assert.deepEqual(extractProcedures(row), [
      { code: 'P1', version: '9', date: '2016-01-16' },
      { code: 'P25' },
    ]);
    assert.throws(() => extractProcedures({ ICD_PRCDR_CD1: 'P1', PRCDR_DT1: 'soon' }), /PRCDR_DT1/);
  });
});

describe('adjudications, totals and amounts', () => {
  test('an amount slice names the CARIN category and the variable; an absent amount adds nothing', () => {
    assert.deepEqual(adjudicationAmount('LINE_NCH_PMT_AMT', 'paidToProvider', '12.50'), {
      category: {
        coding: [
          {
            system: 'http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBAdjudication',
            code: 'paidtoprovider',
            display: 'Paid to provider',
          },
          {
            system: 'https://bluebutton.cms.gov/resources/codesystem/adjudication',
            code: 'https://bluebutton.cms.gov/resources/variables/line_nch_pmt_amt',
            display: 'Line NCH Medicare Payment Amount',
          },
        ],
      },
      amount: { value: 12.5, currency: 'USD' },
    });
    assert.equal(adjudicationAmount('LINE_NCH_PMT_AMT', 'paidToProvider', ''), undefined);
    const item: Json = {};
    addAdjudication(item, undefined);
    assert.equal(item.adjudication, undefined);
  });

  test('a denial reason codes the variable', () => {
    const slice = denialReasonAdjudication('CARR_LINE_RDCD_PMT_PHYS_ASTN_C', '0') as Json;
    assert.equal(((slice.category as Json).coding as Json[])[0]!.code, 'denialreason');
    assert.equal((((slice.reason as Json).coding as Json[])[0] as Json).code, '0');
    assert.equal(denialReasonAdjudication('CARR_LINE_RDCD_PMT_PHYS_ASTN_C', undefined), undefined);
  });

  test('totals: with or without the variable, and a payer status', () => {
    assert.equal((((totalAmount('drugCost', 1) as Json).category as Json).coding as Json[]).length, 1);
    assert.equal(
      (((totalAmount('submitted', 1, 'CLM_TOT_CHRG_AMT') as Json).category as Json).coding as Json[]).length,
      2,
    );
    assert.deepEqual((totalStatusAmount('other', 0) as Json).amount, { value: 0, currency: 'USD' });
  });

  test('a claim amount as an extension', () => {
    assert.deepEqual(amountExtension('IME_OP_CLM_VAL_AMT', '66125.51'), {
      url: 'https://bluebutton.cms.gov/resources/variables/ime_op_clm_val_amt',
      valueMoney: { value: 66125.51, currency: 'USD' },
    });
  });

  test('benefit balance: one Medical Care balance, money and whole counts', () => {
    const eob: Json = {};
    addBenefitBalanceAmount(eob, 'CLM_PASS_THRU_PER_DIEM_AMT', '10.00');
    addBenefitBalanceCount(eob, 'BENE_TOT_COINSRNC_DAYS_CNT', '2.9');
    addBenefitBalanceAmount(eob, 'NCH_PROFNL_CMPNT_CHRG_AMT', '');
    const balances = eob.benefitBalance as Json[];
    assert.equal(balances.length, 1);
    const financial = balances[0]!.financial as Json[];
    assert.deepEqual(
      financial.map((f) => f.usedMoney ?? f.usedUnsignedInt),
      [{ value: 10, currency: 'USD' }, 2],
    );
  });
});

describe('supporting information', () => {
  test('sequences follow the highest so far; slices and variables', () => {
    const eob: Json = { supportingInfo: [{ sequence: 4 }] };
    addInformationWithCode(eob, 'NCH_PTNT_STUS_IND_CD', 'NCH_PTNT_STUS_IND_CD', 'A');
    addAdmissionPeriod(eob, '2016-01-15', undefined);
    addReceivedDate(eob, 'NCH_WKLY_PROC_DT', '2016-02-26');
    assert.equal(addInformationSliceWithCode(eob, 'rxOriginCode', 'RX_ORGN_CD', undefined), undefined);
    assert.equal(addAdmissionPeriod(eob, undefined, undefined), undefined);
    const entries = eob.supportingInfo as Json[];
    assert.deepEqual(
      entries.map((e) => e.sequence),
      [4, 5, 6, 7],
    );
    assert.deepEqual(entries[2]!.timingPeriod, { start: '2016-01-15' });
    assert.equal(entries[3]!.timingDate, '2016-02-26');
  });

  test("BFD's inpatient admission type: CARIN admtype, coded in NUBC's system", () => {
    const eob: Json = {};
    const entry = addInformationWithCode(eob, 'CLM_IP_ADMSN_TYPE_CD', 'CLM_IP_ADMSN_TYPE_CD', '1');
    const expected = (bfdResponse('eobReadInpatient.json').supportingInfo as Json[]).find(
      (s) => (((s.category as Json).coding as Json[])[0] as Json).code === 'admtype',
    )!;
    assert.deepEqual(fhirDifferences({ ...expected, sequence: 1 }, entry), []);
  });

  test('a slice entry is given its value by the caller', () => {
    const eob: Json = {};
    addInformationSlice(eob, 'daysSupply').valueQuantity = { value: 30 };
    assert.deepEqual(eob.supportingInfo, [
      {
        sequence: 1,
        category: {
          coding: [
            {
              system: 'http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBSupportingInfoType',
              code: 'dayssupply',
              display: 'Days Supply',
            },
          ],
        },
        valueQuantity: { value: 30 },
      },
    ]);
  });
});

/** Lookups knowing one individual, one organisation and one individual without a name or taxonomy. */
function npiLookups(): ClaimLookups {
  const records: Record<string, NpiRecord> = {
    '1111111111': {
      entityType: '1',
      prefix: 'DR.',
      firstName: ' ANN ',
      middleName: '',
      lastName: 'LEE',
      credential: 'MD',
      taxonomyCode: '207Q00000X',
      taxonomyDisplay: 'Family Medicine Physician',
    },
    '2222222222': { entityType: '2', organizationName: 'ACME CLINIC' },
    '3333333333': { entityType: '1' },
  };
  return {
    npi: (npi) => records[npi],
    drugName: (ndc) => (ndc === '12345-6789' ? 'ASPIRIN' : undefined),
    codeDescription: () => undefined,
  };
}

describe('names from reference data', () => {
  const lookups = npiLookups();

  test("a provider's name: an individual's parts, an organisation's name, nothing for no name", () => {
    assert.equal(providerName(lookups.npi('1111111111')!), 'DR. ANN LEE MD');
    assert.equal(npiProviderDisplay(lookups, '2222222222'), 'ACME CLINIC');
    assert.equal(npiProviderDisplay(lookups, '3333333333'), undefined);
    assert.equal(npiProviderDisplay(lookups, '9999999999'), undefined);
  });

  test("an organisation's name only for an organisation", () => {
    assert.equal(npiOrganizationDisplay(lookups, '2222222222'), 'ACME CLINIC');
    assert.equal(npiOrganizationDisplay(lookups, '1111111111'), undefined);
  });

  test('taxonomy: the NUCC coding, a bare system for a known NPI without one, nothing for an unknown NPI', () => {
    assert.deepEqual(npiTaxonomyCoding(lookups, '1111111111'), {
      system: 'http://nucc.org/provider-taxonomy',
      code: '207Q00000X',
      display: 'Family Medicine Physician',
    });
    assert.deepEqual(npiTaxonomyCoding(lookups, '3333333333'), {
      system: 'http://nucc.org/provider-taxonomy',
    });
    assert.equal(npiTaxonomyCoding(lookups, '9999999999'), undefined);
  });

  test("a drug's name by its product NDC; short codes are not looked up", () => {
    assert.equal(productNdc('12345678901'), '12345-6789');
    assert.equal(productNdc('1234'), undefined);
    assert.equal(ndcDisplay(lookups, '12345678901'), 'ASPIRIN');
    assert.equal(ndcDisplay(lookups, '1234'), undefined);
  });
});

describe('care team', () => {
  const lookups = npiLookups();

  test('one entry per identifier and role, reused and linked from each item once', () => {
    const eob: Json = {};
    const first: Json = { sequence: 1 };
    const second: Json = { sequence: 2 };
    addCareTeamMember(eob, first, 'npi', 'performing', '1111111111', lookups, { taxonomy: true });
    addCareTeamMember(eob, first, 'npi', 'performing', '1111111111', lookups, { taxonomy: true });
    addCareTeamMember(eob, second, 'npi', 'performing', '1111111111', lookups);
    addCareTeamMember(eob, second, 'npi', 'referring', '1111111111', lookups);
    addCareTeamMember(eob, second, 'upin', 'referring', '1111111111', lookups);
    assert.equal(addCareTeamMember(eob, second, 'npi', 'referring', undefined, lookups), undefined);
    const team = eob.careTeam as Json[];
    assert.equal(team.length, 3);
    assert.deepEqual(first.careTeamSequence, [1]);
    assert.deepEqual(second.careTeamSequence, [1, 2, 3]);
    assert.deepEqual(team[0], {
      sequence: 1,
      provider: {
        identifier: {
          type: {
            coding: [
              {
                system: 'http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBIdentifierType',
                code: 'npi',
                display: 'National Provider Identifier',
              },
            ],
          },
          value: '1111111111',
        },
        display: 'DR. ANN LEE MD',
      },
      role: {
        coding: [
          {
            system: 'http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBClaimCareTeamRole',
            code: 'performing',
            display: 'Performing provider',
          },
        ],
      },
      qualification: {
        coding: [
          {
            system: 'http://nucc.org/provider-taxonomy',
            code: '207Q00000X',
            display: 'Family Medicine Physician',
          },
        ],
      },
    });
    // A UPIN is not looked up.
    assert.equal((team[2]!.provider as Json).display, undefined);
  });

  test('an organisation member is named by organisation, never qualified', () => {
    const eob: Json = {};
    const member = addCareTeamOrganization(eob, undefined, 'primary', '2222222222', lookups);
    assert.equal((member.provider as Json).display, 'ACME CLINIC');
    assert.equal(member.qualification, undefined);
    const individual = addCareTeamOrganization(eob, undefined, 'primary', '1111111111', lookups);
    assert.equal((individual.provider as Json).display, undefined);
  });

  test('extensions and qualifications are added once, elements kept in FHIR order', () => {
    const eob: Json = {};
    const member = addCareTeamMember(eob, undefined, 'npi', 'performing', '1111111111', lookups)!;
    member.responsible = true;
    addCareTeamExtension(member, 'PRTCPTNG_IND_CD', '1');
    addCareTeamExtension(member, 'PRTCPTNG_IND_CD', '1');
    addCareTeamQualification(member, 'PRVDR_SPCLTY', '41');
    addCareTeamQualification(member, 'PRVDR_SPCLTY', '41');
    assert.deepEqual(Object.keys(member), [
      'extension',
      'sequence',
      'provider',
      'responsible',
      'role',
      'qualification',
    ]);
    assert.equal((member.extension as Json[]).length, 1);
    assert.deepEqual(member.qualification, { coding: [variableCoding('PRVDR_SPCLTY', '41')] });
  });
});

describe('contained resources and the provider organisation', () => {
  const lookups = npiLookups();

  test("BFD's inpatient provider organisation: the provider number, then the NPI named from NPPES", () => {
    const eob: Json = {};
    addProviderSlice(eob, 'prn', '777776', fixtureLookups());
    addProviderSlice(eob, 'npi', '0000000000', fixtureLookups());
    const expected = bfdResponse('eobReadInpatient.json');
    assert.deepEqual(fhirDifferences(expected.contained, eob.contained), []);
    assert.deepEqual(eob.provider, expected.provider);
  });

  test('an NPI unknown to NPPES, or of an individual, leaves the organisation unnamed; nothing for no value', () => {
    const eob: Json = {};
    addProviderSlice(eob, 'npi', '1111111111', lookups);
    addProviderSlice(eob, 'npi', undefined, lookups);
    const organization = (eob.contained as Json[])[0]!;
    assert.equal(organization.name, undefined);
    assert.equal((organization.identifier as Json[]).length, 1);
  });

  test('an observation is found again by id', () => {
    const eob: Json = {};
    const observation = findOrCreateContainedObservation(eob, 'line-observation-1');
    observation.status = 'unknown';
    assert.equal(findOrCreateContainedObservation(eob, 'line-observation-1'), observation);
    assert.equal((eob.contained as Json[]).length, 1);
  });
});

describe('CCW codings', () => {
  test('two variables are served in another system', () => {
    assert.equal(
      variableSystem('CLM_IP_ADMSN_TYPE_CD'),
      'https://www.nubc.org/CodeSystem/PriorityTypeOfAdmitOrVisit',
    );
    assert.equal(variableSystem('prvdr_npi'), 'http://hl7.org/fhir/sid/us-npi');
    assert.equal(
      variableSystem('NCH_CLM_TYPE_CD'),
      'https://bluebutton.cms.gov/resources/variables/nch_clm_type_cd',
    );
  });

  test('codes are trimmed and displayed from the codebook', () => {
    assert.deepEqual(variableCoding('NCH_CLM_TYPE_CD', ' 60 '), {
      system: 'https://bluebutton.cms.gov/resources/variables/nch_clm_type_cd',
      code: '60',
      display: 'Inpatient claim',
    });
  });

  test('orderKeys keeps unlisted keys after the listed ones, in their order', () => {
    assert.deepEqual(Object.keys(orderKeys({ z: 1, b: 2, a: 3, y: 4 }, ['a', 'b'])), ['a', 'b', 'z', 'y']);
  });
});
