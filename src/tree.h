/* tree.h — the generic value tree every input becomes (JSON text, the binary
 * tree encoding), the tool-call id map, documents, and JSON written back out. Not installed. */
#ifndef MIDFOLD_TREE_H
#define MIDFOLD_TREE_H

#include "base.h"

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
/* A copy of object `obj` whose member `key` is `value` (replacing the one mf_get reads, or
 * added after the others, as a JS assignment adds a key): the items are copied into
 * `arena`, their values borrowed; `key` must outlive the copy. NULL on OOM. */
mf_node *mf_with_member(mf_arena *arena, const mf_node *obj, const char *key, mf_node value);

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
/* The number parser (strtod.c): s must end with a byte that is no part of a number. */
double mf_strtod(const char *s, char **end);
/* True when the value holds a list of role-tagged messages; else *bad_index (when
 * given) receives the first entry that is not a message, or SIZE_MAX. doc.c */
bool mf_doc_is_conversation(const mf_doc *doc, size_t *bad_index);
/* The binary tree encoding to a tree in `arena`; strings borrow `buf`. tree_decode.c */
mf_status mf_tree_decode(mf_arena *arena, const uint8_t *buf, size_t len, mf_node **out,
                         mf_error *err);

/* ---- JSON out (json_write.c, json_reprint.c, json_number.c) ------------------------ */
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

#endif /* MIDFOLD_TREE_H */
