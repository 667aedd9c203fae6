// corpus.mjs — the files the tests' agents read as their tool results. The C core's `src/*.c` come from a
// frozen copy (tests/fixtures/corpus/core-files.json), not from the working tree: the suites that drive
// long tool loops over them assert where folds land and how much of a prefix a provider reuses, and
// those figures moved whenever a change to the core touched or added a source file. Other paths
// (fixtures, docs) are read from the repository as they are.
import { readFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);
const { files } = JSON.parse(readFileSync(new URL('tests/fixtures/corpus/core-files.json', ROOT), 'utf8'));
const bytes = new Map(Object.entries(files).map(([path, text]) => [path, Buffer.byteLength(text)]));

/** The corpus's file names (`estimate.c`, …), sorted: what `readdirSync('src')` listed when it was frozen. */
export const CORE_NAMES = Object.keys(files).map((p) => p.slice('src/'.length)).sort();

/** The corpus's paths (`src/estimate.c`, …), sorted. */
export const CORE_FILES = CORE_NAMES.map((n) => `src/${n}`);

/** A corpus file's size in UTF-8 bytes, by name (`micro.c`) or path (`src/micro.c`). */
export function coreFileSize(name) {
  const size = bytes.get(name.startsWith('src/') ? name : `src/${name}`);
  if (size === undefined) throw new Error(`${name} is not in the test corpus`);
  return size;
}

/** The text of `path` as the tests' agents read it: a core file from the corpus, anything else from the repository. */
export function readWorkloadFile(path) {
  return Object.hasOwn(files, path) ? files[path] : readFileSync(new URL(path, ROOT), 'utf8');
}
