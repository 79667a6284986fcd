import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Browser tests use Debian's chromium package; Playwright never downloads a browser of its own here. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_MISSING = 'install Debian chromium (apt-get install chromium) to run browser tests';

/**
 * How the browser suites treat a machine without chromium: run (`'run'`), skip with the install hint on a
 * developer's machine (`'skip'`), or fail on CI (`'fail'`), where a silently skipped suite would hide a
 * missing install step.
 */
export function chromiumStatus(): 'run' | 'skip' | 'fail' {
  if (existsSync(CHROMIUM_PATH)) return 'run';
  return process.env.CI ? 'fail' : 'skip';
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
