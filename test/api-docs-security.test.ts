import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { CHROMIUM_MISSING, chromiumStatus, launchChromium } from './helpers/browser.js';
import { startService, type RunningService } from './helpers/service.js';

/**
 * Issue 17: Swagger UI's "Authorize" works on both documents — the plan API's declares its `apikey` scheme
 * and no tag without operations (the empty "authorization" section), the whole service's declares the
 * Bearer scheme on the data routes.
 */

interface Doc {
  tags?: { name: string }[];
  components?: { securitySchemes?: Record<string, Record<string, unknown>> };
  paths: Record<string, Record<string, { tags?: string[]; security?: Record<string, string[]>[] }>>;
}

let running: RunningService;
let browser: Browser | undefined;
before(async () => {
  running = await startService();
  if (chromiumStatus() === 'run') browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await running.close();
});

const doc = async (path: string) => (await (await fetch(`${running.url}${path}`)).json()) as Doc;

test('the plan API document: the apikey scheme on every operation, only the tags it uses', async () => {
  const plans = await doc('/api/v1/openapi.json');
  const apikey = plans.components?.securitySchemes?.apikey;
  assert.deepEqual([apikey?.type, apikey?.in, apikey?.name], ['apiKey', 'query', 'apikey']);
  const operations = Object.values(plans.paths).flatMap((methods) => Object.values(methods));
  assert.ok(operations.length > 10);
  for (const operation of operations) assert.ok(operation.security?.some((s) => 'apikey' in s));
  const used = new Set(operations.flatMap((o) => o.tags ?? []));
  assert.ok(!(plans.tags ?? []).some((t) => t.name === 'authorization'), 'no empty authorization section');
  for (const tag of plans.tags ?? []) assert.ok(used.has(tag.name), `tag ${tag.name} has operations`);
  assert.equal(plans.components?.securitySchemes?.bearer, undefined, 'no scheme the API does not take');
});

test('the service document: Bearer on the data routes, none on the public metadata', async () => {
  const whole = await doc('/openapi.json');
  assert.deepEqual(whole.components?.securitySchemes?.bearer?.scheme, 'bearer');
  assert.deepEqual(whole.components?.securitySchemes?.bearer?.type, 'http');
  for (const path of ['/v2/fhir/Patient', '/v2/fhir/ExplanationOfBenefit/{id}', '/v2/connect/userinfo']) {
    assert.deepEqual(whole.paths[path]?.get?.security, [{ bearer: [] }], path);
  }
  assert.equal(whole.paths['/v2/fhir/metadata']?.get?.security, undefined);
});

test(
  'Swagger UI of the plan API: Authorize offers the apikey, no empty section',
  { skip: chromiumStatus() === 'skip' ? CHROMIUM_MISSING : false },
  async () => {
    const page = await browser!.newPage();
    await page.goto(`${running.url}/api/v1/docs`);
    await page.locator('.opblock').first().waitFor();
    const sections = await page.locator('.opblock-tag-section .opblock-tag').allTextContents();
    assert.ok(!sections.some((s) => /^authorization/i.test(s.trim())), sections.join(' | '));
    await page
      .getByRole('button', { name: /authorize/i })
      .first()
      .click();
    await page.locator('.auth-container').first().waitFor();
    assert.match((await page.locator('.auth-container').first().textContent()) ?? '', /apikey/);
    await page.close();
  },
);
