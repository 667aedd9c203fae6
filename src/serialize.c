/* serialize.c — the transcript a summarizer reads.
 *
 *   [user]
 *   Please read the config file
 *
 *   [assistant]
 *   [tool_use:read_file] {"file_path": "config.toml"}
 *
 *   [user]
 *   [tool_result:read_file] 1: [provider]
 *
 * Decisions: the same conversation gives the same transcript in every format, so
 * OpenAI and AI SDK `tool` messages appear under "[user]" (where Anthropic keeps tool
 * results), consecutive ones merged into one section. System messages appear as
 * "[system]" (the compactor never sends them: they are kept, not summarized), a role
 * midfold does not know as "[role: NAME]". Thinking is kept as "[thinking] text" since the
 * reasoning behind a decision is what a summary must keep; redacted thinking is opaque and
 * shows as "[redacted_thinking]". A failed tool
 * result is "[tool_error:NAME] text"; a result whose call is missing names "unknown".
 * Text after a tool result in the same message gets a "[user]" header of its own, as it
 * has in OpenAI and AI SDK form (where it is a message of its own); a part a tool message
 * may not hold (text in an AI SDK tool message) is the tool side's, in its result's region.
 * Images are "[image]", documents "[document]" or "[document: TITLE]". Blocks an adapter
 * reads (part->read: Anthropic documents, search results, MCP calls, server-tool results)
 * are written by what they read: titles, URLs, text, never opaque strings; a tool result's
 * content by the result walk (result.c), all of it the result's content, placeholders
 * included. AI SDK
 * files are "[file: NAME]" (never their data); AI SDK approvals "[approval_request:NAME]" and
 * "[approval:NAME] approved" / "denied: REASON"; an execution denial "[execution denied]".
 *
 * Every piece of content goes through mf_put_content (content.c), which escapes any
 * content line that would read as one of the markers above; markers are literals. A
 * user message that starts with "[Context Compressed]" is an earlier summary: that mark
 * is written as the marker it is, and the summary after it is content. */
#include "prompt.h"
#include "result.h"
#include "transcript.h"

#include <string.h>

static void put_tool_name(mf_buf *b, const char *name, size_t len)
{
    if (name && len) mf_put_content(b, name, len);
    else mf_buf_puts(b, "unknown");
}

/* Text re-printed into a scratch buffer (OpenAI arguments, the truncation marker with
 * its tool name, a media placeholder) reaches the transcript through the door like any other content. */
static void put_scratch(mf_buf *b, mf_buf *scratch)
{
    if (scratch->failed) b->failed = true;
    else mf_put_content(b, scratch->data, scratch->len);
    mf_buf_free(scratch);
}

/* ---- the transcript as a sink of the result walk (result.c) and of the adapters' readers ---- */

/* A block read at the top of a message opens with its own marker ("[document: TITLE]",
 * "[tool_use:SERVER/NAME] ", "[block: TYPE] "): its labels are written as they are until
 * its first text, value or line break. Everything after that, and everything a tool result
 * holds (its labels, its placeholders, the breaks between its blocks), is content of what
 * holds it and goes through the door like the text around it: on a line of its own
 * "[document: report.pdf]" or "[image]" reads "\[document: report.pdf]", "\[image]", so
 * the next line that starts with "[" is always the message's next part, never more of the
 * result. */
typedef struct write_ctx { mf_buf *b; bool marker; } write_ctx;

static void write_text(void *c, const char *s, size_t len)
{
    write_ctx *w = c;
    w->marker = false;
    mf_put_content(w->b, s, len);
}
static void write_label(void *c, const char *s, size_t len)
{
    write_ctx *w = c;
    if (w->marker && !memchr(s, '\n', len)) {
        mf_buf_append(w->b, s, len);
        return;
    }
    w->marker = false;
    mf_put_content(w->b, s, len);
}
static void write_value(void *c, const mf_node *node)
{
    write_ctx *w = c;
    w->marker = false;
    if (node) mf_put_content_json(w->b, node); /* tool input is content: through the door */
    else mf_put_content(w->b, "{}", 2);
}
static void write_units(void *c, bool image, uint64_t units) { (void)c; (void)image; (void)units; } /* labels show them */
static void write_item(void *c, mf_media_kind kind, const mf_media *media, const mf_node *name)
{
    write_ctx *w = c;
    w->marker = false;
    mf_buf scratch;
    mf_buf_init(&scratch);
    mf_write_media(&scratch, kind, media, name ? name->str : NULL, name ? name->len : 0);
    put_scratch(w->b, &scratch);
}
static void write_denied(void *c, const mf_node *reason)
{
    write_ctx *w = c;
    w->marker = false;
    mf_put_content(w->b, "[execution denied]", 18); /* inside the result: content, like its placeholders */
    if (reason && reason->len) {
        mf_buf_putc(w->b, ' ');
        mf_put_content(w->b, reason->str, reason->len);
    }
}

static mf_result_sink write_sink(write_ctx *w)
{
    return (mf_result_sink){ { write_text, write_label, write_value, write_units, w }, write_item, write_denied };
}

void mf_write_result_text(mf_buf *b, const mf_node *content)
{
    write_ctx w = {b, false};
    mf_result_sink sink = write_sink(&w);
    mf_read_result(&sink, content);
}

/* Writes what an adapter's reader tells of a block at the top of a message, opening with
 * its own marker; false (nothing written) when the reader does not know the block. */
static bool read_write(mf_read_fn read, mf_buf *b, const mf_node *node)
{
    write_ctx w = {b, true};
    mf_result_sink sink = write_sink(&w);
    return read(&sink.read, node);
}

static bool is_summary_text(const mf_part *part)
{
    return part->kind == MF_PART_TEXT && part->text_len >= sizeof MF_SUMMARY_MARK - 1 &&
           memcmp(part->text, MF_SUMMARY_MARK, sizeof MF_SUMMARY_MARK - 1) == 0;
}

static bool result_is_empty(const mf_node *content)
{
    return !content || content->kind == MF_NULL || (content->kind == MF_STRING && !content->len) ||
           (content->kind == MF_ARRAY && !content->count);
}

static void write_part(mf_buf *b, const mf_part *part, bool shrink)
{
    shrink = shrink && part->kind == MF_PART_TOOL_RESULT && !part->pinned && !mf_result_is_truncated(part->content);
    if (part->read && read_write(part->read, b, part->node)) return; /* the adapter knows how it reads */
    switch (part->kind) {
    case MF_PART_TEXT:
        mf_put_content(b, part->text, part->text_len);
        break;
    case MF_PART_THINKING:
        mf_buf_puts(b, "[thinking] ");
        mf_put_content(b, part->text, part->text_len);
        break;
    case MF_PART_REDACTED_THINKING:
        mf_buf_puts(b, part->opaque_len ? "[compacted context]" : "[redacted_thinking]");
        break;
    case MF_PART_TOOL_CALL:
        mf_buf_puts(b, "[tool_use:");
        put_tool_name(b, part->name, part->name_len);
        mf_buf_puts(b, "] ");
        if (part->args && part->args->kind == MF_STRING) {
            mf_buf args;
            mf_buf_init(&args);
            mf_write_json_text(&args, part->args->str, part->args->len);
            put_scratch(b, &args);
        } else if (part->args) {
            mf_put_content_json(b, part->args);
        } else {
            mf_buf_puts(b, "{}");
        }
        break;
    case MF_PART_TOOL_RESULT:
        mf_buf_puts(b, part->is_error ? "[tool_error:" : "[tool_result:");
        put_tool_name(b, part->name, part->name_len);
        mf_buf_putc(b, ']');
        if (!result_is_empty(part->content) || shrink) mf_buf_putc(b, ' '); /* no trailing space when empty */
        if (shrink) {
            size_t failures = mf_alloc_failures();
            size_t chars = mf_tool_result_chars(part->content);
            if (mf_alloc_failures() != failures) b->failed = true; /* the count would be wrong */
            mf_buf marker;
            mf_buf_init(&marker);
            mf_write_marker(&marker, part->name_len ? part->name : "unknown", part->name_len ? part->name_len : 7, chars);
            put_scratch(b, &marker);
        } else
            mf_write_result_text(b, part->content);
        break;
    case MF_PART_IMAGE:
        mf_buf_puts(b, "[image]");
        break;
    case MF_PART_DOCUMENT:
        mf_write_media(b, MF_MEDIA_DOCUMENT, &part->media, part->text, part->text_len);
        break;
    case MF_PART_OTHER:
        mf_put_content_json(b, part->node);
        break;
    case MF_PART_APPROVAL: { /* "[approval_request:NAME]", "[approval:NAME] approved" / "denied: reason" */
        bool request = mf_str_eq(part->type, "tool-approval-request");
        mf_buf_puts(b, request ? "[approval_request:" : "[approval:");
        put_tool_name(b, part->name, part->name_len);
        mf_buf_putc(b, ']');
        if (!request) mf_buf_puts(b, part->is_error ? " denied" : " approved");
        if (part->text_len) {
            mf_buf_puts(b, request ? " " : ": ");
            mf_put_content(b, part->text, part->text_len);
        }
        break;
    }
    }
}

/* "[user]", "[assistant]", "[system]"; a role midfold does not know is content ("User",
 * " user", "Ｕｓｅｒ" are none of these, and no provider takes them), so it follows a word
 * of midfold's own: "[role: User]". */
static void write_header(mf_buf *b, const mf_msg *msg)
{
    static const char *const names[] = {"system", "user", "assistant", "user"};
    if (msg->role == MF_ROLE_UNKNOWN) {
        mf_buf_puts(b, "[role: ");
        mf_put_content(b, msg->role_node->str, msg->role_node->len);
    } else {
        mf_buf_putc(b, '[');
        mf_buf_puts(b, names[msg->role]);
    }
    mf_buf_puts(b, "]\n");
}

/* An AI SDK tool message holds tool results and approval responses only (its schema): any
 * other part in one is the tool side's output, never the user's words. (A Responses
 * approval response's "approved" is the user's decision: a section of its own.) */
static bool tool_output_part(const mf_view *view, const mf_msg *msg, const mf_part *part)
{
    return view->format == MF_FORMAT_AISDK && msg->role == MF_ROLE_TOOL && part->kind != MF_PART_TOOL_RESULT &&
           part->kind != MF_PART_APPROVAL;
}

/* Such a part goes through the door whole, placeholders included, in the region of the
 * result before it (a tool message that opens with one shows it after a marker of a result
 * of no known call). */
static void write_tool_output_part(mf_buf *b, const mf_part *part, bool first)
{
    if (first) mf_buf_puts(b, "[tool_result:unknown] ");
    if (part->kind == MF_PART_TEXT) {
        mf_put_content(b, part->text, part->text_len);
        return;
    }
    mf_buf scratch;
    mf_buf_init(&scratch);
    write_part(&scratch, part, false);
    put_scratch(b, &scratch);
}

void mf_serialize_list(mf_buf *b, const mf_view *view, const size_t *list, size_t n, const uint8_t *shrink)
{
    for (size_t i = 0; i < n; i++) {
        size_t m = list ? list[i] : i;
        const mf_msg *msg = &view->msgs[m];
        size_t prev = i ? (list ? list[i - 1] : i - 1) : SIZE_MAX;
        bool continues = (msg->role == MF_ROLE_TOOL || msg->item) && prev != SIZE_MAX &&
                         view->msgs[prev].role == msg->role;
        if (continues) {
            mf_buf_putc(b, '\n');
        } else {
            if (i) mf_buf_append(b, "\n\n", 2);
            write_header(b, msg);
        }
        for (size_t p = 0; p < msg->count; p++) {
            const mf_part *part = &msg->parts[p];
            /* A tool result runs until the next marker line, so text after one in the same
             * message (Anthropic keeps the user's words there) opens a section of its own:
             * nothing a result holds can then pass for the user's words that follow it. */
            bool tool_output = tool_output_part(view, msg, part);
            bool after_result = !tool_output && p && msg->parts[p - 1].kind == MF_PART_TOOL_RESULT &&
                                (part->kind == MF_PART_TEXT || part->kind == MF_PART_OTHER);
            if (after_result) {
                mf_buf_append(b, "\n\n", 2);
                write_header(b, msg);
            } else if (p) {
                mf_buf_putc(b, '\n');
            }
            if (tool_output) {
                write_tool_output_part(b, part, p == 0 && !continues);
            } else if (p == 0 && msg->role == MF_ROLE_USER && is_summary_text(part)) {
                mf_buf_puts(b, MF_SUMMARY_MARK);
                mf_put_content(b, part->text + (sizeof MF_SUMMARY_MARK - 1), part->text_len - (sizeof MF_SUMMARY_MARK - 1));
            } else {
                write_part(b, part, shrink && shrink[m]);
            }
        }
    }
}

mf_status mf_doc_serialize(const mf_doc *doc, mf_format format, char **out, size_t *out_len, mf_error *err)
{
    if (!out) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL output pointer");
    *out = NULL;
    mf_view view;
    mf_status st = mf_view_build(doc, format, &view, err);
    if (st) return st;
    mf_buf b;
    mf_buf_init(&b);
    mf_serialize_list(&b, &view, NULL, view.count, NULL);
    mf_view_free(&view);
    return mf_buf_finish(&b, out, out_len, err);
}
