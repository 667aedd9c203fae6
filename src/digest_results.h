/* digest_results.h — what one tool result says about the state of the work: the test
 * runner's summary, the exit status, the error line (digest_results.c). Not installed. */
#ifndef MIDFOLD_DIGEST_RESULTS_H
#define MIDFOLD_DIGEST_RESULTS_H

#include "digest_text.h"

#define MF_MAX_FAILING 4
typedef struct mf_test_run {
    const char *runner;      /* "pytest", "jest", "vitest", "node --test", "go test", "cargo test",
                                "mocha", "playwright" (static); NULL: no summary line was recognised */
    uint64_t failed, passed, skipped;
    uint64_t packages_ok, packages_failed; /* go test's "ok PKG" / "FAIL PKG" lines */
    mf_span failing[MF_MAX_FAILING]; /* failing test names, borrowed from the text */
    size_t nfailing, more_failing;
} mf_test_run;

typedef struct mf_result_facts {
    mf_test_run tests;
    bool has_exit;
    long long exit_code;     /* the last exit status the text states */
    mf_span error;           /* the most telling error line, trimmed (n 0: none) */
    int error_rank;          /* how telling: 4 the exception a Python traceback ends with, 3 an
                                exception or compiler error, 2 an error line, 1 a line that
                                mentions an error or failure */
    mf_span first;           /* the first line of the output proper, trimmed (after an agent's
                                header: "Chunk ID:", "Wall time:", "Process exited with code 1",
                                "Exit code 2", "Output:") */
    int first_rank;          /* error_rank of that line alone */
} mf_result_facts;

/* Reads the text of one tool result: the test runner's summary, the exit status, the
 * error line. Spans borrow `text`. */
void mf_read_result_facts(mf_span text, mf_result_facts *f);
/* True when the facts say the command failed: failing tests, a nonzero exit status, or
 * (with no exit status stated) an error line of rank 2 or more. For `content` — what a
 * tool read or found (a file, a search, a report), where error words are the material — only
 * an error line that opens the output counts ("ENOENT: no such file or directory"). */
bool mf_result_failed(const mf_result_facts *f, bool content);

#endif
