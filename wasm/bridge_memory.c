/* bridge_memory.c — the memory tool's wasm module (wasm/midfold-memory.wasm): its own
 * exports, loaded only by those who import midfold/memory (js/memory/tool.js). The ownership
 * rules are bridge_common.h's. */
#include "bridge_common.h"
#include "midfold_memory.h"

static void put_memory_strs(mf_buf *b, const char *name, const mf_memory_str *items, size_t n)
{
    mf_buf_puts(b, ",\"");
    mf_buf_puts(b, name);
    mf_buf_puts(b, "\":[");
    for (size_t i = 0; i < n; i++) {
        if (i) mf_buf_putc(b, ',');
        mf_buf_put_json_string(b, items[i].ptr, items[i].len);
    }
    mf_buf_putc(b, ']');
}

/* Runs one step of a memory-tool command (see mf_memory_run). `buf` holds the request
 * {input, files, lists, sizes} in the tree encoding; a limit of 0 means its default.
 * The step is JSON text, either
 *   {"done":false,"locks":[...],"get":[...],"list":[...],"size":[...]}
 * or
 *   {"done":true,"locks":[...],"content":"...","isError":false,"ops":[
 *     {"op":"put","path":"...","text":"..."}, {"op":"delete","path":"..."},
 *     {"op":"rename","path":"...","to":"..."}]} */
EXPORT int mfw_memory_step(const uint8_t *buf, size_t len, double max_file_bytes, double max_files,
                           double max_view_bytes, char **out_ptr, size_t *out_len, mfw_error *e)
{
    mf_error err;
    mf_doc *request = NULL;
    mf_status st = mf_doc_parse_tree(buf, len, &request, &err);
    if (st) return report(e, &err, st);
    mf_memory_limits limits;
    mf_memory_limits_init(&limits);
    if (max_file_bytes > 0) limits.max_file_bytes = (uint64_t)max_file_bytes;
    if (max_files > 0) limits.max_files = (uint64_t)max_files;
    if (max_view_bytes > 0) limits.max_view_bytes = (uint64_t)max_view_bytes;
    mf_memory_step *step = NULL;
    st = mf_memory_run(request, &limits, &step, &err);
    if (st) {
        mf_doc_free(request);
        return report(e, &err, st);
    }
    mf_buf b;
    mf_buf_init(&b);
    mf_buf_puts(&b, step->done ? "{\"done\":true" : "{\"done\":false");
    put_memory_strs(&b, "locks", step->locks, step->lock_count);
    if (!step->done) {
        put_memory_strs(&b, "get", step->get, step->get_count);
        put_memory_strs(&b, "list", step->list, step->list_count);
        put_memory_strs(&b, "size", step->size, step->size_count);
    } else {
        mf_buf_puts(&b, ",\"content\":");
        mf_buf_put_json_string(&b, step->content, step->content_len);
        mf_buf_puts(&b, step->is_error ? ",\"isError\":true,\"ops\":[" : ",\"isError\":false,\"ops\":[");
        for (size_t i = 0; i < step->op_count; i++) {
            const mf_memory_op *op = &step->ops[i];
            if (i) mf_buf_putc(&b, ',');
            mf_buf_puts(&b, op->kind == MF_MEMORY_PUT ? "{\"op\":\"put\",\"path\":"
                            : op->kind == MF_MEMORY_DELETE ? "{\"op\":\"delete\",\"path\":"
                                                           : "{\"op\":\"rename\",\"path\":");
            mf_buf_put_json_string(&b, op->path.ptr, op->path.len);
            if (op->kind == MF_MEMORY_PUT) {
                mf_buf_puts(&b, ",\"text\":");
                mf_buf_put_json_string(&b, op->text.ptr, op->text.len);
            } else if (op->kind == MF_MEMORY_RENAME) {
                mf_buf_puts(&b, ",\"to\":");
                mf_buf_put_json_string(&b, op->to.ptr, op->to.len);
            }
            mf_buf_putc(&b, '}');
        }
        mf_buf_putc(&b, ']');
    }
    mf_buf_putc(&b, '}');
    mf_memory_step_free(step);
    mf_doc_free(request);
    return report(e, &err, mf_buf_finish(&b, out_ptr, out_len, &err));
}
