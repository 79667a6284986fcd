/**
 * A GENERATED issuer MR-PUF (CMS QHP provider and formulary schema) for `ingest mr-puf` speed runs: an
 * index.json, a plans.json of 100 invented plans, a drugs.json over invented RxCUIs and a providers.json of
 * about `--mb` MB of invented providers (sequential NPIs from 1000000000, names of invented syllables).
 * Nothing here is real plan, drug or provider data. The files are written by `writeIssuerFiles`, the
 * generator the coverage benchmark uses.
 *
 *   node --import tsx bench/mr-puf-file.ts <dir> [--mb 100] [--year 2026] [--drugs 2000]
 *   /usr/bin/time -v node bin/openenroll.js ingest mr-puf <dir>/index.json
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeIssuerFiles } from './coverage-files.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    mb: { type: 'string', default: '100' },
    year: { type: 'string', default: '2026' },
    drugs: { type: 'string', default: '2000' },
  },
});
if (positionals.length !== 1) {
  console.error(
    'usage: node --import tsx bench/mr-puf-file.ts <dir> [--mb 100] [--year 2026] [--drugs 2000]',
  );
  process.exit(2);
}
const dir = resolve(positionals[0]!);
// Invented RxCUIs (seven digits from 9000000: beyond today's RxNorm range).
const rxcuis = Array.from({ length: Number(values.drugs) }, (_, i) => String(9_000_000 + i));
function* npis(): Generator<string> {
  for (let n = 1_000_000_000; n < 10_000_000_000; n++) yield String(n);
}
const issuer = await writeIssuerFiles(dir, Number(values.year), rxcuis, npis, Number(values.mb));
const size = (name: string) => `${(statSync(join(dir, name)).size / 1e6).toFixed(1)} MB`;
console.log(
  `GENERATED MR-PUF in ${dir}: index.json, plans.json (${issuer.planIds.length} plans), ` +
    `drugs.json ${size('drugs.json')}, providers.json ${size('providers.json')}`,
);
