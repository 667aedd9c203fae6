/* json_write.c — values printed the way a summarizer reads them best: compact JSON with
 * ": " and ", " separators and non-ASCII left as is (Python's json.dumps with
 * ensure_ascii=False), numbers by their own text. */
#include "json_scan.h"

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

void mf_write_json_text(mf_buf *b, const char *json, size_t len)
{
    if (!len) { mf_buf_puts(b, "{}"); return; }
    /* Arguments that are not valid JSON (a model can emit those) are shown as they are;
     * running out of memory while printing them fails the whole output instead. Printed
     * by the scanner, not through a parser tree: no JSON parser on the serializer's path. */
    size_t mark = b->len;
    mf_status st = mf_json_reprint(b, json, len);
    if (st == MF_ERR_NOMEM) {
        b->failed = true;
    } else if (st) {
        b->len = mark;
        mf_buf_put_utf8(b, json, len);
    }
}
