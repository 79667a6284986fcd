#!/usr/bin/env node
// Compiles src/ into dist/ (`npm run build`; `npm ci` runs it through `prepare`): tsc emits one ES module
// per source file, every file of src/ that is not TypeScript (page templates, the stylesheet) is copied
// beside its module so `new URL('./…', import.meta.url)` finds it from dist/ as it does from src/, and
// dist/build.json records when the build began, which bin/openenroll.js compares with the sources' times.
// The new tree is written aside and swapped in at the end: a CLI starting meanwhile sees a whole build or
// none (and then runs the sources through tsx).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const next = join(root, `.dist-${process.pid}`);
const old = join(root, `.dist-old-${process.pid}`);

// Taken before tsc reads anything: a source saved during the build is newer than the build, so stale.
const startedAt = Date.now();
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', next], {
    stdio: 'inherit',
  });
  let assets = 0;
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.ts')) continue;
    const from = join(entry.parentPath, entry.name);
    cpSync(from, join(next, relative(src, from)));
    assets += 1;
  }
  writeFileSync(join(next, 'build.json'), `${JSON.stringify({ startedAt })}\n`);
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(next, dist);
  rmSync(old, { recursive: true, force: true });
  console.log(`built dist/ in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (${assets} assets copied)`);
} catch (error) {
  rmSync(next, { recursive: true, force: true });
  console.error(`openenroll build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
