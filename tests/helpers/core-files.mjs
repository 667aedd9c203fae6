// core-files.mjs — the C core's files as the workloads that read them were sized on: in order, without
// those added since (a new file shifts every read after it, and with them where the folds land).
import { readdirSync } from 'node:fs';

const ADDED_SINCE = ['adapt_langchain.c', 'edited.c'];

/** `src/*.c` paths, sorted, without the files added since the workloads were sized. */
export const SIZED_CORE_FILES = readdirSync(new URL('../../src/', import.meta.url))
  .filter((f) => f.endsWith('.c') && !ADDED_SINCE.includes(f)).sort().map((f) => `src/${f}`);
