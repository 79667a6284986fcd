#!/usr/bin/env node
// Fails when a comment or text in the code cites a document that is not in the repository: our private
// working copy of the specification ("the seed", "research §…", "the decisions file", "the anchor").
// Comments cite docs/decisions.md or the public source instead (CONTRIBUTING.md, "Layout").
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOTS = ['src', 'test', 'bench', 'scripts'];
const PHRASES = [
  /research\s*§/i,
  /\bthe seed\b/i,
  /\bseed\s+00[01]\b/i,
  /\bseeds?\/00[01]/i,
  /\bdecisions file\b/i,
  /\bthe anchor\b/i,
  /\banchor's\b/i,
  /\.\.\/shared\/spec\b/i,
];
const root = join(import.meta.dirname, '..');
const self = relative(root, import.meta.filename);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|mts|js|mjs|sh|md)$/.test(name)) yield path;
  }
}

const found = [];
for (const top of ROOTS) {
  for (const path of files(join(root, top))) {
    const file = relative(root, path);
    if (file === self) continue;
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (PHRASES.some((p) => p.test(line))) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
  }
}
if (found.length > 0) {
  console.error(
    'Citations of documents outside the repository (point to docs/decisions.md or the public source):',
  );
  for (const line of found) console.error(`  ${line}`);
  process.exit(1);
}
