import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  claimBody,
  claimNameKeys,
  namesOf,
  claimSearchFacts,
  collectNpis,
  npiColumns,
  rowsOf,
  storedNames,
} from '../../../src/fhir/bfd/claim-source.js';
import type { RifClaim, RifClaimType, RifRow } from '../../../src/fhir/bfd/rif-record.js';
import { servedTransforms } from '../../../src/fhir/bfd/transform.js';
import { withoutTaxNumbers } from '../../../src/fhir/bfd/professional.js';
import { eobSearchFacts } from '../../../src/fhir/validate.js';
import { RIF_COLUMNS } from '../../../src/ingest/rif/columns.js';
import { syntheticRifRecords } from '../../../src/ingest/rif/synthetic/generate.js';
import { valueCheck } from '../../../src/ingest/rif/values.js';
import { fixtureLookups, rifClaims, BFD_CLAIM_FILES } from '../../helpers/bfd.js';

// A RIF claim is stored as its rows and made into its resource at its first read: what its searches filter
// on is computed at load from the rows (claimSearchFacts), and must be what the served resource says.

const CREATED = '2026-11-28T10:00:00.000Z';
const context = { lookups: fixtureLookups(), created: CREATED };
const served = (claim: RifClaim) => servedTransforms.claimEob(claim, context);

describe('claimSearchFacts: the facts of the served resource, from the rows', () => {
  for (const [type, file] of BFD_CLAIM_FILES) {
    test(`every claim of BFD's ${file}`, () => {
      const claims = rifClaims(type, file);
      assert.ok(claims.length > 0);
      for (const claim of claims) assert.deepEqual(claimSearchFacts(claim), eobSearchFacts(served(claim)));
    });
  }

  test('every claim of 40 synthetic sandbox beneficiaries', () => {
    let count = 0;
    for (const record of syntheticRifRecords(40, 7)) {
      if (record.type === 'beneficiary' || record.type === 'beneficiary-history') continue;
      const claim: RifClaim = { type: record.type, rows: record.rows };
      assert.deepEqual(
        claimSearchFacts(claim),
        eobSearchFacts(served(claim)),
        JSON.stringify(record.rows[0]),
      );
      count += 1;
    }
    assert.ok(count > 200, `${count} claims`);
  });

  /** The sample claim of `type` with `column` of every row set to `value`. */
  const changed = (type: RifClaimType, file: string, column: string, value: string): RifClaim => {
    const [claim] = rifClaims(type, file);
    return { type, rows: claim!.rows.map((row) => ({ ...row, [column]: value })) };
  };

  // Every column of each sample claim left empty, then set to a code BFD's SAMHSA rule withholds and to one
  // it cannot judge: a claim the load accepts (its value checks, then claimSearchFacts) is one the transform
  // makes, with the same facts; one it refuses is one the transform refuses too.
  for (const [type, file] of BFD_CLAIM_FILES.filter(([, f]) => !f.startsWith('samhsa/'))) {
    test(`${file}: each column changed`, () => {
      const specs = RIF_COLUMNS[type];
      const columns = Object.keys(rifClaims(type, file)[0]!.rows[0]!);
      const positions = new Map(columns.map((c, i) => [c, i]));
      const check = valueCheck(specs, positions);
      let accepted = 0;
      for (const column of columns) {
        for (const value of ['', 'F1010', '0', 'H0005', 'XX']) {
          const claim = changed(type, file, column, value);
          if (claim.rows.some((row) => check(columns.map((c) => row[c] ?? '')) !== undefined)) continue;
          let facts;
          try {
            facts = claimSearchFacts(claim);
          } catch {
            assert.throws(
              () => served(claim),
              `${column}=${value}: refused at load, refused by the transform`,
            );
            continue;
          }
          assert.deepEqual(facts, eobSearchFacts(served(claim)), `${column}=${value}`);
          accepted += 1;
        }
      }
      assert.ok(accepted > columns.length, `${accepted} changed claims accepted`);
    });
  }
});

describe('claimNameKeys, namesOf and claimBody: the resource made at the first read is the one the load would make', () => {
  const body = (claim: RifClaim, taxNumbers = false, lookups = fixtureLookups()) => {
    const npis = new Set<string>();
    collectNpis(claim.rows, npiColumns(Object.keys(claim.rows[0]!)), npis);
    const columns = [...new Set(claim.rows.flatMap((row) => Object.keys(row)))];
    const cells = claim.rows.map((row: RifRow) => columns.map((c) => row[c] ?? ''));
    const made = claimBody(
      {
        id: String(served(claim).id),
        patientId: claim.rows[0]!.BENE_ID!,
        eobType: claim.type,
        lastUpdated: Date.parse(CREATED),
        source: {
          meta: { versionId: '3' },
          layout: 'x',
          rows: cells,
          names: namesOf({ ...claimNameKeys(claim, []), npis: [...npis] }, lookups),
        },
      },
      columns,
      taxNumbers,
    );
    return JSON.parse(made) as Record<string, unknown> & { meta: Record<string, unknown> };
  };

  for (const [type, file] of BFD_CLAIM_FILES.filter(([, f]) => !f.startsWith('samhsa/'))) {
    test(`${file}: with the names kept at load, the served transform's resource, versioned`, () => {
      for (const claim of rifClaims(type, file)) {
        const columns = Object.keys(claim.rows[0]!);
        const cells = claim.rows.map((row) => columns.map((c) => row[c]!));
        assert.deepEqual(rowsOf(columns, cells), claim.rows, 'the rows read back from the stored cells');
        const expected = served(claim);
        const versioned = {
          ...expected,
          meta: { ...(expected.meta as object), versionId: '3', lastUpdated: CREATED },
        };
        assert.deepEqual(body(claim, true), versioned, 'with tax numbers (IncludeTaxNumbers: true)');
        assert.deepEqual(body(claim), withoutTaxNumbers(versioned), 'the stored body: without them');
      }
    });
  }

  test('the names kept are those the lookups found, and only those', () => {
    const [claim] = rifClaims('pde', 'sample-a-pde.txt');
    const npis = new Set<string>(['0000000000']);
    collectNpis(claim!.rows, npiColumns(Object.keys(claim!.rows[0]!)), npis);
    const lookups = fixtureLookups();
    const names = namesOf({ ...claimNameKeys(claim!, []), npis: [...npis] }, lookups);
    const found = [...npis].filter((n) => lookups.npi(n) !== undefined);
    assert.ok(found.length > 0);
    assert.deepEqual(Object.keys(names.npi ?? {}).sort(), found.sort());
    const kept = storedNames(names);
    for (const npi of found) assert.deepEqual(kept.npi(npi), lookups.npi(npi));
    assert.equal(kept.npi('1111111112'), undefined, 'an NPI the claim does not name');
  });

  test("a synthetic beneficiary's claim carries the synthetic tag", () => {
    const record = [...syntheticRifRecords(1, 7)].find((r) => r.type === 'carrier')!;
    const made = body({ type: 'carrier', rows: record.rows });
    assert.ok(
      (made.meta.tag as { code: string }[]).some((t) => t.code === 'synthetic'),
      'a negative BENE_ID is synthetic',
    );
  });
});
