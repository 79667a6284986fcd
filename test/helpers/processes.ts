import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { redisEnv } from './service.js';

/** The repository root (where bin/openenroll.js lives). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A port nobody listens on right now (the OS picks it; we release it for the child to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('no port'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

export interface ServerProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** stdout and stderr of the process, for failure messages. */
  output: string[];
  exited: Promise<number | null>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Spawns `node bin/openenroll.js serve` (or another entry of the CLI, such as the compiled dist/main.js) on
 * `port` with the given settings added to a clean environment.
 */
export function spawnServer(
  name: string,
  port: number,
  env: Record<string, string>,
  entry = 'bin/openenroll.js',
): ServerProcess {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('NODE_TEST') || k === 'NODE_OPTIONS') continue;
    if (['DATABASE_URL', 'REDIS_URL', 'PUBLIC_URL', 'OPENENROLL_MODE', 'LOG_LEVEL', 'LOG_FORMAT'].includes(k))
      continue;
    base[k] = v;
  }
  const child = spawn(process.execPath, [entry, 'serve'], {
    cwd: repoRoot,
    env: { ...base, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    });
  });
  return { name, url: `http://127.0.0.1:${port}`, child, output, exited };
}

/** Polls GET /health until it answers 200; fails when the process exits first or `limitMs` passes. */
export async function waitHealthy(server: ServerProcess, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code ?? -1));
  for (;;) {
    if (exitCode !== undefined) {
      throw new Error(`${server.name} exited with ${exitCode}:\n${server.output.join('')}`);
    }
    try {
      const response = await fetch(`${server.url}/health`);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      throw new Error(`${server.name} not healthy after ${limitMs} ms:\n${server.output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Stops the process (SIGTERM, then SIGKILL if it lingers) and waits for it to exit. */
export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
  await server.exited;
  clearTimeout(timer);
}

/**
 * Two sandbox `serve` processes ("instance A" and "instance B") on one database and, when REDIS_URL is
 * set, one Redis under one key prefix (so they count in the same keys), with `settings` added; started at
 * once and both healthy. When either fails to start, both are stopped before the error is thrown.
 */
export async function startTwoServers(
  databaseUrl: string,
  settings: Record<string, string>,
): Promise<[ServerProcess, ServerProcess]> {
  const env = {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    OPENENROLL_MODE: 'sandbox',
    ...settings,
    ...redisEnv(),
  };
  const servers: ServerProcess[] = [];
  try {
    const [portA, portB] = [await freePort(), await freePort()];
    servers.push(spawnServer('instance A', portA, env));
    servers.push(spawnServer('instance B', portB, env));
    await Promise.all(servers.map((server) => waitHealthy(server)));
    return [servers[0]!, servers[1]!];
  } catch (error) {
    await Promise.all(servers.map(stopServer));
    throw error;
  }
}
