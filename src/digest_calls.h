/* digest_calls.h — what the tools did, read from each call and its result into the
 * digest's facts (digest_calls.c). Not installed. */
#ifndef MIDFOLD_DIGEST_CALLS_H
#define MIDFOLD_DIGEST_CALLS_H

#include "digest_facts.h"
#include "view.h"

/* A call as read, until its result says whether it happened; it lives in d's arena. */
typedef struct dg_call dg_call;

/* Reads a tool call of message `msg`: counts it for its tool, and keeps its command, its key
 * argument and the files it names. NULL when memory ran out (d->failed). */
dg_call *mf_digest_note_call(mf_digest_facts *d, const mf_part *part, size_t msg);
/* Reads the result of `call` (NULL when the result's call is unknown): its test counts, its
 * failure or success, and with a success the call's files. `scratch` is a buffer the caller
 * owns, reused from result to result. */
void mf_digest_note_result(mf_digest_facts *d, const mf_part *part, const dg_call *call, mf_buf *scratch);

#endif
