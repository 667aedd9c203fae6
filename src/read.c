/* read.c — the reader of blocks no adapter knows: "[block: TYPE] " and their text fields,
 * never their opaque strings (encrypted content, signatures, base64). A reader function (an
 * adapter's, or this one) tells what a block is made of through an mf_reader; its sinks
 * (the estimate, the transcript, the marker's count: result.h) are where that is priced,
 * written and counted. */
#include "view.h"

#include <string.h>

/* ---- blocks midfold does not know ------------------------------------------------- */

/* Members whose strings are not text: identifiers, opaque payloads, media types. */
static bool opaque_key(const mf_node *item)
{
    static const char *const keys[] = {"type", "id", "tool_use_id", "signature", "data", "file_id",
                                       "media_type", "cache_control", "citations", NULL};
    if (!item->key) return false;
    if (item->key_len >= 10 && memcmp(item->key, "encrypted_", 10) == 0) return true;
    for (int i = 0; keys[i]; i++)
        if (strlen(keys[i]) == item->key_len && memcmp(keys[i], item->key, item->key_len) == 0) return true;
    return false;
}

static void text_fields(const mf_reader *r, const mf_node *node, bool *first)
{
    if (node->kind == MF_STRING && node->len) {
        if (!*first) r->label(r->ctx, "\n", 1);
        *first = false;
        r->text(r->ctx, node->str, node->len);
    } else if (node->kind == MF_ARRAY || node->kind == MF_OBJECT) {
        for (uint32_t i = 0; i < node->count; i++)
            if (!opaque_key(&node->items[i])) text_fields(r, &node->items[i], first);
    }
}

/* "[block: TYPE] " and the text fields. The type is content (whoever relays an MCP
 * server's blocks writes it), so it never stands where a marker's word is: a block of
 * type "user" reads "[block: user]", never "[user]". */
bool mf_read_text_fields(const mf_reader *r, const mf_node *node)
{
    const mf_node *type = mf_get_str(node, "type");
    bool first = true;
    r->label(r->ctx, "[block", 6);
    if (type && type->len) {
        r->label(r->ctx, ": ", 2);
        r->text(r->ctx, type->str, type->len);
    }
    r->label(r->ctx, "] ", 2);
    text_fields(r, node, &first);
    return true;
}
