/**
 * BFD-shaped resources made CARIN Blue Button 2.0.0 valid (src/fhir/bfd/carin-conformance.ts,
 * docs/claims-rif.md#carin):
 * - every Patient, Coverage and ExplanationOfBenefit built from BFD's sample RIF files (every claim of the
 *   SAMHSA samples too), conformed and given the `meta.lastUpdated` our store sets, validates against R4
 *   and the C4BB profile it claims with no error (Medplum with the CARIN package, test/helpers);
 * - against each of BFD's published answers, the conformed resource differs by exactly the documented rules,
 *   listed below answer by answer, so a new difference fails and names itself;
 * - what the samples do not exercise (absent dates, other participation and pricing codes), purity and
 *   idempotence, the SAMHSA filter and the tax-number filter unchanged by conformance;
 * - what the CARIN NDJSON import's profile checks (src/fhir/profile-checks.ts) object to in the conformed
 *   resources.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SYSTEMS } from '../../../src/fhir/bfd/carin.js';
import { conformToCarin } from '../../../src/fhir/bfd/carin-conformance.js';
import { coverageResource, coverageResources } from '../../../src/fhir/bfd/coverage.js';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import { patientResource } from '../../../src/fhir/bfd/patient.js';
import { withoutTaxNumbers } from '../../../src/fhir/bfd/professional.js';
import type { RifClaim, RifClaimType, TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { isSamhsa } from '../../../src/fhir/bfd/samhsa.js';
import { claimEob } from '../../../src/fhir/bfd/transform.js';
import { checkClaimedProfiles } from '../../../src/fhir/profile-checks.js';
import {
  bfdResponse,
  fhirDifferences,
  fixtureLookups,
  rifClaims,
  rifRows,
  BFD_CLAIM_FILES,
} from '../../helpers/bfd.js';
import { carinValidator, skipWithoutCarinPackage } from '../../helpers/carin-validator.js';

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-02T03:04:05.000Z' };
const LAST_UPDATED = '2024-01-02T03:04:05.000Z';
const skip = skipWithoutCarinPackage();

function beneficiary() {
  const row = rifRows('sample-a-beneficiaries.txt')[0]!;
  return {
    row,
    history: rifRows('sample-a-beneficiaryhistory.txt').filter((h) => h.BENE_ID === row.BENE_ID),
  };
}

/** The one claim of a sample file, or a copy with some columns changed on every row. */
function sample(type: RifClaimType, file: string, columns: Record<string, string> = {}): RifClaim {
  const claims = rifClaims(type, file);
  assert.equal(claims.length, 1, file);
  return { type, rows: claims[0]!.rows.map((row) => ({ ...row, ...columns })) };
}

/** Conformed, with the `meta.lastUpdated` the store sets (CARIN requires it). */
function served(resource: Json): Json {
  const conformed = conformToCarin(resource);
  return { ...conformed, meta: { ...(conformed.meta as Json), lastUpdated: LAST_UPDATED } };
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const codes = (concept: unknown): string[] =>
  list(isObject(concept) ? concept.coding : undefined).map((c) => `${String(c.system)}#${String(c.code)}`);

const C4BB_ADJUDICATION = new Set(
  [
    'http://terminology.hl7.org/CodeSystem/adjudication#submitted',
    'http://terminology.hl7.org/CodeSystem/adjudication#copay',
    'http://terminology.hl7.org/CodeSystem/adjudication#eligible',
    'http://terminology.hl7.org/CodeSystem/adjudication#deductible',
    'http://terminology.hl7.org/CodeSystem/adjudication#benefit',
  ].concat(
    [
      'coinsurance',
      'noncovered',
      'priorpayerpaid',
      'paidbypatient',
      'paidbypatientcash',
      'paidbypatientother',
      'paidtopatient',
      'paidtoprovider',
      'memberliability',
      'discount',
      'drugcost',
    ].map((c) => `http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBAdjudication#${c}`),
  ),
);

/**
 * The C4BB invariants on nested elements that Medplum does not evaluate (it walks nested elements with their
 * base type): EOB-careteam-qualification (an outpatient `rendering` member has a NUCC qualification) and
 * adjudication-has-amount-type-slice (an institutional line with adjudications has an amount among them).
 */
function nestedInvariantErrors(eob: Json): string[] {
  const profile = String(list((eob.meta as Json).profile)[0]);
  const errors: string[] = [];
  if (profile.includes('Outpatient-Institutional')) {
    list(eob.careTeam).forEach((m, i) => {
      if (
        codes(m.role).some((c) => c.endsWith('#rendering')) &&
        !codes(m.qualification).some((c) => c.startsWith('http://nucc.org/provider-taxonomy#'))
      )
        errors.push(`careTeam[${i}]: EOB-careteam-qualification`);
    });
  }
  if (profile.includes('-Institutional')) {
    list(eob.item).forEach((item, i) => {
      const adjudication = list(item.adjudication);
      if (
        adjudication.length > 0 &&
        !adjudication.some((a) => codes(a.category).some((c) => C4BB_ADJUDICATION.has(c)))
      )
        errors.push(`item[${i}]: adjudication-has-amount-type-slice`);
    });
  }
  return errors;
}

function validationErrors(resources: Json[]): string[] {
  const validator = carinValidator();
  return resources.flatMap((resource) => {
    const r = served(resource);
    const errors = validator.errors(r);
    if (r.resourceType === 'ExplanationOfBenefit') errors.push(...nestedInvariantErrors(r));
    return errors.map((e) => `${String(r.id)}: ${e}`);
  });
}

describe(
  'conformToCarin: every resource built from BFD’s samples validates against CARIN BB 2.0.0',
  { skip },
  () => {
    test('the sample beneficiary’s Patient and its four Coverages', () => {
      const bene = beneficiary();
      assert.deepEqual(
        validationErrors([patientResource(bene, context), ...coverageResources(bene, context)]),
        [],
      );
    });

    // BFD's SAMHSA files hold some 600 claims each, one per listed code, alike but for that code: every
    // 12th of them is validated (Medplum takes about 0.1 s a claim), the codes themselves by the SAMHSA tests.
    for (const [type, file] of BFD_CLAIM_FILES) {
      const stride = file.startsWith('samhsa/') ? 12 : 1;
      test(`${stride === 1 ? 'every' : `every ${stride}th`} claim of ${file}`, () => {
        const claims = rifClaims(type, file).filter((_, i) => i % stride === 0);
        assert.ok(claims.length > 0);
        assert.deepEqual(validationErrors(claims.map((c) => claimEob(c, context))), []);
      });
    }

    test('claims the samples do not exercise: absent dates, other participation and pricing codes', () => {
      const eobs = [
        sample('carrier', 'sample-a-bcarrier.txt', {
          LINE_1ST_EXPNS_DT: '',
          LINE_LAST_EXPNS_DT: '',
          PRTCPTNG_IND_CD: '4',
        }),
        sample('dme', 'sample-a-dme.txt', { PRTCPTNG_IND_CD: '' }),
        sample('outpatient', 'sample-a-outpatient.txt', { REV_CNTR_DT: '' }),
        sample('hha', 'sample-a-hha.txt', { CLM_ADMSN_DT: '' }),
        sample('pde', 'sample-a-pde.txt', { PRCNG_EXCPTN_CD: 'O' }),
      ].map((claim) => claimEob(claim, context));
      const pde = claimEob(sample('pde', 'sample-a-pde.txt', { PRCNG_EXCPTN_CD: '' }), context);
      pde.supportingInfo = list(pde.supportingInfo).filter(
        (i) => !JSON.stringify(i).includes('daw_prod_slctn_cd'),
      );
      assert.deepEqual(validationErrors([...eobs, pde]), []);
    });
  },
);

// ---- The differences from BFD's answers, rule by rule ---------------------------------------------------

const C4BB = 'http://hl7.org/fhir/us/carin-bb';
const profileUrl = (name: string) => `${C4BB}/StructureDefinition/${name}`;
const PROFESSIONAL = profileUrl('C4BB-ExplanationOfBenefit-Professional-NonClinician');
const INPATIENT = profileUrl('C4BB-ExplanationOfBenefit-Inpatient-Institutional');
const OUTPATIENT = profileUrl('C4BB-ExplanationOfBenefit-Outpatient-Institutional');
const PHARMACY = profileUrl('C4BB-ExplanationOfBenefit-Pharmacy');
const ORGANIZATION = profileUrl('C4BB-Organization');
const json = (value: unknown) => JSON.stringify(value);
const coding = (system: string, code: string, display: string) => ({ system, code, display });
const statusEntry = (status: 'innetwork' | 'other', display: string) => ({
  category: {
    coding: [
      coding(
        `${C4BB}/CodeSystem/C4BBAdjudicationDiscriminator`,
        'benefitpaymentstatus',
        'Benefit Payment Status',
      ),
    ],
  },
  reason: { coding: [coding(`${C4BB}/CodeSystem/C4BBPayerAdjudicationStatus`, status, display)] },
});

/** The lines `fhirDifferences` reports for each documented rule (docs/claims-rif.md#carin). */
const rule = {
  /** Profile canonicals carry `|2.0.0`. */
  versioned: (path: string, url: string) => `${path}: expected ${json(url)} got ${json(`${url}|2.0.0`)}`,
  /** DME and HHA claim the profile of their content. */
  profile: (from: string, to: string) => `meta.profile[0]: expected ${json(from)} got ${json(`${to}|2.0.0`)}`,
  claimType: (from: string, to: string) => [
    `type.coding[2].code: expected ${json(from.toLowerCase())} got ${json(to.toLowerCase())}`,
    `type.coding[2].display: expected ${json(from)} got ${json(to)}`,
  ],
  /** Only the claim's own number is typed `uc`. */
  notUniqueClaimId: (path: string) =>
    `${path}.type: expected ${json({ coding: [coding(`${C4BB}/CodeSystem/C4BBIdentifierType`, 'uc', 'Unique Claim ID')] })} got undefined`,
  /** `performing` is CARIN 2.0.0's `rendering`. */
  rendering: (member: number) => [
    `careTeam[${member}].role.coding[0].code: expected "performing" got "rendering"`,
    `careTeam[${member}].role.coding[0].display: expected "Performing provider" got "Rendering provider"`,
  ],
  /** Diagnosis types outside the profile's ValueSet. */
  diagnosisType: (index: number, from: string, to: string) => [
    `diagnosis[${index}].type[0].coding[0].code: expected ${json(from.toLowerCase())} got ${json(to.toLowerCase())}`,
    `diagnosis[${index}].type[0].coding[0].display: expected ${json(from)} got ${json(to)}`,
  ],
  /** Professional lines: benefit payment status from the participating indicator. */
  lineStatus: (item: number, adjudication: number) =>
    `item[${item}].adjudication[${adjudication}]: expected undefined got ${json(statusEntry('innetwork', 'In Network'))}`,
  /** Institutional and pharmacy headers: benefit payment status. */
  headerStatus: () => `adjudication: expected undefined got ${json([statusEntry('other', 'Other')])}`,
  /** Inpatient procedures: principal, then other. */
  procedureType: (index: number) =>
    `procedure[${index}].type: expected undefined got ${json([
      {
        coding: [
          index === 0
            ? coding(`${C4BB}/CodeSystem/C4BBClaimProcedureType`, 'principal', 'Principal')
            : coding(`${C4BB}/CodeSystem/C4BBClaimProcedureType`, 'other', 'Other'),
        ],
      },
    ])}`,
};

const carrierDifferences = (items: number) => [
  rule.versioned('meta.profile[0]', PROFESSIONAL),
  rule.notUniqueClaimId('identifier[1]'),
  ...rule.rendering(2),
  ...Array.from({ length: items }, (_, i) => rule.lineStatus(i, 9)),
];
const dmeDifferences = [
  rule.profile(INPATIENT, PROFESSIONAL),
  rule.notUniqueClaimId('identifier[1]'),
  ...rule.claimType('Institutional', 'Professional'),
  ...rule.rendering(1),
  ...rule.diagnosisType(1, 'Other', 'Secondary'),
  rule.lineStatus(0, 13),
];
const institutional = (url: string) => [
  rule.versioned('meta.profile[0]', url),
  rule.versioned('contained[0].meta.profile[0]', ORGANIZATION),
  rule.notUniqueClaimId('identifier[1]'),
];

/** Each published answer: how we build it, and the differences the documented rules make. */
const ANSWERS: readonly { answer: string; ours: () => Json; differences: string[] }[] = [
  {
    answer: 'eobReadCarrierWithTaxNumbers.json',
    ours: () => claimEob(sample('carrier', 'sample-a-bcarrier.txt'), context),
    differences: carrierDifferences(1),
  },
  {
    answer: 'eobReadCarrier.json',
    ours: () => withoutTaxNumbers(claimEob(sample('carrier', 'sample-a-bcarrier.txt'), context)),
    differences: carrierDifferences(1),
  },
  {
    answer: 'eobReadCarrierWithMultipleLines.json',
    ours: () =>
      withoutTaxNumbers(claimEob(sample('carrier', 'sample-a-bcarrier-multiple-lines.txt'), context)),
    differences: carrierDifferences(7),
  },
  {
    answer: 'eobReadDmeWithTaxNumbers.json',
    ours: () => claimEob(sample('dme', 'sample-a-dme.txt'), context),
    differences: dmeDifferences,
  },
  {
    answer: 'eobReadDme.json',
    ours: () => withoutTaxNumbers(claimEob(sample('dme', 'sample-a-dme.txt'), context)),
    differences: dmeDifferences,
  },
  {
    answer: 'eobReadHha.json',
    ours: () => claimEob(sample('hha', 'sample-a-hha.txt'), context),
    differences: [
      rule.profile(PROFESSIONAL, INPATIENT),
      rule.versioned('contained[0].meta.profile[0]', ORGANIZATION),
      rule.notUniqueClaimId('identifier[1]'),
      ...rule.claimType('Professional', 'Institutional'),
      ...rule.rendering(1),
      ...rule.diagnosisType(1, 'Secondary', 'Other'),
      ...rule.diagnosisType(2, 'Secondary', 'Other'),
      ...rule.diagnosisType(3, 'Secondary', 'Other'),
      rule.headerStatus(),
    ],
  },
  {
    answer: 'eobReadHospice.json',
    ours: () => claimEob(sample('hospice', 'sample-a-hospice.txt'), context),
    differences: [
      ...institutional(INPATIENT),
      ...rule.rendering(1),
      ...rule.rendering(2),
      rule.headerStatus(),
    ],
  },
  {
    answer: 'eobReadInpatient.json',
    ours: () => claimEob(sample('inpatient', 'sample-a-inpatient.txt'), context),
    differences: [
      ...institutional(INPATIENT),
      ...rule.rendering(3),
      ...[0, 1, 2, 3, 4, 5].map(rule.procedureType),
      rule.headerStatus(),
    ],
  },
  {
    answer: 'eobReadOutpatient.json',
    ours: () => claimEob(sample('outpatient', 'sample-a-outpatient.txt'), context),
    differences: [...institutional(OUTPATIENT), ...rule.rendering(3), rule.headerStatus()],
  },
  {
    answer: 'eobReadSnf.json',
    ours: () => claimEob(sample('snf', 'sample-a-snf.txt'), context),
    differences: [
      ...institutional(INPATIENT),
      ...rule.rendering(3),
      rule.procedureType(0),
      rule.headerStatus(),
    ],
  },
  {
    answer: 'eobReadPde.json',
    ours: () => claimEob(sample('pde', 'sample-a-pde.txt'), context),
    differences: [
      rule.versioned('meta.profile[0]', PHARMACY),
      rule.notUniqueClaimId('identifier[1]'),
      rule.notUniqueClaimId('identifier[2]'),
      // The DAW code's generic `info` entry becomes CARIN's dawcode slice, with the NCPDP coding.
      `supportingInfo[4].category.coding[0].system: expected "http://terminology.hl7.org/CodeSystem/claiminformationcategory" got "${C4BB}/CodeSystem/C4BBSupportingInfoType"`,
      'supportingInfo[4].category.coding[0].code: expected "info" got "dawcode"',
      'supportingInfo[4].category.coding[0].display: expected "Information" got "DAW (Dispense As Written) Code"',
      `supportingInfo[4].code.coding[1]: expected undefined got ${json({ system: 'http://terminology.hl7.org/CodeSystem/NCPDPDispensedAsWrittenOrProductSelectionCode', code: '0' })}`,
      // Refills authorized: not in the Part D event, so absent.
      `supportingInfo[14]: expected undefined got ${json({
        sequence: 15,
        category: {
          coding: [
            coding(`${C4BB}/CodeSystem/C4BBSupportingInfoType`, 'refillsauthorized', 'Refills Authorized'),
          ],
        },
        valueQuantity: { extension: [{ url: SYSTEMS.dataAbsentReason, valueCode: 'unknown' }] },
      })}`,
      // PRCNG_EXCPTN_CD `M` (Medicare secondary) says nothing of the pharmacy's network.
      rule.headerStatus(),
    ],
  },
];

/** The Patient with its identifiers in the order BFD's answer comparison puts them (patient.test.ts). */
function sortedIdentifiers(patient: Json): Json {
  const key = (i: Json): string => `${String(i.system)}\u0000${String(i.value)}`;
  const identifier = [...list(patient.identifier)].sort((a, b) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0,
  );
  return { ...patient, identifier };
}

describe('conformToCarin against BFD’s published answers: exactly the documented differences', () => {
  test('patientRead.json: the versioned profile', () => {
    const ours = sortedIdentifiers(conformToCarin(patientResource(beneficiary(), context)));
    assert.deepEqual(fhirDifferences(bfdResponse('patientRead.json'), ours), [
      rule.versioned('meta.profile[0]', profileUrl('C4BB-Patient')),
    ]);
  });

  test('coverageRead.json: the versioned profile (and the member identifier coverage.ts adds)', () => {
    const ours = conformToCarin(coverageResource({ row: beneficiary().row, history: [] }, 'A', context));
    assert.deepEqual(fhirDifferences(bfdResponse('coverageRead.json'), ours), [
      rule.versioned('meta.profile[0]', profileUrl('C4BB-Coverage')),
      // docs/claims-rif.md#coverage-member-id, not a conformance rule.
      `identifier: expected undefined got ${json([
        {
          type: { coding: [coding('http://terminology.hl7.org/CodeSystem/v2-0203', 'MB', 'Member Number')] },
          system: 'http://hl7.org/fhir/sid/us-mbi',
          value: '3456789',
        },
      ])}`,
    ]);
  });

  for (const { answer, ours, differences } of ANSWERS) {
    test(answer, () => {
      const built = ours();
      assert.deepEqual(fhirDifferences(bfdResponse(answer), built), [], 'the transform is BFD’s answer');
      assert.deepEqual(fhirDifferences(bfdResponse(answer), conformToCarin(built)), differences);
    });
  }
});

// ---- What the samples do not exercise -------------------------------------------------------------------

const adjudicationStatus = (adjudication: unknown): string[] =>
  list(adjudication)
    .filter((a) => codes(a.category).some((c) => c.endsWith('#benefitpaymentstatus')))
    .flatMap((a) => codes(a.reason).map((c) => c.replace(/^.*#/, '')));

describe('conformToCarin: the rules on claims the samples do not exercise', () => {
  test('a professional line’s status follows its provider’s participation: 3–6 out of network, none other', () => {
    for (const [indicator, status] of [
      ['1', 'innetwork'],
      ['2', 'innetwork'],
      ['7', 'innetwork'],
      ['3', 'outofnetwork'],
      ['6', 'outofnetwork'],
      ['', 'other'],
    ] as const) {
      const eob = conformToCarin(
        claimEob(sample('dme', 'sample-a-dme.txt', { PRTCPTNG_IND_CD: indicator }), context),
      );
      assert.deepEqual(adjudicationStatus(list(eob.item)[0]!.adjudication), [status], indicator);
    }
  });

  test('a Part D event’s status follows its pricing exception code: blank in network, O out, M other', () => {
    for (const [code, status] of [
      ['', 'innetwork'],
      ['O', 'outofnetwork'],
      ['M', 'other'],
    ] as const) {
      const eob = conformToCarin(
        claimEob(sample('pde', 'sample-a-pde.txt', { PRCNG_EXCPTN_CD: code }), context),
      );
      assert.deepEqual(adjudicationStatus(eob.adjudication), [status], code);
    }
  });

  test('a professional line without expense dates is dated by the claim’s period', () => {
    const eob = conformToCarin(
      claimEob(
        sample('carrier', 'sample-a-bcarrier.txt', { LINE_1ST_EXPNS_DT: '', LINE_LAST_EXPNS_DT: '' }),
        context,
      ),
    );
    assert.deepEqual(list(eob.item)[0]!.servicedPeriod, eob.billablePeriod);
  });

  test('an outpatient line without a revenue-centre date is dated by the claim’s from date', () => {
    const eob = conformToCarin(
      claimEob(sample('outpatient', 'sample-a-outpatient.txt', { REV_CNTR_DT: '' }), context),
    );
    for (const item of list(eob.item)) assert.equal(item.servicedDate, (eob.billablePeriod as Json).start);
  });

  test('an inpatient-profiled claim without admission dates gets the claim’s period as admission period', () => {
    const eob = conformToCarin(claimEob(sample('hha', 'sample-a-hha.txt', { CLM_ADMSN_DT: '' }), context));
    const periods = list(eob.supportingInfo).filter((i) =>
      codes(i.category).some((c) => c.endsWith('#admissionperiod')),
    );
    assert.deepEqual(
      periods.map((p) => p.timingPeriod),
      [eob.billablePeriod],
    );
  });

  test('a Part D event without its DAW entry gets the dawcode slice with an absent code', () => {
    const pde = claimEob(sample('pde', 'sample-a-pde.txt'), context);
    pde.supportingInfo = list(pde.supportingInfo).filter(
      (i) => !JSON.stringify(i).includes('daw_prod_slctn_cd'),
    );
    const daw = list(conformToCarin(pde).supportingInfo).filter((i) =>
      codes(i.category).some((c) => c.endsWith('#dawcode')),
    );
    assert.deepEqual(
      daw.map((d) => d.code),
      [{ extension: [{ url: SYSTEMS.dataAbsentReason, valueCode: 'unknown' }] }],
    );
  });
});

describe('conformToCarin: pure, idempotent, and leaves the SAMHSA and tax-number filters as they were', () => {
  const all = () =>
    BFD_CLAIM_FILES.flatMap(([type, file]) => rifClaims(type, file).map((c) => claimEob(c, context)));

  test('the input is not changed, and conforming twice is conforming once', () => {
    const bene = beneficiary();
    for (const resource of [patientResource(bene, context), ...coverageResources(bene, context), ...all()]) {
      const before = structuredClone(resource);
      const once = conformToCarin(resource);
      assert.deepEqual(resource, before, String(resource.id));
      assert.deepEqual(conformToCarin(once), once, String(resource.id));
    }
  });

  test('every sample claim is withheld with excludeSAMHSA=true exactly when it was before', () => {
    const changed = all().filter((eob) => isSamhsa(eob) !== isSamhsa(conformToCarin(eob)));
    assert.deepEqual(
      changed.map((eob) => eob.id),
      [],
    );
  });

  test('leaving tax numbers out of a conformed claim is conforming the claim without them', () => {
    for (const eob of all().filter((e) => /^(carrier|dme)-/.test(String(e.id)))) {
      assert.deepEqual(
        withoutTaxNumbers(conformToCarin(eob)),
        conformToCarin(withoutTaxNumbers(eob)),
        String(eob.id),
      );
    }
  });
});

// ---- The import's profile checks ----------------------------------------------------------------------

/** Sets the value at a path like `careTeam[2].provider` (the path a profile-check message names). */
function setAt(target: Json, path: string, value: unknown): void {
  const steps = path.split('.').flatMap((s) => s.split(/\[(\d+)\]/).filter((p) => p !== ''));
  let node: Json = target;
  for (const step of steps.slice(0, -1)) node = node[step] as Json;
  node[steps.at(-1)!] = value;
}

/**
 * Every objection `checkClaimedProfiles` raises, in order: it stops at the first, so each reference it
 * refuses is replaced by a literal one (and an absent quantity by a number) and it runs again.
 */
function importObjections(resource: Json): string[] {
  const copy = structuredClone(resource);
  const found: string[] = [];
  for (;;) {
    try {
      checkClaimedProfiles(copy);
      return found;
    } catch (error) {
      const message = (error as Error).message;
      found.push(message);
      const reference = /^(\S+)\.reference must be "(\w+)\//.exec(message);
      const quantity = /^(\S+)\.valueQuantity\.value must be a number/.exec(message);
      if (reference) setAt(copy, reference[1]!, { reference: `${reference[2]}/x` });
      else if (quantity) setAt(copy, `${quantity[1]}.valueQuantity`, { value: 0 });
      else return found;
    }
  }
}

describe('the CARIN import’s profile checks (checkClaimedProfiles) on the conformed resources', () => {
  const reference = (path: string, types = ['Organization']) =>
    `${path}.reference must be ${types.map((t) => `"${t}/<id>"`).join(' or ')}`;
  const member = (i: number) => reference(`careTeam[${i}].provider`, ['Organization', 'Practitioner']);

  test('they refuse only BFD’s references by identifier or to a contained resource, and the absent refills quantity', () => {
    const bene = beneficiary();
    const objections = (resource: Json) => importObjections(conformToCarin(resource));
    assert.deepEqual(objections(patientResource(bene, context)), []);
    for (const coverage of coverageResources(bene, context))
      assert.deepEqual(objections(coverage), [reference('payor[0]')], String(coverage.id));
    const eob = (type: RifClaimType, file: string) => objections(claimEob(sample(type, file), context));
    const professionalProvider = reference('provider', ['Organization', 'Practitioner']);
    assert.deepEqual(eob('carrier', 'sample-a-bcarrier.txt'), [
      reference('insurer'),
      professionalProvider,
      ...[0, 1, 2, 3].map(member),
    ]);
    assert.deepEqual(eob('dme', 'sample-a-dme.txt'), [
      reference('insurer'),
      professionalProvider,
      member(0),
      member(1),
    ]);
    assert.deepEqual(eob('hha', 'sample-a-hha.txt'), [
      reference('insurer'),
      reference('provider'),
      member(0),
      member(1),
    ]);
    assert.deepEqual(eob('hospice', 'sample-a-hospice.txt'), [
      reference('insurer'),
      reference('provider'),
      ...[0, 1, 2].map(member),
    ]);
    for (const [type, file] of [
      ['inpatient', 'sample-a-inpatient.txt'],
      ['outpatient', 'sample-a-outpatient.txt'],
      ['snf', 'sample-a-snf.txt'],
    ] as const)
      assert.deepEqual(
        eob(type, file),
        [reference('insurer'), reference('provider'), ...[0, 1, 2, 3].map(member)],
        file,
      );
    assert.deepEqual(eob('pde', 'sample-a-pde.txt'), [
      reference('insurer'),
      professionalProvider,
      member(0),
      'supportingInfo[14].valueQuantity.value must be a number (C4BB-ExplanationOfBenefit-Pharmacy)',
    ]);
  });
});
