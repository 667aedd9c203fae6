/* digest_write.h — the digest's facts as text within a token budget (digest_write.c). Not
 * installed. */
#ifndef MIDFOLD_DIGEST_WRITE_H
#define MIDFOLD_DIGEST_WRITE_H

#include "digest_facts.h"

/* Writes the digest of `d` into `out` within max_tokens under `profile` (an empty text when
 * not even its first line fits), headings and words in Chinese when zh. */
void mf_digest_write(mf_buf *out, const mf_digest_facts *d, uint32_t max_tokens, mf_profile profile, bool zh);

#endif
