/* digest_state.h — what digest.c reads out of a conversation and digest_write.c writes.
 * Every span borrows the document (or the digest's arena, for text copied out of a tool
 * result). Not installed. */
#ifndef MIDFOLD_DIGEST_STATE_H
#define MIDFOLD_DIGEST_STATE_H

#include "digest.h"

#define MF_DIGEST_MAX_TOOLS 64
#define MF_DIGEST_MAX_VALUES 6
#define MF_DIGEST_MAX_FILES 24
#define MF_DIGEST_MAX_IDENTS 24
#define MF_DIGEST_MAX_RUNNERS 4
#define MF_DIGEST_MAX_ERRORS 8
#define MF_DIGEST_MAX_DECISIONS 16
#define MF_DIGEST_MAX_CONSTRAINTS 16

typedef struct tool_stat {
    mf_span name;
    size_t calls, errors;    /* errors: results the provider marked as errors */
    mf_span values[MF_DIGEST_MAX_VALUES];
    size_t nvalues;
} tool_stat;

/* One test runner's latest run, and the most recent failing run before it. */
typedef struct test_state {
    mf_test_run latest, earlier;
    bool has_earlier;
    size_t runs;
} test_state;

/* The last error of one tool and call. */
typedef struct error_entry {
    mf_span tool, call;      /* the call's key argument (the command, the path) */
    mf_span line;
    bool has_exit;
    long long exit_code;
    const char *runner;      /* the test runner whose failure this was, or NULL */
    bool resolved;           /* the same call, or the same runner, succeeded later */
    size_t seq;
} error_entry;

typedef struct decision {
    mf_span text;
    bool reasoned;           /* it gives its reason */
} decision;

typedef struct constraint_entry {
    mf_constraint c;         /* the latest statement */
    mf_span was;             /* the value before it, when it changed */
    bool changed;
    size_t seq;
} constraint_entry;

typedef struct digest {
    const mf_view *view;
    tool_stat tools[MF_DIGEST_MAX_TOOLS];
    size_t ntools;
    mf_span files[MF_DIGEST_MAX_FILES];   /* paths from tool arguments */
    size_t nfiles;
    mf_span idents[MF_DIGEST_MAX_IDENTS]; /* names and paths the texts mention */
    bool ident_by_user[MF_DIGEST_MAX_IDENTS]; /* first named in a user's text */
    size_t nidents;
    test_state runs[MF_DIGEST_MAX_RUNNERS];
    size_t nruns;
    error_entry errors[MF_DIGEST_MAX_ERRORS];
    size_t nerrors, nfailures;
    decision decisions[MF_DIGEST_MAX_DECISIONS]; /* a ring of the latest */
    size_t ndecisions;
    constraint_entry constraints[MF_DIGEST_MAX_CONSTRAINTS];
    size_t nconstraints, nstatements;
    mf_arena arena;          /* copies of result text, scanned arguments, the call map */
    bool failed;             /* an allocation failed */
} digest;

/* A summary carried from an earlier compaction (or the provider's), not a reply. digest.c */
bool mf_digest_is_summary_text(const mf_part *p);
/* Writes the digest within max_tokens under `profile`, in Chinese when zh. digest_write.c */
void mf_digest_write(mf_buf *b, const digest *d, uint32_t max_tokens, mf_profile profile, bool zh);

#endif
