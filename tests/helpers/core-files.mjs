// core-files.mjs — the C core's files as the workloads that read them were sized on: in order, without
// those added since (a new file shifts every read after it, and with them where the folds land).
import { CORE_FILES } from './corpus.mjs';

const ADDED_SINCE = ['src/adapt_langchain.c'];

/** `src/*.c` paths of the test corpus, sorted, without the files added since the workloads were sized. */
export const SIZED_CORE_FILES = CORE_FILES.filter((f) => !ADDED_SINCE.includes(f));
