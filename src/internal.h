/*
 * internal.h — what the core's files share: allocation, the arena, the byte buffer,
 * the generic value tree and the normalized conversation view. Not installed.
 */
#ifndef MIDFOLD_INTERNAL_H
#define MIDFOLD_INTERNAL_H

#include "midfold.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- allocation (alloc.c): every allocation goes through these ----------------- */
void *mf_alloc(size_t size);
void *mf_realloc(void *ptr, size_t size);
void mf_dealloc(void *ptr);
/* How many allocations have failed so far in this process (a monotonic counter). */
size_t mf_alloc_failures(void);

/* Fills *err (when given) and returns `code`. `position` may be SIZE_MAX. */
mf_status mf_fail(mf_error *err, mf_status code, size_t position, const char *fmt, ...);

/* ---- arena (arena.c): bump allocation freed all at once ------------------------- */
typedef struct mf_arena_chunk mf_arena_chunk;
typedef struct mf_arena {
    mf_arena_chunk *head;
    size_t used, cap;        /* of the head chunk */
} mf_arena;
void mf_arena_init(mf_arena *arena);
void *mf_arena_alloc(mf_arena *arena, size_t size); /* 8-byte aligned, uninitialized; NULL on OOM */
void *mf_arena_calloc(mf_arena *arena, size_t count, size_t size);
char *mf_arena_strdup(mf_arena *arena, const char *s, size_t len); /* NUL-terminated copy */
void mf_arena_free(mf_arena *arena);

/* ---- growable byte buffer (buf.c) ----------------------------------------------- */
typedef struct mf_buf {
    char *data;
    size_t len, cap;
    bool failed;             /* an allocation failed: later appends are no-ops */
    /* The content door's closing-tag scan (content.c): data before tag_at has been read,
     * and ends with tag_stage of "</transcript", whose slash is at tag_slash. */
    size_t tag_at, tag_slash;
    uint8_t tag_stage;
} mf_buf;
void mf_buf_init(mf_buf *b);
/* Empties b for reuse (its memory kept), the door's scan with it. */
void mf_buf_reset(mf_buf *b);
void mf_buf_free(mf_buf *b);
void mf_buf_append(mf_buf *b, const char *s, size_t len);
void mf_buf_puts(mf_buf *b, const char *s);
void mf_buf_putc(mf_buf *b, char c);
void mf_buf_put_uint(mf_buf *b, uint64_t v);
/* Appends UTF-8 text with invalid sequences replaced by U+FFFD. */
void mf_buf_put_utf8(mf_buf *b, const char *s, size_t len);
/* Appends s as a JSON string literal (quotes included), non-ASCII left unescaped. */
void mf_buf_put_json_string(mf_buf *b, const char *s, size_t len);
/* Hands the NUL-terminated contents to the caller (to free with mf_free). */
mf_status mf_buf_finish(mf_buf *b, char **out, size_t *out_len, mf_error *err);

/* ---- UTF-8 and text classes (utf8.c, text_class.c) -------------------------------- */
/* Decodes one code point at s[0..len); sets *cp (U+FFFD for an invalid byte) and
 * returns the bytes consumed (1 for an invalid byte, never 0 when len > 0). Strict:
 * overlong forms, surrogates and values past U+10FFFF are invalid, and each invalid byte
 * stands for one U+FFFD of its own. Inline: it sits in every text loop. */
static inline size_t mf_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    unsigned char c = s[0];
    if (c < 0x80) { *cp = c; return 1; }
    size_t need;
    uint32_t v, min;
    if (c >= 0xC2 && c <= 0xDF) { need = 2; v = c & 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { need = 3; v = c & 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { need = 4; v = c & 0x07; min = 0x10000; }
    else { *cp = 0xFFFD; return 1; }
    if (len < need) { *cp = 0xFFFD; return 1; }
    for (size_t i = 1; i < need; i++) {
        if ((s[i] & 0xC0) != 0x80) { *cp = 0xFFFD; return 1; }
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) { *cp = 0xFFFD; return 1; }
    *cp = v;
    return need;
}

typedef enum mf_char_class {
    MF_CLASS_CJK = 0, MF_CLASS_ALNUM = 1, MF_CLASS_SPACE = 2, MF_CLASS_OTHER = 3
} mf_char_class;
#define MF_CLASS_COUNT 4
mf_char_class mf_classify(uint32_t cp);
/* Adds the number of code points of each class in s to counts[]. Invalid bytes count
 * as "other"; a valid sequence is classified by its code point. */
void mf_count_classes(const char *s, size_t len, uint64_t counts[MF_CLASS_COUNT]);

/* ---- the generic value tree (tree.c) --------------------------------------------- */
typedef enum mf_kind {
    MF_NULL = 0, MF_FALSE = 1, MF_TRUE = 2, MF_NUMBER = 3, MF_STRING = 4,
    MF_ARRAY = 5, MF_OBJECT = 6,
    MF_BLOB = 7              /* binary data (a Uint8Array, an ArrayBuffer): `len` bytes, str NULL */
} mf_kind;

typedef struct mf_node mf_node;
struct mf_node {
    uint8_t kind;            /* mf_kind */
    uint32_t count;          /* ARRAY/OBJECT: number of items */
    const char *str;         /* STRING: bytes; NUMBER: its JSON text */
    size_t len;
    const char *key;         /* set when the node is an object member */
    size_t key_len;
    mf_node *items;          /* ARRAY/OBJECT: `count` contiguous nodes */
};

/* The member `key` of an object, or NULL (also when obj is not an object). */
const mf_node *mf_get(const mf_node *obj, const char *key);
/* The member's string, or NULL when it is absent or not a string. */
const mf_node *mf_get_str(const mf_node *obj, const char *key);
bool mf_str_eq(const mf_node *n, const char *s);
bool mf_is(const mf_node *n, mf_kind kind);

/* ---- tool-call id map (idset.c) --------------------------------------------------- */
typedef struct mf_idslot {
    const char *id;          /* NULL: free slot */
    size_t len;
    const void *value;
    size_t message, part;
} mf_idslot;
typedef struct mf_idmap { mf_idslot *slots; size_t mask; } mf_idmap;
/* Room for `capacity` ids (the table never fills: it is sized to twice that). */
bool mf_idmap_init(mf_idmap *map, mf_arena *arena, size_t capacity);
/* The slot holding `id`, or the free slot where it would go (slot->id == NULL). */
mf_idslot *mf_idmap_slot(mf_idmap *map, const char *id, size_t len);

/* ---- documents (doc.c) ----------------------------------------------------------- */
struct mf_doc {
    mf_arena arena;
    mf_node *root;
    const mf_node *messages; /* the list of messages, or NULL when the value is no conversation */
    void *json_owner;        /* the cJSON tree whose strings the nodes borrow, if any */
    void (*json_owner_free)(void *owner); /* how to free it: set by mf_doc_parse_json only, so
                                           * a build that never parses JSON text links no cJSON */
};

/* JSON text to a tree allocated in `arena`; strings stay in cJSON's tree, returned in
 * *owner (free it with mf_json_owner_free after the arena's last use). json_read.c */
mf_status mf_json_to_tree(mf_arena *arena, const char *json, size_t len, mf_node **out,
                          void **owner, mf_error *err);
void mf_json_owner_free(void *owner);
/* Writes a double as JSON number text into out (at least 40 bytes; null when not finite);
 * returns its length. json_number.c */
size_t mf_json_format_number(double v, char *out);
/* The number parser (strtod.c): s must end with a byte that is no part of a number. */
double mf_strtod(const char *s, char **end);
/* True when the value holds a list of role-tagged messages; else *bad_index (when
 * given) receives the first entry that is not a message, or SIZE_MAX. doc.c */
bool mf_doc_is_conversation(const mf_doc *doc, size_t *bad_index);
/* The binary tree encoding to a tree in `arena`; strings borrow `buf`. tree_decode.c */
mf_status mf_tree_decode(mf_arena *arena, const uint8_t *buf, size_t len, mf_node **out,
                         mf_error *err);

/* ---- the normalized view (view.c and the format adapters) ------------------------ */
typedef enum mf_role {
    MF_ROLE_SYSTEM = 0, MF_ROLE_USER = 1, MF_ROLE_ASSISTANT = 2, MF_ROLE_TOOL = 3,
    MF_ROLE_UNKNOWN = 4
} mf_role;

typedef enum mf_part_kind {
    MF_PART_TEXT = 0, MF_PART_THINKING, MF_PART_REDACTED_THINKING, MF_PART_TOOL_CALL,
    MF_PART_TOOL_RESULT, MF_PART_IMAGE, MF_PART_DOCUMENT, MF_PART_OTHER,
    MF_PART_APPROVAL         /* AI SDK tool-approval-request / -response: id is the approvalId */
} mf_part_kind;

/* A media item as the provider bills it (media.c): an image at the profile's image
 * cost; a document by its decoded size when known (bytes > 0), else one document cost. */
typedef struct mf_media {
    bool file;               /* shown as "[file: NAME]" rather than "[document: TITLE]" */
    uint64_t bytes;          /* decoded size; 0 when unknown (a URL, a provider reference) */
} mf_media;
/* What a block gives the model and the summarizer, told to a reader (read.c): `text` is
 * read by the model (priced, written, counted), `label` frames it in the transcript only,
 * `value` is a JSON value read by its keys and values (tool input), `media` is billed by
 * the unit (images; document pages), never as text. */
typedef struct mf_reader {
    void (*text)(void *ctx, const char *s, size_t len);
    void (*label)(void *ctx, const char *s, size_t len);
    void (*value)(void *ctx, const mf_node *node);
    void (*media)(void *ctx, bool image, uint64_t units);
    void *ctx;
} mf_reader;
/* Tells `r` what `node` reads as; false (and nothing told) when it is no block it knows. */
typedef bool (*mf_read_fn)(const mf_reader *r, const mf_node *node);

typedef struct mf_part {
    mf_part_kind kind;
    size_t index;            /* position in the message's content list; SIZE_MAX when the part
                                is the message's own string content or lives outside `content` */
    const mf_node *node;     /* the block/part itself (or the message for OpenAI tool messages) */
    const char *text; size_t text_len;  /* TEXT, THINKING: the text; DOCUMENT: its title */
    const char *id; size_t id_len;      /* TOOL_CALL, TOOL_RESULT */
    const char *name; size_t name_len;  /* TOOL_CALL; TOOL_RESULT when the format carries it */
    const mf_node *args;     /* TOOL_CALL: an object, or a string of JSON (OpenAI) */
    const mf_node *content;  /* TOOL_RESULT: string, list of blocks, or AI SDK output value */
    const mf_node *type;     /* the block's "type" string, when it has one */
    bool is_error;           /* TOOL_RESULT; APPROVAL: the response denies */
    mf_edit_target target;   /* TOOL_RESULT: how a replacement is written back; 0: never rewritten */
    bool pinned;             /* never edited: a decision (an execution denial) */
    bool pending;            /* unfinished (awaiting an approval, an output, still streaming):
                                never edited, never folded into a summary */
    bool unmatched;          /* APPROVAL: its call (request) or request (response) is missing */
    mf_media media;          /* IMAGE, DOCUMENT: what the provider bills (media.c); zeroed: unknown */
    size_t opaque_len;       /* REDACTED_THINKING: bytes of an encrypted payload the model reads
                                decrypted (an OpenAI compaction item), priced by its size */
    bool same_message;       /* TOOL_CALL, TOOL_RESULT run by the provider (Anthropic server tools,
                                the MCP connector): call and result sit in one assistant message */
    mf_read_fn read;         /* when set, how the block reads (estimate, transcript) beyond its kind */
} mf_part;

typedef struct mf_msg {
    mf_role role;
    const mf_node *node;     /* the message object */
    const mf_node *role_node;
    mf_part *parts;
    size_t count;
    bool string_content;     /* content was one string (a single TEXT part) */
    bool self_contained;     /* its results answer its own calls (a UIMessage): a cut may fall before it */
    bool item;               /* one item of a flat item list (OpenAI Responses): consecutive items of
                                one role are one turn */
    bool joined;             /* no cut may fall right before this message: it belongs with the one
                                before (the item after a reasoning item, items inside a call pair) */
} mf_msg;

typedef struct mf_view {
    mf_format format;
    mf_msg *msgs;
    size_t count;
    mf_arena arena;
} mf_view;

/* Builds the view of a document's messages in `format` (AUTO detects). Fails with
 * MF_ERR_SHAPE when the document holds no conversation, MF_ERR_FORMAT when AUTO cannot
 * tell the format. Free with mf_view_free. */
mf_status mf_view_build(const mf_doc *doc, mf_format format, mf_view *view, mf_error *err);
void mf_view_free(mf_view *view);

/* Format adapters: fill msg->parts from the message node. They never fail on odd
 * shapes (validation reports those); only allocation can fail. */
mf_status mf_adapt_anthropic(mf_arena *arena, mf_msg *msg);
mf_status mf_adapt_openai(mf_arena *arena, mf_msg *msg);
mf_status mf_adapt_aisdk(mf_arena *arena, mf_msg *msg);
mf_status mf_adapt_aisdk_ui(mf_arena *arena, mf_msg *msg);
mf_status mf_adapt_langchain(mf_arena *arena, mf_msg *msg);
/* The `type` string of a LangChain dict-form message ("human", "ai", "system", "tool",
 * "generic", "function", with a `content` member), else NULL (adapt_langchain.c). */
const mf_node *mf_langchain_type(const mf_node *msg);
/* A LangChain dict-form message's role: by its type, a ChatMessage's by its `role`. */
mf_role mf_langchain_role(const mf_node *msg);
/* Links AI SDK approval parts to their calls and requests and marks what is still
 * unanswered as pending (adapt_aisdk.c); runs after mf_view_link_results. */
mf_status mf_aisdk_link_approvals(mf_view *view);
/* True for an AI SDK configuration update: a system message with empty content whose
 * providerOptions carry reasoningEffortUpdate or textFormatUpdate (@ai-sdk/openai turns it
 * into a Responses `configuration_update` item). */
bool mf_aisdk_is_configuration_update(const mf_node *msg);
/* True when a part of the message is pending (view.c). */
bool mf_msg_has_pending(const mf_msg *msg);

/* OpenAI Responses input items (adapt_openai_responses.c). An item's role is its own
 * `role` or, for items without one, inferred from its type (calls: assistant; outputs:
 * tool). */
mf_status mf_adapt_openai_responses(mf_arena *arena, mf_msg *msg);
mf_role mf_responses_role(const mf_node *item);
/* True for an object whose "type" names a Responses input item that has no role. */
bool mf_responses_is_item(const mf_node *n);
/* True when the message can only be a Responses item (an item type, or input_* /
 * output_text content parts). */
bool mf_responses_evidence(const mf_node *msg);
/* True for a `configuration_update` item (a reasoning effort or text format that holds for
 * the responses after it; docs/openai-responses.md). */
bool mf_responses_is_configuration_update(const mf_node *item);
/* Marks the items no cut may fall before (msg->joined), once every item is read
 * (responses_join.c). */
mf_status mf_responses_join(mf_view *view);

/* The Responses pairing rules (validate_responses.c): every call answered by a later
 * output with its call_id, every output answering an earlier call, approvals answering
 * their request, and a reasoning item followed by the item it produced. Problems go to
 * `report` (validate.c's sink). Init reads the whole list once (false when memory ran
 * out; the maps live in `arena`); check_item then checks item m. */
typedef void (*mf_report_fn)(void *ctx, mf_problem_code code, size_t message, size_t part, const char *fmt,
                             const char *arg, size_t arg_len);
typedef struct mf_responses_pairs { mf_idmap calls, outputs, seen; } mf_responses_pairs;
bool mf_responses_pairs_init(mf_responses_pairs *pairs, const mf_view *view, mf_arena *arena);
void mf_responses_check_item(mf_responses_pairs *pairs, const mf_view *view, size_t m, mf_report_fn report,
                             void *ctx);

/* The providers' own compaction (an Anthropic `compaction` block with its summary, an
 * OpenAI `compaction` item): the provider reads the conversation from the last one on and
 * ignores what came before, so estimates count from there, micro-compaction edits nothing
 * before it, and a fold never puts a summary before it (docs/provider-rules.md). view.c */
bool mf_part_is_compaction(const mf_part *part);
bool mf_msg_has_compaction(const mf_msg *msg);
/* The index of the last message holding one, or 0 when there is none. */
size_t mf_view_window_start(const mf_view *view);

/* True when the message holds at least one tool result (view.c). */
bool mf_msg_has_results(const mf_msg *msg);

/* Gives every tool result without a name of its own the name of the latest earlier
 * call with the same id (view.c); results that match no call keep name NULL. */
mf_status mf_view_link_results(mf_view *view);

/* Writes the messages list[0..n) of a view (all n first ones when list is NULL) as
 * transcript text; tool results of messages m with shrink[m] set are written as their
 * "[truncated: ...]" marker (shrink may be NULL). serialize.c */
void mf_serialize_list(mf_buf *b, const mf_view *view, const size_t *list, size_t n, const uint8_t *shrink);
/* True when a tool result's content already starts with "[truncated:" (micro.c). */
bool mf_result_is_truncated(const mf_node *content);
/* Writes "[truncated: NAME result, N chars]" (micro.c). */
void mf_write_marker(mf_buf *b, const char *name, size_t name_len, size_t chars);

/* ---- media (media.c): images and files wherever a format puts them ----------------- */
typedef enum mf_media_kind { MF_MEDIA_NONE = 0, MF_MEDIA_IMAGE, MF_MEDIA_DOCUMENT } mf_media_kind;
/* Classifies a block of tool-result content (any format's media item types); fills *media
 * and *name (the filename, else the media type; may stay NULL) for the transcript. */
mf_media_kind mf_media_of_block(const mf_node *block, mf_media *media, const mf_node **name);
/* The decoded size of inline data: a base64 string or data: URL (its payload), a blob, an
 * AI SDK v7 {type:"data", data}; 0 for a URL, a reference or anything else. */
uint64_t mf_media_bytes(const mf_node *data);
/* True when a media type names an image ("image/..."). */
bool mf_media_type_is_image(const mf_node *media_type);
/* What a media item costs in milli-tokens under a profile. estimate.c */
uint64_t mf_estimate_media(mf_media_kind kind, const mf_media *media, mf_profile profile);
/* Writes "[image]", "[file: NAME]", "[document: NAME]" (serialize.c). */
void mf_write_media(mf_buf *b, mf_media_kind kind, const mf_media *media, const char *name, size_t name_len);

/* ---- estimation internals (estimate.c) -------------------------------------------- */
uint64_t mf_estimate_node(const mf_node *node, mf_profile profile);
uint64_t mf_estimate_part(const mf_part *part, mf_profile profile);
uint64_t mf_estimate_tool_result_content(const mf_node *content, mf_profile profile);
uint64_t mf_estimate_msg(const mf_msg *msg, mf_profile profile);
uint64_t mf_estimate_view(const mf_view *view, mf_profile profile);
/* What a request body adds beside its messages ("system", "tools"); 0 otherwise. */
uint64_t mf_estimate_request_extras(const mf_doc *doc, mf_profile profile);
/* A tool result's code points (as below) and, in *milli, its estimate: one pass over
 * plain text. estimate.c */
size_t mf_measure_tool_result(const mf_node *content, mf_profile profile, uint64_t *milli);
/* A tool result part's estimate, exactly mf_estimate_part's, and in *chars its code points
 * (mf_tool_result_chars): one pass over plain text. estimate.c */
uint64_t mf_measure_result_part(const mf_part *part, mf_profile profile, size_t *chars);
/* One message's figures (see mf_doc_estimate_each), and their flags alone. estimate.c */
void mf_msg_figures_of(const mf_msg *msg, mf_profile profile, mf_msg_figures *out);
unsigned mf_msg_figures_flags(const mf_msg *msg);
/* Code points of a tool result's content as micro-compaction counts them. */
size_t mf_tool_result_chars(const mf_node *content);
/* Writes a value as compact JSON with ": " and ", " separators (Python json.dumps).
 * Into a transcript, use mf_put_content_json instead. */
void mf_write_json(mf_buf *b, const mf_node *node);
/* Re-prints JSON text (an OpenAI arguments string) the same way, without building a
 * tree (json_reprint.c); text that does not parse is written as it is, an empty string as
 * {}. Running out of memory sets b->failed. */
void mf_write_json_text(mf_buf *b, const char *json, size_t len);
/* JSON numbers (json_number.c). mf_json_scan_number reads the number at s[0..len) as cJSON
 * does and returns the bytes it takes (0: not a number; SIZE_MAX: out of memory);
 * mf_json_format_number writes a double as the transcript prints it into out (at least 40
 * bytes; non-finite values as null) and returns its length. */
size_t mf_json_scan_number(const char *s, size_t len, double *value);
size_t mf_json_format_number(double v, char *out);
/* ---- blocks read by their readable text (read.c, adapt_anthropic.c) -------------- */
/* The Anthropic blocks beyond text/image/tool_use/tool_result (server-tool results and
 * their content objects, search results, documents, MCP calls, container uploads): true
 * when `node` is one of them. Anthropic's type names are its own, so this is safe on any
 * format's content. adapt_anthropic.c */
bool mf_anthropic_read(const mf_reader *r, const mf_node *node);
/* Any other block: "[block: TYPE] " (its type is content, never a marker's word), then
 * its text fields (strings not under an opaque key such as encrypted_content, signature,
 * data, id); always true. read.c */
bool mf_read_text_fields(const mf_reader *r, const mf_node *node);
/* The estimate, transcript and code points of what `read` tells about `node`; false when
 * `read` does not know it. With `own_marker` (a block at the top of a message) the block
 * opens with its marker; without (a block inside a tool result), every byte it writes is
 * content, through the door. read.c */
bool mf_read_milli(mf_read_fn read, const mf_node *node, mf_profile profile, uint64_t *milli);
bool mf_read_write(mf_read_fn read, mf_buf *b, const mf_node *node, bool own_marker);
bool mf_read_chars(mf_read_fn read, const mf_node *node, size_t *chars);
/* The string a micro-compaction marker replaces inside a result's content object (stdout
 * of a code execution, a viewed file, a fetched page), or NULL. adapt_anthropic.c */
const mf_node *mf_anthropic_marker_node(const mf_node *content);
/* A server-tool result's content as edit `target` (MF_EDIT_RESULT_*) leaves it, with `text`
 * as its output: what js/core/apply.js writes, built in `arena` (values borrowed), so the plan
 * prices the result it leaves exactly. NULL on OOM or when the target does not apply. */
const mf_node *mf_anthropic_cleared(mf_arena *arena, const mf_node *content, mf_edit_target target, const char *text,
                                    size_t len);

/* Writes a tool result's content as transcript text: strings as they are, text blocks
 * joined by newlines, media as "[image]", anything else as JSON, all of it through
 * mf_put_content. serialize.c */
void mf_write_result_text(mf_buf *b, const mf_node *content);

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

#endif /* MIDFOLD_INTERNAL_H */
