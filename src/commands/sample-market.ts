import { mkdir } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { writeSampleMarket } from '../plans/sample/files.js';
import { SAMPLE_MARKET_SEED } from '../plans/sample/market.js';
import { wholeNumberOption } from './context.js';

/** `openenroll sample-market`: writes the generated sample market's files, in the public layouts. */
export function registerSampleMarketCommands(program: Command): void {
  program
    .command('sample-market')
    .description(
      'write the generated sample market (three real Texas counties with their ZIPs and rating areas; ' +
        'invented issuers, plans and premiums) as Census, HUD and CMS PUF files, without loading them',
    )
    .requiredOption('--out <dir>', 'directory to write the files into (created if missing)')
    .option('--year <year>', 'plan year of the market (default: the current year)')
    .option('--seed <seed>', `seed of the generator (default: ${SAMPLE_MARKET_SEED}, the sandbox's)`)
    .action(async (opts: { out: string; year?: string; seed?: string }) => {
      const year = wholeNumberOption('--year', opts.year, 2018, 2100) ?? new Date().getUTCFullYear();
      const seed = wholeNumberOption('--seed', opts.seed, 0, 2 ** 32 - 1) ?? SAMPLE_MARKET_SEED;
      const dir = resolve(opts.out);
      await mkdir(dir, { recursive: true });
      const files = await writeSampleMarket(dir, { year, seed });
      for (const file of files) {
        console.log(`${file.kind.padEnd(16)} ${String(file.rows).padStart(5)} rows  ${file.path}`);
      }
      console.log(
        `\nSample data for ${year} (seed ${seed}): the issuers, plans and premiums are invented. A sandbox ` +
          'with SAMPLE_MARKET on loads them by itself, labelled as sample. To load them by hand, in order ' +
          '(--sample keeps the label):',
      );
      for (const file of files) {
        const yearOption = file.kind === 'rating-areas' ? ` --year ${year}` : '';
        const path = relative(process.cwd(), file.path);
        console.log(
          `  openenroll ingest ${file.kind}${yearOption} --sample ${path.startsWith('..') ? file.path : path}`,
        );
      }
    });
}
