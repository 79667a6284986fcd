// dist/main.js of the compiled build (scripts/build.mjs copies this file there): runs the bundle,
// dist/main.cjs, with the V8 code cache the build made for it, dist/main.cjs.v8cache
// (docs/startup.md#code-cache). Node 20 caches no compiled code between runs by itself (its compile cache
// comes with Node 22), so most of a restart went into compiling the same code again; vm.Script takes a cache
// (`cachedData`) and checks it against the source and the V8 version, and compiles as usual when it does
// not fit. The bundle is run as Node runs a CommonJS module: the same wrapper and arguments.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { constants, Script } from 'node:vm';

const bundle = join(import.meta.dirname, 'main.cjs');
const cache = `${bundle}.v8cache`;

// V8 keeps the file name the cache was made under, and stack traces show it: a cache made in another
// place (a build copied elsewhere) is left unused.
const made = `${cache}.json`;
let cachedData;
if (existsSync(cache) && existsSync(made) && JSON.parse(readFileSync(made, 'utf8')).filename === bundle) {
  cachedData = readFileSync(cache);
}
const script = new Script(Module.wrap(readFileSync(bundle, 'utf8')), {
  filename: bundle,
  cachedData,
  // A dynamic import() left in the bundle (a module named at run time) resolves as in any module.
  importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});

// The build runs the bundle once with OPENENROLL_WRITE_CODE_CACHE=1 (making the sandbox template) and keeps
// what V8 compiled by the end of that run: the start-up path and the functions it called.
if (process.env.OPENENROLL_WRITE_CODE_CACHE === '1') {
  process.once('exit', () => {
    writeFileSync(`${cache}.${process.pid}`, script.createCachedData());
    renameSync(`${cache}.${process.pid}`, cache);
    writeFileSync(made, `${JSON.stringify({ filename: bundle })}\n`);
  });
}

const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
