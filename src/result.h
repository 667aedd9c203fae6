/* result.h — a tool result's content, read once. The walk (result.c) tells a sink what the
 * content is made of; the estimate (estimate.c), the transcript (serialize.c) and the
 * micro-compaction marker's count (marker.c) are its sinks, so every shape a result takes is
 * named in one place and the three agree on it. Not installed. */
#ifndef MIDFOLD_RESULT_H
#define MIDFOLD_RESULT_H

#include "view.h"

/* What a result's content tells its sink. `read` takes the text the model reads, labels (the
 * line break between two blocks of a list among them), JSON values (an AI SDK output's value,
 * a block midfold does not know) and whatever the blocks an adapter reads tell it (Anthropic
 * search results, documents, server-tool outputs). */
typedef struct mf_result_sink {
    mf_reader read;
    /* A media item (media.c's kinds, and the Responses parts input_image, computer_screenshot,
     * input_file): billed as the provider bills it, shown and counted as its placeholder
     * ("[image]", "[file: NAME]", "[document: NAME]", "[document]"). `name` may be NULL. */
    void (*item)(void *ctx, mf_media_kind kind, const mf_media *media, const mf_node *name);
    /* An AI SDK execution-denied output (the user said no), with its reason or NULL. */
    void (*denied)(void *ctx, const mf_node *reason);
} mf_result_sink;

/* Tells `sink` what a tool result's content is: a string, a list of blocks, an Anthropic
 * server-tool result's content object, an AI SDK output ({type, value}, execution-denied) or
 * one block. Null or absent content tells nothing. An AI SDK `custom` part tells nothing
 * either: it carries a kind and provider options, no content the model reads. Borrows
 * `content` for the call; keeps nothing. result.c */
void mf_read_result(const mf_result_sink *sink, const mf_node *content);

/* ---- the micro-compaction marker (marker.c): "[truncated: NAME result, N chars]" ---- */

/* True when a tool result's content already starts with "[truncated:" (its text, a first
 * text block's, a server-tool output's or an AI SDK output's value). */
bool mf_result_is_truncated(const mf_node *content);
/* Appends "[truncated: NAME result, N chars]" to b (the name repaired as UTF-8). */
void mf_write_marker(mf_buf *b, const char *name, size_t name_len, size_t chars);
/* The same marker naming a recall id: "[truncated: NAME result, N chars · recall ID]"; with
 * id_len 0 exactly mf_write_marker's. `id` is midfold's own (mf_recall_id), never content. */
void mf_write_marker_recall(mf_buf *b, const char *name, size_t name_len, size_t chars, const char *id, size_t id_len);
/* The recall id of a result (tool `name`, its `content`) under `key` into out; false when
 * memory ran out writing the content's JSON. */
bool mf_result_recall_id(const uint8_t *key, size_t key_len, const char *name, size_t name_len,
                         const mf_node *content, char out[MF_RECALL_ID_LEN]);
/* N: the code points of what the transcript shows of a result's content as the model read
 * it (texts, values as JSON, media as their placeholders; labels and line breaks between
 * blocks not counted). On allocation failure a value counts 0: callers tell by
 * mf_alloc_failures(). */
size_t mf_tool_result_chars(const mf_node *content);
/* The same count as a sink: every event adds to *chars (which the caller zeroes). */
void mf_chars_sink(mf_result_sink *sink, size_t *chars);

#endif /* MIDFOLD_RESULT_H */
