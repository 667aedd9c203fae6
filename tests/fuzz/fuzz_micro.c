/* fuzz_micro.c — mf_doc_micro_plan on JSON or tree input, options from 4 bytes (see
 * common.h), then the plan applied to the document the way js/core/apply.js applies it.
 *
 * Invariants:
 * - the plan never raises the estimate (milli_after <= milli_before), and milli_before
 *   is the conversation's estimate (mf_doc_estimate in the same format);
 * - a skipped plan has no edits and no change; chars_cleared is the sum of the edits';
 * - edits come in message order, point at an existing message (and content entry), and
 *   each replacement is exactly "[truncated: NAME result, CHARS chars]" with NAME
 *   the edit's tool name (invalid UTF-8 repaired) and, for string content, CHARS the
 *   independently counted code points of the original; with a recall key (an option bit)
 *   the marker ends " · recall ID]", ID the result's own (mf_result_recall_id), priced
 *   exactly in milli_after;
 * - no edit falls in the last keep_recent tool-result turns (consecutive tool messages
 *   are one turn) and no excluded tool is cleared;
 * - with clear_tool_inputs, an edit of a call's input (MF_EDIT_CALL_*) lies before the
 *   result it goes with, names a tool call of its message, and its replacement is JSON that
 *   parses (an object);
 * - the signed thinking answers name what exists: an in-flight message, drops (only with
 *   edits, from the first edited message on) of signed parts, their estimates summed;
 * - after applying the edits: the estimate is exactly milli_after, a second plan has
 *   nothing left to clear, and a conversation that validated clean still does. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static size_t problems_of(const mf_doc *doc, mf_format format)
{
    mf_validation *v = NULL;
    mf_error err;
    CHECK(mf_doc_validate(doc, format, &v, &err) == MF_OK, "validate failed: %s", err.message);
    size_t n = v->count;
    mf_validation_free(v);
    return n;
}

/* Writes the replacement text into `node` (a member of the document), as a string or
 * as an AI SDK output object {type, value}. Memory comes from the document's arena. */
static void set_result(mf_doc *doc, mf_node *node, const mf_micro_edit *e)
{
    CHECK(node != NULL, "edit of message %zu part %zu: nothing there to replace", e->message, e->part);
    char *text = mf_arena_strdup(&doc->arena, e->replacement, e->replacement_len);
    if (!text) abort();
    const char *key = node->key;
    size_t key_len = node->key_len;
    memset(node, 0, sizeof *node);
    node->key = key;
    node->key_len = key_len;
    if (e->target == MF_EDIT_PART_OUTPUT || e->target == MF_EDIT_PART_OUTPUT_ERROR) {
        mf_node *items = mf_arena_calloc(&doc->arena, 2, sizeof *items);
        if (!items) abort();
        const char *type = e->target == MF_EDIT_PART_OUTPUT ? "text" : "error-text";
        items[0] = (mf_node){.kind = MF_STRING, .str = type, .len = strlen(type), .key = "type", .key_len = 4};
        items[1] = (mf_node){.kind = MF_STRING, .str = text, .len = e->replacement_len, .key = "value", .key_len = 5};
        node->kind = MF_OBJECT;
        node->count = 2;
        node->items = items;
    } else {
        node->kind = MF_STRING;
        node->str = text;
        node->len = e->replacement_len;
    }
}

/* The cJSON trees that parsed input edits borrow their strings from, freed after the doc. */
static void *owners[4096];
static size_t owner_count;

/* A call's new input (clear_tool_inputs), as js/core/apply.js sets it: the parsed object where
 * the format holds a value, the JSON text as a string where it holds a string of JSON. */
static void apply_input(mf_doc *doc, mf_node *msg, const mf_micro_edit *e)
{
    char *text = mf_arena_strdup(&doc->arena, e->replacement, e->replacement_len);
    if (!text) abort();
    mf_node value = {.kind = MF_STRING, .str = text, .len = e->replacement_len};
    bool as_text = e->target == MF_EDIT_CALL_ARGUMENTS || e->target == MF_EDIT_ITEM_ARGUMENTS;
    if (!as_text) {
        mf_node *tree = NULL;
        void *owner = NULL;
        CHECK(mf_json_to_tree(&doc->arena, text, e->replacement_len, &tree, &owner, NULL) == MF_OK && tree && tree->kind == MF_OBJECT,
              "input edit of message %zu is no JSON object: %.*s", e->message, (int)e->replacement_len, e->replacement);
        CHECK(owner_count < sizeof owners / sizeof *owners, "too many input edits");
        owners[owner_count++] = owner;
        value = *tree;
    }
    mf_node *holder = msg;
    if (e->target != MF_EDIT_ITEM_ARGUMENTS) {
        bool listed = e->target == MF_EDIT_CALL_ARGUMENTS || e->target == MF_EDIT_MESSAGE_CALL_ARGS;
        const mf_node *list = mf_get(msg, listed ? "tool_calls" : e->target == MF_EDIT_UI_INPUT ? "parts" : "content");
        CHECK(list && list->kind == MF_ARRAY && e->part < list->count, "input edit part %zu out of range", e->part);
        holder = &list->items[e->part];
        if (e->target == MF_EDIT_CALL_ARGUMENTS) holder = (mf_node *)mf_get(holder, "function");
    }
    const char *key = e->target == MF_EDIT_CALL_ARGUMENTS || e->target == MF_EDIT_ITEM_ARGUMENTS ? "arguments"
                    : e->target == MF_EDIT_CALL_ARGS || e->target == MF_EDIT_MESSAGE_CALL_ARGS ? "args" : "input";
    mf_node *field = (mf_node *)mf_get(holder, key);
    CHECK(field != NULL, "input edit of message %zu part %zu: no %s there", e->message, e->part, key);
    value.key = field->key;
    value.key_len = field->key_len;
    *field = value;
}

static void apply(mf_doc *doc, const mf_micro_edit *e)
{
    mf_node *msg = (mf_node *)&doc->messages->items[e->message];
    if (e->target >= MF_EDIT_CALL_INPUT) { apply_input(doc, msg, e); return; }
    if (e->target == MF_EDIT_MESSAGE_CONTENT) { set_result(doc, (mf_node *)mf_get(msg, "content"), e); return; }
    if (e->target == MF_EDIT_ITEM_OUTPUT) { set_result(doc, (mf_node *)mf_get(msg, "output"), e); return; }
    bool ui = e->target == MF_EDIT_UI_OUTPUT || e->target == MF_EDIT_UI_ERROR_TEXT; /* messages[m].parts[p] */
    const mf_node *content = mf_get(msg, ui ? "parts" : "content");
    CHECK(content && content->kind == MF_ARRAY && e->part < content->count, "edit part %zu out of range", e->part);
    mf_node *block = &content->items[e->part];
    if (e->target >= MF_EDIT_RESULT_STDOUT) { /* Anthropic server-tool results: js/core/apply.js's copy */
        mf_node *old = (mf_node *)mf_get(block, "content");
        char *text = mf_arena_strdup(&doc->arena, e->replacement, e->replacement_len);
        const mf_node *left = text ? mf_anthropic_cleared(&doc->arena, old, e->target, text, e->replacement_len) : NULL;
        CHECK(old && left, "server-tool edit of message %zu part %zu applies to nothing", e->message, e->part);
        const char *key = old->key;
        size_t key_len = old->key_len;
        *old = *left;
        old->key = key;
        old->key_len = key_len;
        return;
    }
    const char *field = e->target == MF_EDIT_BLOCK_CONTENT ? "content" : e->target == MF_EDIT_PART_RESULT ? "result"
                      : e->target == MF_EDIT_UI_ERROR_TEXT ? "errorText" : "output";
    CHECK(ui || (e->target >= MF_EDIT_BLOCK_CONTENT && e->target <= MF_EDIT_PART_RESULT), "target %d", e->target);
    set_result(doc, (mf_node *)mf_get(block, field), e);
}

static bool has_results(const mf_view *v, size_t m)
{
    for (size_t p = 0; p < v->msgs[m].count; p++)
        if (v->msgs[m].parts[p].kind == MF_PART_TOOL_RESULT) return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    if (!fuzz_load(data, size, FUZZ_MICRO_OPTION_BYTES, &in)) return 0;
    mf_doc *doc = in.parsed;
    mf_error err;
    mf_micro_options o;
    const char *names[8];
    fuzz_micro_options(in.options, &o, names);

    mf_micro_plan *plan = NULL;
    mf_status st = mf_doc_micro_plan(doc, in.format, &o, &plan, &err);
    if (mf_doc_is_conversation(doc, NULL) && !fuzz_format_supported(in.format)) {
        fuzz_check_format_refused(st, &err, in.format, "micro plan");
        CHECK(plan == NULL, "plan left on failure");
        goto done;
    }
    if (st) {
        CHECK(plan == NULL, "plan left on failure");
        CHECK(st == MF_ERR_SHAPE || st == MF_ERR_FORMAT, "unexpected status %d (%s)", st, err.message);
        goto done;
    }
    mf_format fmt = fuzz_effective_format(doc, in.format);
    uint64_t estimate = 0;
    CHECK(mf_doc_estimate(doc, fmt, o.profile, &estimate, &err) == MF_OK, "estimate failed");
    CHECK(plan->milli_before == estimate, "milli_before %" PRIu64 " != estimate %" PRIu64, plan->milli_before, estimate);
    CHECK(plan->milli_after <= plan->milli_before, "after %" PRIu64 " > before %" PRIu64, plan->milli_after,
          plan->milli_before);
    if (plan->skipped)
        CHECK(plan->count == 0 && plan->chars_cleared == 0 && plan->milli_after == plan->milli_before, "skipped plan changes");

    mf_view view;
    CHECK(mf_view_build(doc, fmt, &view, &err) == MF_OK, "view failed");
    /* Turns after each message, counted from the end: a message with results starts a
     * turn unless it is a tool message right after another tool message with results. */
    size_t *turns_after = calloc(view.count + 1, sizeof *turns_after);
    if (!turns_after) abort();
    for (size_t m = view.count; m-- > 0;) {
        bool starts = has_results(&view, m) &&
                      !(view.msgs[m].role == MF_ROLE_TOOL && m > 0 && view.msgs[m - 1].role == MF_ROLE_TOOL &&
                        has_results(&view, m - 1));
        turns_after[m] = turns_after[m + 1] + starts;
    }
    size_t chars = 0;
    for (size_t i = 0; i < plan->count; i++) {
        const mf_micro_edit *e = &plan->edits[i];
        CHECK(e->message < view.count, "edit message %zu of %zu", e->message, view.count);
        bool input = e->target >= MF_EDIT_CALL_INPUT;
        CHECK(!input || o.clear_tool_inputs, "an input edit without clear_tool_inputs");
        /* (a UIMessage tool part gets two edits, its output's and its input's) */
        if (i) CHECK(e->message > plan->edits[i - 1].message ||
                         (e->message == plan->edits[i - 1].message && (e->part > plan->edits[i - 1].part ||
                          (input && e->part == plan->edits[i - 1].part && plan->edits[i - 1].target < MF_EDIT_CALL_INPUT))),
                     "edits out of order at %zu", i);
        CHECK(turns_after[e->message + 1] >= o.keep_recent, "edit in message %zu inside the last %u turns",
              e->message, o.keep_recent);
        chars += e->chars;
        CHECK(e->tool_name_len > 0, "edit without a tool name");
        for (size_t k = 0; k < o.exclude_count; k++)
            CHECK(!(strlen(o.exclude_tools[k]) == e->tool_name_len && memcmp(o.exclude_tools[k], e->tool_name, e->tool_name_len) == 0),
                  "excluded tool %s cleared", o.exclude_tools[k]);
        if (input) {
            const mf_msg *msg = &view.msgs[e->message];
            bool call = false;
            for (size_t p = 0; p < msg->count; p++)
                call |= msg->parts[p].kind == MF_PART_TOOL_CALL && msg->parts[p].index == e->part;
            CHECK(call, "input edit of message %zu part %zu names no tool call", e->message, e->part);
            CHECK(fuzz_utf8_valid(e->replacement, e->replacement_len), "input replacement not UTF-8");
            continue;
        }
        mf_buf want;
        mf_buf_init(&want);
        mf_buf_puts(&want, "[truncated: ");
        mf_buf_put_utf8(&want, e->tool_name, e->tool_name_len);
        char tail[64];
        snprintf(tail, sizeof tail, " result, %zu chars", e->chars);
        mf_buf_puts(&want, tail);
        if (o.recall_key_len) { /* the marker names the id of what it replaces */
            CHECK(e->recall_id_len == MF_RECALL_ID_LEN && e->recall_id[0] == 'r', "edit without a recall id");
            mf_buf_puts(&want, " \xc2\xb7 recall ");
            mf_buf_append(&want, e->recall_id, e->recall_id_len);
        } else {
            CHECK(e->recall_id_len == 0, "a recall id without a recall key");
        }
        mf_buf_putc(&want, ']');
        CHECK(!want.failed && want.len == e->replacement_len && memcmp(want.data, e->replacement, want.len) == 0,
              "replacement \"%.*s\"", (int)e->replacement_len, e->replacement);
        mf_buf_free(&want);
        CHECK(fuzz_utf8_valid(e->replacement, e->replacement_len), "replacement not UTF-8");
        /* The original content, found again from the document. */
        const mf_msg *msg = &view.msgs[e->message];
        const mf_part *part = NULL;
        for (size_t p = 0; p < msg->count; p++)
            if (msg->parts[p].kind == MF_PART_TOOL_RESULT && msg->parts[p].index == e->part) part = &msg->parts[p];
        CHECK(part != NULL, "edit of message %zu part %zu names no tool result", e->message, e->part);
        CHECK(part->target == e->target, "target %d vs %d", e->target, part->target);
        const mf_node *c = part->content;
        if (o.recall_key_len) {
            char id[MF_RECALL_ID_LEN];
            CHECK(mf_result_recall_id(o.recall_key, o.recall_key_len, e->tool_name, e->tool_name_len, c, id) &&
                      memcmp(id, e->recall_id, MF_RECALL_ID_LEN) == 0,
                  "the recall id is not its result's");
        }
        if (c && c->kind == MF_STRING)
            CHECK(e->chars == fuzz_count_code_points(c->str, c->len), "chars %zu, string of %zu code points", e->chars,
                  fuzz_count_code_points(c->str, c->len));
        /* An AI SDK text output counts its value. (Other objects may be read otherwise: a
         * type ending in "_result" is an Anthropic server-tool result to every reader.) */
        const mf_node *output_type = c && c->kind == MF_OBJECT ? mf_get_str(c, "type") : NULL;
        if ((mf_str_eq(output_type, "text") || mf_str_eq(output_type, "error-text")) && mf_get_str(c, "value")) {
            const mf_node *value = mf_get_str(c, "value");
            CHECK(e->chars == fuzz_count_code_points(value->str, value->len), "chars of an output value");
        }
    }
    CHECK(chars == plan->chars_cleared, "chars_cleared %zu, sum %zu", plan->chars_cleared, chars);
    /* The signed thinking answers (src/signed.c): an existing message in flight; drops only with
     * edits, in message order, from the first edited message on, each naming a signed part of an
     * assistant message that holds something else, their estimates summed and within the plan's. */
    CHECK(plan->in_flight == SIZE_MAX || plan->in_flight < view.count, "in_flight %zu of %zu", plan->in_flight, view.count);
    CHECK(plan->count || plan->drop_count == 0, "drops without edits");
    uint64_t dropped = 0;
    for (size_t d = 0; d < plan->drop_count; d++) {
        const mf_signed_drop *x = &plan->drops[d];
        CHECK(x->message < view.count && x->message >= plan->edits[0].message && !x->alone, "drop %zu of message %zu", d, x->message);
        if (d) CHECK(x->message >= plan->drops[d - 1].message, "drops out of order at %zu", d);
        const mf_msg *msg = &view.msgs[x->message];
        if (x->kind == MF_DROP_BESIDE) {
            CHECK(x->part == SIZE_MAX && msg->signed_details, "a beside drop of message %zu without signed details", x->message);
        } else {
            mf_signing want = x->kind == MF_DROP_PART ? MF_SIGNING_THINKING : MF_SIGNING_DETAILS;
            bool found = false;
            for (size_t p = 0; p < msg->count; p++) found = found || (msg->parts[p].index == x->part && msg->parts[p].signing == want);
            CHECK(found, "drop of message %zu part %zu names no part signed so", x->message, x->part);
        }
        dropped += x->milli;
    }
    CHECK(dropped == plan->milli_drops && dropped <= plan->milli_after, "drops %" PRIu64 ", plan %" PRIu64, dropped, plan->milli_drops);
    free(turns_after);
    mf_view_free(&view);

    if (plan->count) {
        size_t problems_before = problems_of(doc, fmt);
        for (size_t i = 0; i < plan->count; i++) apply(doc, &plan->edits[i]);
        uint64_t after = 0;
        CHECK(mf_doc_estimate(doc, fmt, o.profile, &after, &err) == MF_OK, "estimate after edits failed");
        CHECK(after == plan->milli_after, "estimate after edits %" PRIu64 ", plan said %" PRIu64, after, plan->milli_after);
        mf_micro_plan *second = NULL;
        CHECK(mf_doc_micro_plan(doc, fmt, &o, &second, &err) == MF_OK, "second plan failed: %s", err.message);
        CHECK(second->count == 0, "a second plan still clears %zu results", second->count);
        mf_micro_plan_free(second);
        if (problems_before == 0) CHECK(problems_of(doc, fmt) == 0, "a clean conversation no longer validates");
    }
    mf_micro_plan_free(plan);
done:
    fuzz_release(&in);
    for (size_t k = 0; k < owner_count; k++) mf_json_owner_free(owners[k]);
    owner_count = 0;
    return 0;
}
