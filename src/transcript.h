/* transcript.h — the transcript a summarizer reads: the serializer (serialize.c)
 * and the one door its content goes through (content.c). Not installed. */
#ifndef MIDFOLD_TRANSCRIPT_H
#define MIDFOLD_TRANSCRIPT_H

#include "content.h"
#include "view.h"

/* Writes the messages list[0..n) of a view (all n first ones when list is NULL) as
 * transcript text; tool results of messages m with shrink[m] set are written as their
 * "[truncated: ...]" marker (shrink may be NULL). serialize.c */
void mf_serialize_list(mf_buf *b, const mf_view *view, const size_t *list, size_t n, const uint8_t *shrink);

/* Writes a tool result's content as transcript text (the result walk, result.c): strings
 * as they are, blocks joined by newlines, media as their placeholders, anything else as
 * JSON, all of it through mf_put_content. serialize.c */
void mf_write_result_text(mf_buf *b, const mf_node *content);

#endif /* MIDFOLD_TRANSCRIPT_H */
