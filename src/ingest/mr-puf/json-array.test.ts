import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { jsonArrayElements } from './json-array.js';

async function elements(text: string, chunkSize: number): Promise<unknown[]> {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const values: unknown[] = [];
  for await (const { value } of jsonArrayElements(Readable.from(chunks), 'file.json')) values.push(value);
  return values;
}

test('every element, whatever the chunk boundaries: escapes, brackets in strings, primitives, UTF-8', async () => {
  const documents = [
    [{ a: 'x\\"y', b: [1, { c: '}]' }] }, 'str,"q"', 3, null, { d: '\\\\' }, true],
    [],
    [{ e: 'ünïcödé ✓', f: -1.5e3 }],
  ];
  for (const document of documents) {
    for (const spacing of [0, 1]) {
      const text = JSON.stringify(document, null, spacing);
      for (let size = 1; size <= 9; size++)
        assert.deepEqual(await elements(text, size), document, `${text} / ${size}`);
    }
  }
});

test('a file that is cut short, not an array, or malformed says so', async () => {
  const failure = async (text: string) => {
    try {
      await elements(text, 4);
    } catch (error) {
      return (error as Error).message;
    }
    return 'no error';
  };
  assert.equal(
    await failure('[{"a":1},{"b":'),
    'file.json: malformed JSON (the file ends inside the array, after element 1)',
  );
  assert.equal(await failure('{"a":1}'), 'file.json: the file is not a JSON array');
  assert.equal(await failure(''), 'file.json: the file is not a JSON array');
  assert.equal(await failure('[1,2] x'), 'file.json: malformed JSON (text after the array)');
  assert.match(await failure('[{"a":1},{"a":1,}]'), /^file\.json: malformed JSON \(element 2: /);
});
