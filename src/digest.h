/* digest.h — what the digest's files share (digest.c writes; digest_text.c,
 * digest_results.c, digest_decide.c and digest_constraint.c read). Not installed. */
#ifndef MIDFOLD_DIGEST_H
#define MIDFOLD_DIGEST_H

#include "internal.h"

typedef struct mf_span { const char *s; size_t n; } mf_span;

/* ---- text (digest_text.c) --------------------------------------------------------- */
/* `s` trimmed of ASCII and ideographic spaces at both ends. */
mf_span mf_span_trim(mf_span s);
bool mf_span_eq(mf_span a, mf_span b);
/* Equal but for ASCII case. */
bool mf_span_eq_ci(mf_span a, mf_span b);
/* ASCII case-insensitive: does s contain / start with `needle`? (needle is lower case) */
bool mf_span_has(mf_span s, const char *needle);
bool mf_span_starts(mf_span s, const char *prefix);
/* The length of `prefix` (lower case, not empty) when s starts with it but for ASCII case; else 0. */
size_t mf_span_prefix_len(mf_span s, const char *prefix);
/* The next line of s from *at (advancing *at past its break); false at the end. */
bool mf_next_line(mf_span s, size_t *at, mf_span *line);
/* The next sentence of s from *at: it ends after . ! ? followed by a space or the end, at
 * 。！？；, or at a line break; trimmed, never empty. False at the end. */
bool mf_next_sentence(mf_span s, size_t *at, mf_span *sentence);
/* True for the code points of Chinese, Japanese and Korean scripts. */
bool mf_is_cjk_cp(uint32_t cp);

/* ---- what one tool result says (digest_results.c) ---------------------------------- */
#define MF_MAX_FAILING 4
typedef struct mf_test_run {
    const char *runner;      /* "pytest", "jest", "vitest", "node --test", "go test", "cargo test",
                                "mocha" (static); NULL: no summary line was recognised */
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
} mf_result_facts;

/* Reads the text of one tool result: the test runner's summary, the exit status, the
 * error line. Spans borrow `text`. */
void mf_read_result_facts(mf_span text, mf_result_facts *f);
/* True when the facts say the command failed (tests failed, a nonzero exit status, an
 * error line of rank 2 or more). */
bool mf_result_failed(const mf_result_facts *f);

/* ---- assistant decisions (digest_decide.c) ---------------------------------------- */
/* 2 when the sentence states a decision with its reason ("I'll use X because Y", "We
 * should… since…", 打算…因为…, "Decided to… so that…"), 1 for a decision in so many words
 * without one ("Decided to…", "switch to", "instead of", 决定/改用/采用…), else 0. */
int mf_sentence_is_decision(mf_span sentence);

/* ---- user constraints (digest_constraint.c) ---------------------------------------- */
typedef struct mf_constraint {
    mf_span subject;         /* what the value is about, as written ("budget", "预算") */
    mf_span key;             /* how subjects are compared (the last word / last two CJK characters) */
    mf_span value;           /* the value with its currency and unit ("500 euros", "5000元") */
} mf_constraint;
/* The valued statements of one sentence of user text (at most `cap`): each number with
 * its unit and the words it is about. Returns how many were written to out. */
size_t mf_find_constraints(mf_span sentence, mf_constraint *out, size_t cap);

#endif
