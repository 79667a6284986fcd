import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Random } from '../../shared/random.js';

/** How many generated procedures the sample price lookup offers. */
const PROCEDURES = 40;

/** Which procedures a sample code stands for: kinds of service, never a real code or descriptor. */
const KINDS = ['imaging study', 'skin procedure', 'endoscopy', 'eye procedure', 'joint procedure', 'biopsy'];

interface SampleProcedure {
  /** `Z` and four digits: no HCPCS Level II or CPT code looks so. */
  code: string;
  description: string;
  frequency: number;
  /** OPPS payment rate and status indicator, cents. */
  hopdCents: number;
  /** ASC payment rate, cents; null when the procedure is not on the ASC list. */
  ascCents: number | null;
}

/** The generated procedures of the sample price lookup (the same for a seed). */
function sampleProcedures(seed: number): SampleProcedure[] {
  const random = new Random(seed, 'price-lookup');
  return Array.from({ length: PROCEDURES }, (_, i) => {
    const hopdCents = random.int(40, 6000) * 100 + random.int(0, 99);
    return {
      code: `Z${String(9001 + i)}`,
      description: `Sample ${KINDS[i % KINDS.length]} ${String(i + 1).padStart(2, '0')} (generated; not a real code)`,
      frequency: random.int(100, 500_000),
      hopdCents,
      ascCents: i % 4 === 3 ? null : Math.round(hopdCents * random.between(0.45, 0.7)),
    };
  });
}

const money = (cents: number) => `"$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}"`;
/** 20 % of a payment rate, rounded up to the cent (as the OPPS addenda print the minimum copayment). */
const minimum = (cents: number) => Math.ceil(cents / 5);

export interface SamplePriceFile {
  kind: string;
  path: string;
  rows: number;
}

/**
 * Writes the sample price lookup's files in the published layouts (OPPS Addendum B and ASC Addendum AA
 * with their title lines, and the operator's procedure list), every row generated and saying so.
 */
export async function writeSamplePrices(dir: string, year: number, seed: number): Promise<SamplePriceFile[]> {
  const procedures = sampleProcedures(seed);
  const oppsPath = join(dir, `${year}_sample_web_addendum_b.csv`);
  const opps = [
    `Addendum B.-OPPS Payment by HCPCS Code for CY ${year} (GENERATED SAMPLE: not CMS data),,,,,,,`,
    'HCPCS Code,Short Descriptor,SI,APC,Relative Weight,Payment Rate,National Unadjusted Copayment,Minimum Unadjusted Copayment',
    ...procedures.map(
      (p) => `${p.code},${p.description},T,,,${money(p.hopdCents)},.,${money(minimum(p.hopdCents))}`,
    ),
  ];
  const asc = procedures.filter((p) => p.ascCents !== null);
  const ascPath = join(dir, `${year}_sample_addendum_aa.csv`);
  const aa = [
    `Addendum AA -- ASC Covered Surgical Procedures for CY ${year} (GENERATED SAMPLE: not CMS data),,,,,,`,
    ',,,,,,',
    `HCPCS Code,,Short Descriptor,Subject to Multiple Procedure Discounting,January ${year} Payment Indicator,January ${year}  Payment Weight  ,January ${year} Payment Rate`,
    ...asc.map((p) => `${p.code},,${p.description},Y,A2,,${money(p.ascCents!)}`),
  ];
  const listPath = join(dir, 'ppl_procedures_sample.csv');
  const list = [
    'code,description,frequency',
    ...procedures.map((p) => `${p.code},${p.description},${p.frequency}`),
  ];
  await writeFile(oppsPath, `${opps.join('\r\n')}\r\n`);
  await writeFile(ascPath, `${aa.join('\r\n')}\r\n`);
  await writeFile(listPath, `${list.join('\r\n')}\r\n`);
  return [
    { kind: 'opps-addendum-b', path: oppsPath, rows: procedures.length },
    { kind: 'asc-addendum-aa', path: ascPath, rows: asc.length },
    { kind: 'ppl-procedures', path: listPath, rows: procedures.length },
  ];
}
