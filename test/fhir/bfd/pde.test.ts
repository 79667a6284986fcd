/**
 * Part D events (CCW `pde` RIF records) against BFD's published v2 answer for the same record, and the rules
 * of the event the sample does not exercise.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import { pdeEob, plainDecimal } from '../../../src/fhir/bfd/pde.js';
import type { RifClaim, TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { NO_LOOKUPS } from '../../../src/fhir/bfd/lookups.js';
import { bfdResponse, fhirDifferences, fixtureLookups, rifClaims } from '../../helpers/bfd.js';

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-02T03:04:05.000Z' };

function sample(): RifClaim {
  const claims = rifClaims('pde', 'sample-a-pde.txt');
  assert.equal(claims.length, 1);
  return claims[0]!;
}

/** The sample event with some columns changed. */
function changed(columns: Record<string, string>): RifClaim {
  const claim = sample();
  return { type: 'pde', rows: [{ ...claim.rows[0]!, ...columns }] };
}

function supportingCodes(eob: Json): string[] {
  return (eob.supportingInfo as Json[]).map((s) => {
    const codings = (s.category as Json).coding as Json[];
    return String(codings[codings.length - 1]!.code);
  });
}

describe('Part D event → ExplanationOfBenefit', () => {
  test('the sample event, as BFD answers it', () => {
    assert.deepEqual(fhirDifferences(bfdResponse('eobReadPde.json'), pdeEob(sample(), context)), []);
  });

  test('the event in the all-claims bundle is the same answer', () => {
    const bundle = bfdResponse('eobByPatientIdAll.json');
    const entry = (bundle.entry as Json[]).find((e) => (e.resource as Json).id === 'pde-89');
    assert.ok(entry);
    assert.deepEqual(fhirDifferences(entry.resource, pdeEob(sample(), context)), []);
  });

  test('created is the load time', () => {
    assert.equal(pdeEob(sample(), context).created, context.created);
  });

  test('a drug not covered by Part D: the non-covered amount, still labelled with the covered variable', () => {
    const eob = pdeEob(changed({ DRUG_CVRG_STUS_CD: 'E' }), context);
    const first = ((eob.item as Json[])[0]!.adjudication as Json[])[0]!;
    assert.deepEqual(first, {
      category: {
        coding: [
          {
            system: 'http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBAdjudication',
            code: 'noncovered',
            display: 'Noncovered',
          },
          {
            system: 'https://bluebutton.cms.gov/resources/codesystem/adjudication',
            code: 'https://bluebutton.cms.gov/resources/variables/cvrd_d_plan_pd_amt',
            display: 'Amount paid by Part D plan for the PDE (drug is covered by Part D)',
          },
        ],
      },
      amount: { value: 17.98, currency: 'USD' },
    });
  });

  test('compound codes: 2 is a compound invoice, 0 says nothing, anything else is refused', () => {
    const compounded = pdeEob(changed({ CMPND_CD: '2' }), context);
    assert.deepEqual(((compounded.supportingInfo as Json[])[0]!.code as Json).coding, [
      {
        system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
        code: 'RXCINV',
        display: 'Rx compound invoice',
      },
    ]);
    const unspecified = pdeEob(changed({ CMPND_CD: '0' }), context);
    assert.equal(supportingCodes(unspecified)[0], 'refillnum');
    assert.equal((unspecified.supportingInfo as Json[])[0]!.sequence, 1);
    assert.throws(() => pdeEob(changed({ CMPND_CD: '3' }), context), /CMPND_CD/);
  });

  test('the optional NCPDP codes are left out when empty', () => {
    const eob = pdeEob(
      changed({
        DSPNSNG_STUS_CD: '',
        ADJSTMT_DLTN_CD: '',
        NSTD_FRMT_CD: '',
        PRCNG_EXCPTN_CD: '',
        CTSTRPHC_CVRG_CD: '',
        RX_ORGN_CD: '',
        BRND_GNRC_CD: '',
        SUBMSN_CLR_CD: '',
        PD_DT: '',
      }),
      context,
    );
    assert.deepEqual(supportingCodes(eob), [
      'compoundcode',
      'refillnum',
      'dayssupply',
      'https://bluebutton.cms.gov/resources/variables/drug_cvrg_stus_cd',
      'https://bluebutton.cms.gov/resources/variables/daw_prod_slctn_cd',
      'https://bluebutton.cms.gov/resources/variables/ptnt_rsdnc_cd',
    ]);
    assert.equal(eob.payment, undefined);
  });

  test('the pharmacy by NCPDP number: typed NCPDP, the provider still under the NPI system', () => {
    const eob = pdeEob(changed({ SRVC_PRVDR_ID_QLFYR_CD: '07', SRVC_PRVDR_ID: '1234567' }), context);
    assert.deepEqual((eob.facility as Json).identifier, {
      type: {
        coding: [
          { system: 'https://bluebutton.cms.gov/resources/codesystem/identifier-type', code: 'NCPDP' },
        ],
      },
      value: '1234567',
    });
    assert.equal((eob.facility as Json).display, undefined);
    assert.deepEqual(eob.provider, {
      identifier: { system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567' },
    });
  });

  test('an unknown pharmacy qualifier: no facility identifier, the pharmacy type still on the facility', () => {
    const eob = pdeEob(changed({ SRVC_PRVDR_ID_QLFYR_CD: '99' }), context);
    assert.deepEqual(Object.keys(eob.facility as Json), ['extension']);
    assert.ok(eob.provider);
  });

  test('without reference data: no prescriber name or taxonomy, no drug or pharmacy name', () => {
    const eob = pdeEob(sample(), { ...context, lookups: NO_LOOKUPS });
    const member = (eob.careTeam as Json[])[0]!;
    assert.equal((member.provider as Json).display, undefined);
    assert.equal(member.qualification, undefined);
    assert.equal((eob.facility as Json).display, undefined);
    const coding = ((eob.item as Json[])[0]!.productOrService as Json).coding as Json[];
    assert.deepEqual(coding, [{ system: 'http://hl7.org/fhir/sid/ndc', code: '000000000' }]);
  });

  test('a prescriber not identified by NPI is refused', () => {
    assert.throws(() => pdeEob(changed({ PRSCRBR_ID_QLFYR_CD: '06' }), context), /PRSCRBR_ID_QLFYR_CD/);
  });

  test('ids as BFD writes longs and decimals', () => {
    const eob = pdeEob(changed({ PDE_ID: '0089', CLM_GRP_ID: '', RX_SRVC_RFRNC_NUM: '000799999' }), context);
    assert.equal(eob.id, 'pde-89');
    assert.deepEqual(
      (eob.identifier as Json[]).map((i) => i.value),
      ['89', '0', '799999'],
    );
    assert.equal(plainDecimal('007.50'), '7.50');
    assert.equal(plainDecimal('0'), '0');
  });
});
