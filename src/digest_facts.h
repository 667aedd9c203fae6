/* digest_facts.h — what the digest reads out of a conversation (digest_read.c) and writes
 * (digest_write.c): every fact the conversation holds, each list as long as the conversation
 * makes it; the writer chooses which fit. Spans borrow the document, or the facts' arena for
 * text copied out of a tool result. The lists grow in that arena (digest_facts.c). Not
 * installed. */
#ifndef MIDFOLD_DIGEST_FACTS_H
#define MIDFOLD_DIGEST_FACTS_H

#include "digest_constraint.h"
#include "digest_results.h"

/* A text of the conversation: a request, an earlier summary, an assistant's message. */
typedef struct dg_text {
    mf_span text;
    size_t msg;              /* the message it is in */
    bool boilerplate;        /* a request that says nothing ("continue", "ok", 继续) */
} dg_text;

typedef struct dg_file {
    mf_span path;            /* '/'-separated */
    mf_span to;              /* where it was moved */
    unsigned ops;            /* MF_FILE_* (digest_command.h) that happened to it */
    size_t edits;            /* the successful edits */
    size_t last;             /* the event that last changed it (or read it) */
} dg_file;

#define DG_TOOL_VALUES 6
typedef struct dg_tool {
    mf_span name;
    size_t calls, errors;    /* errors: results that failed */
    mf_span values[DG_TOOL_VALUES]; /* what it was asked about ("杭州", a query), for tools that name
                                       neither a file nor a command: the first few distinct ones */
    size_t nvalues;
} dg_tool;

/* A command (a tool and the command or the key argument it ran) and its latest success. */
typedef struct dg_command {
    mf_span tool, key;
    size_t passed;           /* the event of its latest success, 0: none */
} dg_command;

/* One distinct failure of one command: its first error line and exit status. */
typedef struct dg_failure {
    size_t command;          /* index in commands */
    mf_span line;
    bool has_exit;
    long long exit_code;
    const char *runner;      /* the test runner whose failure this was, or NULL */
    size_t times, last;      /* how often it happened, the event it last did */
} dg_failure;

/* One test suite (a runner and the paths it ran): its latest run, the failing run before. */
typedef struct dg_suite {
    const char *runner;
    mf_span key, label;      /* the paths compared; the command shown */
    mf_test_run latest, earlier;
    bool has_earlier;
    size_t runs, last;
} dg_suite;

typedef struct dg_decision {
    mf_span text;            /* the sentence, with the reason sentence that follows it */
    bool reasoned;
    size_t msg;
} dg_decision;

typedef struct dg_constraint {
    mf_constraint c;         /* the latest statement */
    mf_span sentence;        /* where it was stated */
    mf_span was;             /* the value before it, when it changed */
    bool changed;
    size_t seq;
    size_t msg;              /* the message of the latest statement */
} dg_constraint;

typedef struct dg_ident {
    mf_span text;
    bool by_user;            /* first named in a user's text */
    size_t mentions;
} dg_ident;

#define DG_LIST(type, name) type *name; size_t n##name, cap_##name

typedef struct mf_digest_facts {
    size_t messages;
    DG_LIST(dg_text, requests);
    DG_LIST(dg_text, summaries);
    DG_LIST(dg_text, replies);      /* the assistant's texts */
    DG_LIST(dg_file, files);
    DG_LIST(dg_tool, tools);
    DG_LIST(dg_command, commands);
    DG_LIST(dg_failure, failures);
    DG_LIST(dg_suite, suites);
    DG_LIST(dg_decision, decisions);
    DG_LIST(dg_constraint, constraints);
    DG_LIST(dg_ident, idents);
    DG_LIST(size_t, refused);       /* messages whose calls the user refused or interrupted */
    size_t events;           /* tool results read so far: the clock of "later" */
    mf_arena arena;          /* copies of result text, scanned arguments, the lists */
    bool failed;             /* an allocation failed */
} mf_digest_facts;

/* Room for one more item of a list of d's, zeroed; NULL when memory ran out (d->failed is
 * then set). `list` is the address of the list's pointer. */
void *mf_facts_push(mf_digest_facts *d, void *list, size_t *n, size_t *cap, size_t size);
#define MF_FACTS_PUSH(d, list) mf_facts_push((d), &(d)->list, &(d)->n##list, &(d)->cap_##list, sizeof *(d)->list)
/* A copy of s in d's arena, cut at a code point to at most `max` bytes (for text of a tool
 * result, whose buffer is reused); an empty span when memory ran out (d->failed). */
mf_span mf_facts_keep(mf_digest_facts *d, mf_span s, size_t max);

#endif
