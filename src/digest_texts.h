/* digest_texts.h — what was said, read from each text part into the digest's facts
 * (digest_texts.c). Not installed. */
#ifndef MIDFOLD_DIGEST_TEXTS_H
#define MIDFOLD_DIGEST_TEXTS_H

#include "digest_facts.h"
#include "view.h"

/* Reads a text part (or a provider's compaction block) of message `m`: a user's request and
 * its constraints, an earlier summary, an assistant's text and its decisions, identifiers. */
void mf_digest_note_text(mf_digest_facts *d, const mf_msg *msg, const mf_part *part, size_t m);
/* Marks the requests that say nothing new ("continue", "ok", 继续, a short text sent three
 * times or more); run once every text is read. */
void mf_digest_mark_boilerplate(mf_digest_facts *d);

#endif
