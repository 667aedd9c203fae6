/* digest_read.h — the conversation read into the digest's facts (digest_read.c). Not
 * installed. */
#ifndef MIDFOLD_DIGEST_READ_H
#define MIDFOLD_DIGEST_READ_H

#include "digest_facts.h"
#include "view.h"

/* Reads every message of `view` into `d` (zeroed, its arena initialized): the user's own
 * requests (the harness's text and acknowledgements told apart), earlier summaries, the
 * assistant's texts and decisions, the constraints of the user's words, each call's files
 * and command, each result's test counts, failure and exit status. On an allocation failure
 * d->failed is set and the facts are incomplete. */
void mf_digest_read(mf_digest_facts *d, const mf_view *view);

#endif
