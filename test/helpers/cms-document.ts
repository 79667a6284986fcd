import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

type Schema = Record<string, unknown>;

const here = dirname(fileURLToPath(import.meta.url));
/** CMS's Marketplace API document (swagger 2.0), beside the checkout. */
export const CMS_DOCUMENT = resolve(here, '../../../shared/reference/marketplace-api/openapi.json');

/** Every object schema under `node` made closed (no property it does not name), in place. */
export function closeObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjects);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Schema;
  const properties = schema.properties as Schema | undefined;
  if (properties && Object.keys(properties).length > 0 && schema.additionalProperties === undefined) {
    schema.additionalProperties = false;
  }
  Object.values(schema).forEach(closeObjects);
}

/** The CMS document, parsed afresh (callers change it). */
export function readCmsDocument<T>(): T {
  return JSON.parse(readFileSync(CMS_DOCUMENT, 'utf8')) as T;
}
