import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread that imports `moduleUrl` and calls its export `entry`. The module is the caller's
 * own (`import.meta.url`): compiled JavaScript under dist/ is imported as it is; a TypeScript source (tests,
 * development) needs tsx's loader, which a new thread does not inherit, so the worker registers it first.
 */
export function startWorker(moduleUrl: string, entry: string, options: WorkerOptions = {}): Worker {
  const load = /\.[cm]?ts$/.test(moduleUrl)
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
        .then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl)}); })`
    : `import(${JSON.stringify(moduleUrl)})`;
  return new Worker(`${load}.then((module) => module[${JSON.stringify(entry)}]());`, {
    ...options,
    eval: true,
  });
}
