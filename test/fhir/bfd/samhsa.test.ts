import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isSamhsa } from '../../../src/fhir/bfd/samhsa.js';
import { claimEob } from '../../../src/fhir/bfd/transform.js';
import { bfdResponse, fixtureLookups, rifClaims, BFD_CLAIM_FILES } from '../../helpers/bfd.js';

const context = { lookups: fixtureLookups(), created: '2026-11-28T00:00:00Z' };
type Json = Record<string, unknown>;

describe('excludeSAMHSA: which claims are withheld', () => {
  test('none of the sample beneficiary’s eight claims, as BFD served them', () => {
    const bundle = bfdResponse('eobByPatientIdAll.json') as { entry: { resource: Json }[] };
    assert.equal(bundle.entry.length, 8);
    for (const { resource } of bundle.entry) assert.equal(isSamhsa(resource), false, String(resource.id));
  });

  // BFD's SAMHSA sample files hold one claim per filterable code; BFD withholds every one of them.
  const files = BFD_CLAIM_FILES.filter(([, file]) => file.startsWith('samhsa/'));
  for (const [type, file] of files) {
    test(`every claim of BFD's SAMHSA sample ${type} file`, () => {
      const claims = rifClaims(type, file);
      assert.ok(claims.length > 0);
      const kept = claims.map((c) => claimEob(c, context)).filter((eob) => !isSamhsa(eob));
      assert.deepEqual(
        kept.map((eob) => eob.id),
        [],
      );
    });
  }

  const eob = (type: string, more: Json): Json => ({
    type: { coding: [{ system: 'https://bluebutton.cms.gov/resources/codesystem/eob-type', code: type }] },
    ...more,
  });
  const diagnosis = (system: string, code: string) => ({
    diagnosis: [{ diagnosisCodeableConcept: { coding: [{ system, code }] } }],
  });

  test('a listed diagnosis, with or without its dot, in any case; not an unlisted one', () => {
    assert.equal(isSamhsa(eob('CARRIER', diagnosis('http://hl7.org/fhir/sid/icd-10-cm', 'F10.10'))), true);
    assert.equal(isSamhsa(eob('CARRIER', diagnosis('http://hl7.org/fhir/sid/icd-10-cm', 'f1010'))), true);
    assert.equal(isSamhsa(eob('CARRIER', diagnosis('http://hl7.org/fhir/sid/icd-10-cm', 'A02'))), false);
  });

  test('fail safe: a diagnosis in a system that cannot be judged counts', () => {
    assert.equal(isSamhsa(eob('HHA', diagnosis('http://example.org/codes', 'A02'))), true);
  });

  test('a line with a listed HCPCS code, or a code of an unknown system; DRGs and procedures on institutional claims only', () => {
    const line = (system: string, code: string) => ({
      item: [{ productOrService: { coding: [{ system, code }] } }],
    });
    const hcpcs = 'https://bluebutton.cms.gov/resources/codesystem/hcpcs';
    assert.equal(isSamhsa(eob('CARRIER', line(hcpcs, 'H0005'))), true);
    assert.equal(isSamhsa(eob('CARRIER', line(hcpcs, '92999'))), false);
    assert.equal(isSamhsa(eob('DME', line('http://hl7.org/fhir/sid/ndc', '00000000000'))), true);
    // Claims a plan imports as CARIN NDJSON code lines in the published HCPCS and CPT systems.
    assert.equal(isSamhsa(eob('CARRIER', line('http://www.ama-assn.org/go/cpt', '99213'))), false);
    assert.equal(
      isSamhsa(eob('CARRIER', line('https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets', 'H0005'))),
      true,
    );
    assert.equal(
      isSamhsa(
        eob('OUTPATIENT', line('http://terminology.hl7.org/CodeSystem/data-absent-reason', 'not-applicable')),
      ),
      false,
    );
    const drg = {
      supportingInfo: [
        {
          code: {
            coding: [{ system: 'https://bluebutton.cms.gov/resources/variables/clm_drg_cd', code: '896' }],
          },
        },
      ],
    };
    assert.equal(isSamhsa(eob('INPATIENT', drg)), true);
    assert.equal(isSamhsa(eob('CARRIER', drg)), false);
    const procedure = {
      procedure: [
        {
          procedureCodeableConcept: {
            coding: [{ system: 'http://www.cms.gov/Medicare/Coding/ICD10', code: 'HZ2ZZZZ' }],
          },
        },
      ],
    };
    assert.equal(isSamhsa(eob('SNF', procedure)), true);
    assert.equal(isSamhsa(eob('PDE', { ...procedure, ...drg })), false);
  });
});
