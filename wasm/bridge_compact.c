/* bridge_compact.c — the exports a module needs to compact, beside bridge.c's estimator:
 * the transcript, the micro-compaction plan and the compaction plan. wasm/midfold-lite.wasm
 * and wasm/midfold.wasm link it; wasm/midfold-estimate.wasm leaves it out, which saves a
 * page that only estimates 13.5 KB gzipped (docs/download.md). The ownership rules are
 * bridge_common.h's. */
#include <stdint.h>
#include <string.h>

#include "bridge_common.h"

/* The transcript, as a UTF-8 buffer at *out_ptr of *out_len bytes. */
EXPORT int mfw_doc_serialize(const mf_doc *doc, int format, char **out_ptr, size_t *out_len, mfw_error *e)
{
    mf_error err;
    return report(e, &err, mf_doc_serialize(doc, (mf_format)format, out_ptr, out_len, &err));
}

static void put_u32(mf_buf *b, uint32_t v)
{
    char le[4] = {(char)v, (char)(v >> 8), (char)(v >> 16), (char)(v >> 24)};
    mf_buf_append(b, le, 4);
}

static void put_f64(mf_buf *b, double v)
{
    char raw[8];
    memcpy(raw, &v, 8); /* wasm is little-endian */
    mf_buf_append(b, raw, 8);
}

static uint32_t put_index(size_t i) { return i == SIZE_MAX ? UINT32_MAX : (uint32_t)i; }

/* The signed thinking answers (mf_signed_drop), packed: u32 in_flight (0xFFFFFFFF: none), u32
 * 1 when the answer is open (mf_view_in_flight), f64 milli of the drops, u32 drop count, and per drop u32 message, u32 part
 * (0xFFFFFFFF: beside the content), u32 kind, u32 count, u32 alone, u32 keys, f64 milli. */
static void put_signed(mf_buf *b, size_t in_flight, bool open, uint64_t milli, const mf_signed_drop *drops,
                       size_t count)
{
    put_u32(b, put_index(in_flight));
    put_u32(b, open ? 1u : 0u);
    put_f64(b, (double)milli);
    put_u32(b, (uint32_t)count);
    for (size_t d = 0; d < count; d++) {
        put_u32(b, (uint32_t)drops[d].message);
        put_u32(b, put_index(drops[d].part));
        put_u32(b, (uint32_t)drops[d].kind);
        put_u32(b, (uint32_t)drops[d].count);
        put_u32(b, (uint32_t)drops[d].alone);
        put_u32(b, drops[d].keys);
        put_f64(b, (double)drops[d].milli);
    }
}

/* A list's signed thinking: the loop in flight and the signed parts a fold drops from message
 * `from` on (the kept turns of a list that grew while a fold was planned), packed as put_signed
 * writes them. */
EXPORT int mfw_doc_signed(const mf_doc *doc, int format, uint32_t from, int profile, char **out_ptr, size_t *out_len,
                          mfw_error *e)
{
    mf_error err;
    if ((unsigned)profile >= MF_PROFILE_COUNT)
        return report(e, &err, mf_fail(&err, MF_ERR_INVALID_ARG, SIZE_MAX, "unknown profile"));
    mf_view view;
    mf_status st = mf_view_build(doc, (mf_format)format, &view, &err);
    if (st) return report(e, &err, st);
    size_t count = 0;
    bool open;
    size_t in_flight = mf_view_in_flight(&view, &open);
    mf_signed_drop *drops = NULL;
    uint64_t milli = 0;
    st = mf_view_fold_drops(&view, from, (mf_profile)profile, &view.arena, &drops, &count);
    if (st) {
        mf_view_free(&view);
        return report(e, &err, mf_fail(&err, st, SIZE_MAX, "out of memory"));
    }
    for (size_t d = 0; d < count; d++) milli += drops[d].milli;
    mf_buf b;
    mf_buf_init(&b);
    put_signed(&b, in_flight, open, milli, drops, count);
    mf_view_free(&view);
    return report(e, &err, mf_buf_finish(&b, out_ptr, out_len, &err));
}

/* Plans micro-compaction. `excludes` holds `exclude_count` NUL-terminated names back to
 * back. `flags`: bit 0 per_message, bit 1 clear_tool_inputs (mf_micro_options). The plan is written packed (little-endian):
 *   u32 count, u32 skipped, f64 milli_before, f64 milli_after, f64 chars_cleared,
 *   then per edit: u32 message, u32 part (0xFFFFFFFF: none), u32 target, f64 chars,
 *   u32 len + replacement bytes, u32 len + tool name bytes, u32 len + recall id bytes (0
 *   without `recall_key`);
 *   then u32 figure count (0 unless `per_message`) and per message f64 milli, f64 results,
 *   u32 flags (mf_msg_figures);
 *   then u32 thinking count and per thinking part u32 message, u32 part (0xFFFFFFFF: beside
 *   the content), f64 milli (mf_thinking_cost);
 *   then u32 format (mf_format: the one the conversation was read in);
 *   then the signed loop in flight and the drops the edits make (put_signed). */
EXPORT int mfw_doc_micro(const mf_doc *doc, int format, uint32_t keep_recent, const char *excludes,
                         uint32_t exclude_count, double clear_at_least, double trigger, int profile,
                         int flags, const uint8_t *recall_key, uint32_t recall_key_len, char **out_ptr,
                         size_t *out_len, mfw_error *e)
{
    mf_error err;
    mf_micro_options o;
    mf_micro_options_init(&o);
    o.keep_recent = keep_recent;
    o.clear_at_least = (uint64_t)clear_at_least;
    o.trigger = (uint64_t)trigger;
    o.profile = (mf_profile)profile;
    o.per_message = (flags & 1) != 0;
    o.clear_tool_inputs = (flags & 2) != 0;
    o.recall_key = recall_key;
    o.recall_key_len = recall_key_len;
    const char **names = NULL;
    if (exclude_count) {
        names = mf_alloc(exclude_count * sizeof *names);
        if (!names) return report(e, &err, mf_fail(&err, MF_ERR_NOMEM, SIZE_MAX, "out of memory"));
        const char *p = excludes;
        for (uint32_t i = 0; i < exclude_count; i++) { names[i] = p; p += strlen(p) + 1; }
        o.exclude_tools = names;
        o.exclude_count = exclude_count;
    }
    mf_micro_plan *plan = NULL;
    mf_status st = mf_doc_micro_plan(doc, (mf_format)format, &o, &plan, &err);
    mf_dealloc(names);
    if (st) return report(e, &err, st);
    mf_buf b;
    mf_buf_init(&b);
    put_u32(&b, (uint32_t)plan->count);
    put_u32(&b, (uint32_t)plan->skipped);
    put_f64(&b, (double)plan->milli_before);
    put_f64(&b, (double)plan->milli_after);
    put_f64(&b, (double)plan->chars_cleared);
    for (size_t i = 0; i < plan->count; i++) {
        const mf_micro_edit *ed = &plan->edits[i];
        put_u32(&b, (uint32_t)ed->message);
        put_u32(&b, ed->part == SIZE_MAX ? UINT32_MAX : (uint32_t)ed->part);
        put_u32(&b, (uint32_t)ed->target);
        put_f64(&b, (double)ed->chars);
        put_u32(&b, (uint32_t)ed->replacement_len);
        mf_buf_append(&b, ed->replacement, ed->replacement_len);
        put_u32(&b, (uint32_t)ed->tool_name_len);
        mf_buf_append(&b, ed->tool_name, ed->tool_name_len);
        put_u32(&b, (uint32_t)ed->recall_id_len);
        mf_buf_append(&b, ed->recall_id, ed->recall_id_len);
    }
    put_u32(&b, (uint32_t)plan->figure_count);
    for (size_t m = 0; m < plan->figure_count; m++) {
        put_f64(&b, (double)plan->figures[m].milli);
        put_f64(&b, (double)plan->figures[m].results);
        put_u32(&b, plan->figures[m].flags);
    }
    put_u32(&b, (uint32_t)plan->thinking_count);
    for (size_t t = 0; t < plan->thinking_count; t++) {
        put_u32(&b, (uint32_t)plan->thinking[t].message);
        put_u32(&b, plan->thinking[t].part == SIZE_MAX ? UINT32_MAX : (uint32_t)plan->thinking[t].part);
        put_f64(&b, (double)plan->thinking[t].milli);
    }
    put_u32(&b, (uint32_t)plan->format);
    put_signed(&b, plan->in_flight, plan->in_flight_open, plan->milli_drops, plan->drops, plan->drop_count);
    mf_micro_plan_free(plan);
    return report(e, &err, mf_buf_finish(&b, out_ptr, out_len, &err));
}

/* The recall id of `len` bytes at `data` under `key` (mf_recall_id): MF_RECALL_ID_LEN bytes
 * written to `out`, which the caller owns. */
EXPORT void mfw_recall_id(const uint8_t *key, uint32_t key_len, const char *data, uint32_t len, char *out)
{
    mf_recall_id(key, key_len, data, len, out);
}

static void put_index_list(mf_buf *b, const size_t *list, size_t n)
{
    mf_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) mf_buf_putc(b, ',');
        mf_buf_put_uint(b, list[i]);
    }
    mf_buf_putc(b, ']');
}

static void put_field(mf_buf *b, const char *name, uint64_t v)
{
    mf_buf_puts(b, ",\"");
    mf_buf_puts(b, name);
    mf_buf_puts(b, "\":");
    mf_buf_put_uint(b, v);
}

/* The `count` edits packed at `p` (per edit: u32 message, u32 part (0xFFFFFFFF: none),
 * u32 target, u32 len + replacement bytes) read into `edits`, their replacements borrowed
 * from `p`; false when the bytes end before the last edit does. */
static bool read_edits(const uint8_t *p, size_t size, uint32_t count, mf_micro_edit *edits)
{
    size_t at = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t f[4];
        if (size - at < sizeof f) return false;
        memcpy(f, p + at, sizeof f); /* wasm is little-endian */
        at += sizeof f;
        if (size - at < f[3]) return false;
        memset(&edits[i], 0, sizeof edits[i]);
        edits[i].message = f[0];
        edits[i].part = f[1] == UINT32_MAX ? SIZE_MAX : f[1];
        edits[i].target = (mf_edit_target)f[2];
        edits[i].replacement = (const char *)p + at;
        edits[i].replacement_len = f[3];
        at += f[3];
    }
    return true;
}

/* Plans a compaction (keep_tail_messages: mf_compact_options). `language_code` (NUL-terminated) and `instructions` may be 0.
 * `edits` (`edits_size` bytes, read_edits' layout) holds the `edit_count` micro-compaction
 * edits the plan reads the conversation with (mf_compact_options.edits); 0 for none.
 * `message_milli` holds `message_count` per-message estimates (f64, whole milli-tokens) read in
 * `message_format` (mf_compact_options.message_milli); 0 and 0 for none.
 * The plan is JSON text: {"tailStart", "head": [...], "middle": [...], "language",
 * "system", "prompt", "acknowledgement", "transcriptChars", "shrunkResults",
 * "omittedMessages", "milliMiddle", "milliTail", "onlyPreviousSummary", "inFlight", "drops"}. */
EXPORT int mfw_doc_compact(const mf_doc *doc, int format, double keep_tail_tokens, double keep_tail_messages,
                           double max_transcript_tokens,
                           uint32_t max_summary_tokens, int language, const char *language_code,
                           const char *instructions, size_t instructions_len, int profile, const uint8_t *edits,
                           size_t edits_size, uint32_t edit_count, const double *message_milli, uint32_t message_count,
                           int message_format, char **out_ptr, size_t *out_len, mfw_error *e)
{
    mf_error err;
    mf_compact_options o;
    mf_compact_options_init(&o);
    mf_micro_edit *list = NULL;
    if (edit_count) {
        list = mf_alloc(edit_count * sizeof *list);
        if (!list) return report(e, &err, mf_fail(&err, MF_ERR_NOMEM, SIZE_MAX, "out of memory"));
        if (!edits || !read_edits(edits, edits_size, edit_count, list)) {
            mf_dealloc(list);
            return report(e, &err, mf_fail(&err, MF_ERR_INVALID_ARG, SIZE_MAX, "the edits end before their count does"));
        }
        o.edits = list;
        o.edit_count = edit_count;
    }
    uint64_t *milli = NULL;
    if (message_count && message_milli) {
        milli = mf_alloc(message_count * sizeof *milli);
        if (!milli) {
            mf_dealloc(list);
            return report(e, &err, mf_fail(&err, MF_ERR_NOMEM, SIZE_MAX, "out of memory"));
        }
        for (uint32_t m = 0; m < message_count; m++) milli[m] = (uint64_t)message_milli[m];
        o.message_milli = milli;
        o.message_count = message_count;
        o.message_format = (mf_format)message_format;
    }
    o.keep_tail_tokens = (uint64_t)keep_tail_tokens;
    o.keep_tail_messages = (uint64_t)keep_tail_messages;
    o.max_transcript_tokens = (uint64_t)max_transcript_tokens;
    o.max_summary_tokens = max_summary_tokens;
    o.language = (mf_language)language;
    o.language_code = language_code;
    o.instructions = instructions;
    o.instructions_len = instructions_len;
    o.profile = (mf_profile)profile;
    mf_compact_plan *plan = NULL;
    mf_status st = mf_doc_compact_plan(doc, (mf_format)format, &o, &plan, &err);
    mf_dealloc(list);
    mf_dealloc(milli);
    if (st) return report(e, &err, st);
    mf_buf b;
    mf_buf_init(&b);
    mf_buf_puts(&b, "{\"tailStart\":");
    mf_buf_put_uint(&b, plan->tail_start);
    mf_buf_puts(&b, ",\"head\":");
    put_index_list(&b, plan->head, plan->head_count);
    mf_buf_puts(&b, ",\"middle\":");
    put_index_list(&b, plan->middle, plan->middle_count);
    mf_buf_puts(&b, plan->language == MF_LANG_ZH ? ",\"language\":\"zh\"" : ",\"language\":\"en\"");
    mf_buf_puts(&b, ",\"system\":");
    mf_buf_put_json_string(&b, plan->system, plan->system_len);
    mf_buf_puts(&b, ",\"prompt\":");
    mf_buf_put_json_string(&b, plan->prompt, plan->prompt_len);
    mf_buf_puts(&b, ",\"acknowledgement\":");
    mf_buf_put_json_string(&b, plan->acknowledgement, strlen(plan->acknowledgement));
    put_field(&b, "transcriptChars", plan->transcript_chars);
    put_field(&b, "shrunkResults", plan->shrunk_results);
    put_field(&b, "omittedMessages", plan->omitted_messages);
    put_field(&b, "milliMiddle", plan->milli_middle);
    put_field(&b, "milliTail", plan->milli_tail);
    mf_buf_puts(&b, plan->only_previous_summary ? ",\"onlyPreviousSummary\":true" : ",\"onlyPreviousSummary\":false");
    /* the signed loop in flight (-1: none) and the tail's drops, [message, part (-1: beside the
     * content), kind, count, alone, keys, milli] each */
    mf_buf_puts(&b, ",\"inFlight\":");
    if (plan->in_flight == SIZE_MAX) mf_buf_puts(&b, "-1");
    else mf_buf_put_uint(&b, plan->in_flight);
    mf_buf_puts(&b, ",\"drops\":[");
    for (size_t d = 0; d < plan->drop_count; d++) {
        const mf_signed_drop *x = &plan->drops[d];
        mf_buf_puts(&b, d ? ",[" : "[");
        mf_buf_put_uint(&b, x->message);
        mf_buf_puts(&b, ",");
        if (x->part == SIZE_MAX) mf_buf_puts(&b, "-1");
        else mf_buf_put_uint(&b, x->part);
        mf_buf_puts(&b, ",");
        mf_buf_put_uint(&b, (uint64_t)x->kind);
        mf_buf_puts(&b, ",");
        mf_buf_put_uint(&b, x->count);
        mf_buf_puts(&b, x->alone ? ",1," : ",0,");
        mf_buf_put_uint(&b, x->keys);
        mf_buf_puts(&b, ",");
        mf_buf_put_uint(&b, x->milli);
        mf_buf_puts(&b, "]");
    }
    mf_buf_puts(&b, "]}");
    mf_compact_plan_free(plan);
    return report(e, &err, mf_buf_finish(&b, out_ptr, out_len, &err));
}
