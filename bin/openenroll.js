#!/usr/bin/env node
// The CLI runs the compiled JavaScript of dist/ (`npm ci` builds it; `npm run build` again) when that build
// is at least as new as every file under src/; otherwise — no build yet, or sources edited since — it runs
// the TypeScript sources through tsx, so a checkout being worked on never runs code older than itself.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../src/', import.meta.url));
const stamp = new URL('../dist/build.json', import.meta.url);

/** When the build in dist/ began (ms), or undefined when there is none. */
function builtAt() {
  try {
    return JSON.parse(readFileSync(stamp, 'utf8')).startedAt;
  } catch {
    return undefined;
  }
}

/** The latest change under src/ (ms): a file edited, added or removed; 0 when there are no sources. */
function sourcesChangedAt() {
  const root = statSync(src, { throwIfNoEntry: false });
  if (!root) return 0; // a deployment may ship dist/ alone
  let latest = root.mtimeMs;
  for (const name of readdirSync(src, { recursive: true })) {
    // A file gone between the listing and its stat is a change in progress: run the sources.
    const entry = statSync(join(src, name), { throwIfNoEntry: false });
    latest = Math.max(latest, entry ? entry.mtimeMs : Infinity);
  }
  return latest;
}

const built = builtAt();
if (typeof built === 'number' && sourcesChangedAt() < built) {
  await import('../dist/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
