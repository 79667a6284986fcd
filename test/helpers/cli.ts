import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from './processes.js';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI (`bin/openenroll.js`) against a database (a test database's `processUrl`). */
export async function runCli(
  databaseUrl: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/openenroll.js', ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
