/**
 * What a worker thread may start from in the compiled build (docs/startup.md#worker-threads): the build
 * bundles the service into a few files, so a module started in a thread by its own URL (`startWorker`, a
 * format's `threadModule`) has no file of its own there. This module is a second entry of the bundle, and
 * the build points the `import.meta.url` of each module re-exported here at it: a thread imports this file
 * and finds its function or format by name, as it finds them in the module itself when run through tsx.
 */
export { serveRows } from './ingest/engine/row-thread.js';
export { serveClaimFile } from './ingest/rif/claim-thread.js';
export { nppesFormat } from './ingest/nppes/format.js';
