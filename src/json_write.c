/* json_write.c — values printed the way a summarizer reads them best: compact JSON with
 * ": " and ", " separators and non-ASCII left as is (Python's json.dumps with
 * ensure_ascii=False), numbers by their own text. */
#include "tree.h"

void mf_write_json(mf_buf *b, const mf_node *node)
{
    if (!node) { mf_buf_puts(b, "null"); return; }
    switch ((mf_kind)node->kind) {
    case MF_NULL: mf_buf_puts(b, "null"); return;
    case MF_FALSE: mf_buf_puts(b, "false"); return;
    case MF_TRUE: mf_buf_puts(b, "true"); return;
    case MF_NUMBER: mf_buf_put_utf8(b, node->str, node->len); return;
    case MF_STRING: mf_buf_put_json_string(b, node->str, node->len); return;
    case MF_BLOB: /* opaque bytes: their size, never a dump */
        mf_buf_puts(b, "\"[binary: ");
        mf_buf_put_uint(b, node->len);
        mf_buf_puts(b, " bytes]\"");
        return;
    case MF_ARRAY: case MF_OBJECT: {
        bool object = node->kind == MF_OBJECT;
        mf_buf_putc(b, object ? '{' : '[');
        for (uint32_t i = 0; i < node->count; i++) {
            const mf_node *item = &node->items[i];
            if (i) mf_buf_append(b, ", ", 2);
            if (object) {
                mf_buf_put_json_string(b, item->key, item->key_len);
                mf_buf_append(b, ": ", 2);
            }
            mf_write_json(b, item);
        }
        mf_buf_putc(b, object ? '}' : ']');
        return;
    }
    }
}
