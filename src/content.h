/* content.h — the one door through which content reaches a transcript (content.c). Not
 * installed. */
#ifndef MIDFOLD_CONTENT_H
#define MIDFOLD_CONTENT_H

#include "tree.h"

/* ---- the content door (content.c) ------------------------------------------------
 * Every byte of content that reaches a transcript — text, thinking, tool arguments and
 * results, documents and their titles, names, anything a message carries — goes through
 * mf_put_content (JSON values through mf_put_content_json); only the serializer's own
 * markers are written with mf_buf_puts. It writes s like mf_buf_put_utf8, except that a
 * line whose first visible character is an opening square bracket gets a "\" before
 * it, so no content line reads as a marker, and "</transcript" becomes "<\/transcript"
 * (so does every form a reader may take for it, even one split between pieces of content
 * and the labels between them: the scan reads what b holds). Whether the first byte opens
 * a line is read from what b already holds. Same input, same bytes. docs/transcript.md */
void mf_put_content(mf_buf *b, const char *s, size_t len);
void mf_put_content_json(mf_buf *b, const mf_node *node);

#endif /* MIDFOLD_CONTENT_H */
