#!/usr/bin/env node
// Fails when a comment or text in the code cites a document that is not in the repository: our private
// working copy of the specification ("the seed", "research §…", "the decisions file", "the anchor").
// Comments cite docs/decisions.md or the public source instead (CONTRIBUTING.md, "Layout"). Also fails when
// a `docs/decisions.md#anchor` cited anywhere (code, README, docs) names no entry of that file.
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

const anchors = new Set(
  [...readFileSync(join(root, 'docs', 'decisions.md'), 'utf8').matchAll(/<a id="([^"]+)"><\/a>/g)].map(
    (m) => m[1],
  ),
);
const CITED = /decisions\.md#([A-Za-z0-9_-]+)/g;
const unknownAnchors = (file, line, i) =>
  [...line.matchAll(CITED)]
    .filter((m) => !anchors.has(m[1]))
    .map((m) => `${file}:${i + 1}: docs/decisions.md#${m[1]} names no entry`);

const found = [];
for (const extra of [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs')).map((n) => `docs/${n}`),
]) {
  if (!extra.endsWith('.md')) continue;
  readFileSync(join(root, extra), 'utf8')
    .split('\n')
    .forEach((line, i) => found.push(...unknownAnchors(extra, line, i)));
}
for (const top of ROOTS) {
  for (const path of files(join(root, top))) {
    const file = relative(root, path);
    if (file === self) continue;
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (PHRASES.some((p) => p.test(line))) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
        found.push(...unknownAnchors(file, line, i));
      });
  }
}
if (found.length > 0) {
  console.error(
    'Citations of documents outside the repository (point to docs/decisions.md or the public source), ' +
      'or of decisions.md entries that do not exist:',
  );
  for (const line of found) console.error(`  ${line}`);
  process.exit(1);
}
