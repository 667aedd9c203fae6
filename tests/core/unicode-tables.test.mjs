// src/unicode_tables.c is generated from the Unicode data of the Node that runs the tests
// (tools/unicode-tables.mjs): the committed file must be exactly what the generator writes,
// so a table cannot be edited by hand, and a Node with newer Unicode data says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('src/unicode_tables.c is what tools/unicode-tables.mjs writes', () => {
  const script = fileURLToPath(new URL('../../tools/unicode-tables.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${r.stderr}\nrun \`make unicode-tables\` (Unicode ${process.versions.unicode} here)`);
});
