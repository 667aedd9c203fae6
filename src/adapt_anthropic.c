/* adapt_anthropic.c — Anthropic Messages: content is a string or a list of blocks;
 * tool_use blocks in assistant messages, tool_result blocks in the next user message.
 * Server tools (server_tool_use and its *_tool_result) and the MCP connector
 * (mcp_tool_use / mcp_tool_result) keep call and result in one assistant message.
 * Every block is read by what the model reads: encrypted_content, signatures and base64
 * are never text (docs/anthropic-blocks.md has the rules and their sources). */
#include "adapt_common.h"
#include "view.h"

#include <string.h>

static bool ends_with(const mf_node *s, const char *suffix)
{
    size_t n = strlen(suffix);
    return s && s->kind == MF_STRING && s->len >= n && memcmp(s->str + s->len - n, suffix, n) == 0;
}

/* ---- reading blocks ---------------------------------------------------------------- */

static void say(const mf_reader *r, const char *label) { r->label(r->ctx, label, strlen(label)); }

/* The member's text, when it has any; returns whether it did. */
static bool text_of(const mf_reader *r, const mf_node *obj, const char *key)
{
    const mf_node *s = mf_get_str(obj, key);
    if (!s || !s->len) return false;
    r->text(r->ctx, s->str, s->len);
    return true;
}

/* A number member as the model reads it (its JSON text). */
static void number_of(const mf_reader *r, const mf_node *obj, const char *key)
{
    const mf_node *n = mf_get(obj, key);
    if (n && n->kind == MF_NUMBER) r->text(r->ctx, n->str, n->len);
}

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

static bool name_char(unsigned char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

/* Bytes of a PDF at which midfold assumes one page when it sees no page objects (they
 * sit in compressed object streams): a text page is a few KB, a scanned one far more. */
#define PDF_BYTES_PER_PAGE 50000u

enum { PDF_WINDOW = 32 };

/* The decoded byte `back` places before the current one (1: the previous byte). */
static unsigned char before(const unsigned char *w, size_t pos, size_t back) { return w[(pos - back) % PDF_WINDOW]; }

static bool ends_at(const unsigned char *w, size_t pos, size_t back, const char *word)
{
    size_t n = strlen(word);
    if (pos < back + n - 1) return false;
    for (size_t i = 0; i < n; i++)
        if (before(w, pos, back + n - 1 - i) != (unsigned char)word[i]) return false;
    return true;
}

/* The pages of a base64 PDF: its "/Type /Page" objects counted in the decoded bytes
 * (streamed, nothing kept but a small window), else one per PDF_BYTES_PER_PAGE. */
static uint64_t pdf_pages(const mf_node *data)
{
    if (!data) return 1;
    unsigned char w[PDF_WINDOW];
    size_t pos = 0;
    uint64_t pages = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < data->len; i++) {
        int v = b64_value((unsigned char)data->str[i]);
        if (v < 0) continue; /* whitespace and padding */
        acc = ((acc << 6) | (uint32_t)v) & 0xFFFFFF;
        bits += 6;
        if (bits < 8) continue;
        bits -= 8;
        unsigned char c = (unsigned char)(acc >> bits);
        /* At the byte after "/Page" (one that cannot continue the name, so not "/Pages"),
         * look back over whitespace for "/Type". */
        if (!name_char(c) && ends_at(w, pos, 1, "/Page")) {
            size_t back = 6;
            while (back < PDF_WINDOW - 5 && pos > back && strchr(" \t\r\n\f", before(w, pos, back))) back++;
            if (ends_at(w, pos, back, "/Type")) pages++;
        }
        w[pos % PDF_WINDOW] = c;
        pos++;
    }
    if (pages) return pages;
    uint64_t by_size = (pos + PDF_BYTES_PER_PAGE - 1) / PDF_BYTES_PER_PAGE;
    return by_size ? by_size : 1;
}

static void read_content_list(const mf_reader *r, const mf_node *list);

/* A document block (also the page a web fetch returns): its title and context, and its
 * source: text by its text, content blocks by theirs, a PDF by its pages. */
static void read_document(const mf_reader *r, const mf_node *doc)
{
    say(r, "[document");
    const mf_node *title = mf_get_str(doc, "title");
    if (title && title->len) {
        say(r, ": ");
        r->text(r->ctx, title->str, title->len);
    }
    say(r, "]");
    if (mf_get_str(doc, "context") && mf_get_str(doc, "context")->len) {
        say(r, "\n");
        text_of(r, doc, "context");
    }
    const mf_node *source = mf_get(doc, "source");
    const mf_node *kind = mf_get_str(source, "type");
    if (mf_str_eq(kind, "text")) {
        say(r, "\n");
        text_of(r, source, "data");
    } else if (mf_str_eq(kind, "content")) {
        const mf_node *content = mf_get(source, "content");
        say(r, "\n");
        if (content && content->kind == MF_STRING) text_of(r, source, "content");
        else if (content && content->kind == MF_ARRAY) read_content_list(r, content);
    } else if (mf_str_eq(kind, "base64")) {
        r->media(r->ctx, false, pdf_pages(mf_get_str(source, "data")));
    } else if (mf_str_eq(kind, "url")) {
        say(r, " ");
        text_of(r, source, "url");
        r->media(r->ctx, false, 1);
    } else {
        if (mf_str_eq(kind, "file")) {
            say(r, " ");
            text_of(r, source, "file_id");
        }
        r->media(r->ctx, false, 1);
    }
}

static bool read_one(const mf_reader *r, const mf_node *block);

/* Text and image blocks (a document's content, a search result's), one per line. */
static void read_content_list(const mf_reader *r, const mf_node *list)
{
    for (uint32_t i = 0; i < list->count; i++) {
        const mf_node *block = &list->items[i];
        const mf_node *type = mf_get_str(block, "type");
        if (i) say(r, "\n");
        if (mf_str_eq(type, "text")) text_of(r, block, "text");
        else if (mf_str_eq(type, "image")) { say(r, "[image]"); r->media(r->ctx, true, 1); }
        else if (!read_one(r, block)) mf_read_text_fields(r, block);
    }
}

/* The output files of a code execution, "[output file: ID]" each. */
static void read_outputs(const mf_reader *r, const mf_node *list)
{
    if (!list || list->kind != MF_ARRAY) return;
    for (uint32_t i = 0; i < list->count; i++) {
        say(r, "\n[output file: ");
        text_of(r, &list->items[i], "file_id");
        say(r, "]");
    }
}

static void read_execution(const mf_reader *r, const mf_node *result, bool encrypted)
{
    if (encrypted) say(r, "[encrypted stdout]");
    else text_of(r, result, "stdout");
    const mf_node *stderr_text = mf_get_str(result, "stderr");
    if (stderr_text && stderr_text->len) {
        say(r, "\n[stderr] ");
        text_of(r, result, "stderr");
    }
    const mf_node *code = mf_get(result, "return_code");
    if (code && code->kind == MF_NUMBER && !(code->len == 1 && code->str[0] == '0')) {
        say(r, "\n[return code ");
        number_of(r, result, "return_code");
        say(r, "]");
    }
    read_outputs(r, mf_get(result, "content"));
}

static void read_view(const mf_reader *r, const mf_node *view)
{
    const mf_node *file_type = mf_get_str(view, "file_type");
    if (mf_str_eq(file_type, "image")) { say(r, "[image]"); r->media(r->ctx, true, 1); }
    else if (mf_str_eq(file_type, "pdf")) { say(r, "[document]"); r->media(r->ctx, false, 1); }
    else text_of(r, view, "content");
}

static void read_str_replace(const mf_reader *r, const mf_node *result)
{
    say(r, "[edited]");
    const mf_node *lines = mf_get(result, "lines");
    if (!lines || lines->kind != MF_ARRAY) return;
    for (uint32_t i = 0; i < lines->count; i++) {
        if (lines->items[i].kind != MF_STRING) continue;
        say(r, "\n");
        r->text(r->ctx, lines->items[i].str, lines->items[i].len);
    }
}

static void read_tool_references(const mf_reader *r, const mf_node *list)
{
    if (!list || list->kind != MF_ARRAY) return;
    for (uint32_t i = 0; i < list->count; i++) {
        if (i) say(r, "\n");
        say(r, "[tool_reference: ");
        text_of(r, &list->items[i], "tool_name");
        say(r, "]");
    }
}

/* One block or result content object Anthropic defines; false for any other. */
static bool read_one(const mf_reader *r, const mf_node *block)
{
    const mf_node *type = mf_get_str(block, "type");
    if (!type) return false;
    if (mf_str_eq(type, "web_search_result")) {
        say(r, "[search result] ");
        text_of(r, block, "title");
        say(r, " <");
        text_of(r, block, "url");
        say(r, ">");
        if (mf_get_str(block, "page_age")) {
            say(r, " (");
            text_of(r, block, "page_age");
            say(r, ")");
        }
    } else if (ends_with(type, "_tool_result_error")) {
        say(r, "[error: ");
        text_of(r, block, "error_code");
        say(r, "]");
        if (mf_get_str(block, "error_message")) {
            say(r, " ");
            text_of(r, block, "error_message");
        }
    } else if (mf_str_eq(type, "web_fetch_result")) {
        say(r, "[fetched] ");
        text_of(r, block, "url");
        const mf_node *doc = mf_get(block, "content");
        if (doc && doc->kind == MF_OBJECT) {
            say(r, "\n");
            read_document(r, doc);
        }
    } else if (mf_str_eq(type, "document")) {
        read_document(r, block);
    } else if (mf_str_eq(type, "code_execution_result") || mf_str_eq(type, "bash_code_execution_result")) {
        read_execution(r, block, false);
    } else if (mf_str_eq(type, "encrypted_code_execution_result")) {
        read_execution(r, block, true);
    } else if (mf_str_eq(type, "text_editor_code_execution_view_result")) {
        read_view(r, block);
    } else if (mf_str_eq(type, "text_editor_code_execution_create_result")) {
        const mf_node *update = mf_get(block, "is_file_update");
        say(r, update && update->kind == MF_TRUE ? "[file updated]" : "[file created]");
    } else if (mf_str_eq(type, "text_editor_code_execution_str_replace_result")) {
        read_str_replace(r, block);
    } else if (mf_str_eq(type, "tool_search_tool_search_result")) {
        read_tool_references(r, mf_get(block, "tool_references"));
    } else if (mf_str_eq(type, "tool_reference")) {
        say(r, "[tool_reference: ");
        text_of(r, block, "tool_name");
        say(r, "]");
    } else if (mf_str_eq(type, "advisor_result")) {
        text_of(r, block, "text");
    } else if (mf_str_eq(type, "advisor_redacted_result")) {
        say(r, "[redacted advice]");
    } else if (mf_str_eq(type, "search_result")) {
        say(r, "[search result: ");
        text_of(r, block, "title");
        say(r, "] ");
        text_of(r, block, "source");
        const mf_node *content = mf_get(block, "content");
        if (content && content->kind == MF_ARRAY && content->count) {
            say(r, "\n");
            read_content_list(r, content);
        }
    } else if (mf_str_eq(type, "browser_state")) { /* in a browser tool's result: its open tabs */
        const mf_node *tabs = mf_get(block, "tabs");
        say(r, "[browser_state]");
        for (uint32_t i = 0; tabs && tabs->kind == MF_ARRAY && i < tabs->count; i++) {
            say(r, "\n[tab] ");
            text_of(r, &tabs->items[i], "title");
            say(r, " <");
            text_of(r, &tabs->items[i], "url");
            say(r, ">");
        }
    } else if (mf_str_eq(type, "container_upload")) {
        say(r, "[container_upload: ");
        text_of(r, block, "file_id");
        say(r, "]");
    } else if (mf_str_eq(type, "mcp_tool_use")) {
        say(r, "[tool_use:");
        text_of(r, block, "server_name");
        say(r, "/");
        text_of(r, block, "name");
        say(r, "] ");
        r->value(r->ctx, mf_get(block, "input"));
    } else if (ends_with(type, "_result") || ends_with(type, "_error")) {
        /* A server-tool result shape newer than midfold: its text fields, never its
         * encrypted ones (Anthropic names every result and error object this way). */
        mf_read_text_fields(r, block);
    } else {
        return false;
    }
    return true;
}

bool mf_anthropic_read(const mf_reader *r, const mf_node *node) { return read_one(r, node); }

/* A top-level block midfold does not know: its text fields. */
static bool read_any(const mf_reader *r, const mf_node *node) { return read_one(r, node) || mf_read_text_fields(r, node); }

/* ---- micro-compaction targets of server-tool results --------------------------------- */

/* Where the marker goes in a result's content object, and the string it replaces. */
static mf_edit_target result_target(const mf_node *content, const mf_node **text)
{
    const mf_node *type = mf_get_str(content, "type");
    *text = NULL;
    if (mf_str_eq(type, "code_execution_result") || mf_str_eq(type, "bash_code_execution_result")) {
        *text = mf_get_str(content, "stdout");
        return *text ? MF_EDIT_RESULT_STDOUT : 0;
    }
    if (mf_str_eq(type, "text_editor_code_execution_view_result")) {
        *text = mf_get_str(content, "content");
        return *text ? MF_EDIT_RESULT_VIEW : 0;
    }
    if (mf_str_eq(type, "web_fetch_result")) {
        const mf_node *doc = mf_get(content, "content");
        if (!doc || doc->kind != MF_OBJECT) return 0;
        const mf_node *source = mf_get(doc, "source");
        if (mf_str_eq(mf_get_str(source, "type"), "text")) *text = mf_get_str(source, "data");
        return MF_EDIT_RESULT_FETCHED;
    }
    return 0; /* web search, tool search, errors, encrypted output: no shorter valid form */
}

const mf_node *mf_anthropic_marker_node(const mf_node *content)
{
    const mf_node *text;
    if (!content || content->kind != MF_OBJECT) return NULL;
    result_target(content, &text);
    return text;
}

static mf_node string_node(const char *s, size_t len) { return (mf_node){.kind = MF_STRING, .str = s, .len = len}; }

const mf_node *mf_anthropic_cleared(mf_arena *arena, const mf_node *content, mf_edit_target target, const char *text,
                                    size_t len)
{
    if (!content || content->kind != MF_OBJECT) return NULL;
    if (target == MF_EDIT_RESULT_STDOUT) {
        const mf_node *t = mf_with_member(arena, content, "stdout", string_node(text, len));
        return t ? mf_with_member(arena, t, "stderr", string_node("", 0)) : NULL;
    }
    if (target == MF_EDIT_RESULT_VIEW) {
        const mf_node *t = mf_with_member(arena, content, "content", string_node(text, len));
        return t ? mf_with_member(arena, t, "file_type", string_node("text", 4)) : NULL;
    }
    const mf_node *doc = mf_get(content, "content");
    if (target != MF_EDIT_RESULT_FETCHED || !doc || doc->kind != MF_OBJECT) return NULL;
    mf_node *items = mf_arena_alloc(arena, 3 * sizeof *items);
    if (!items) return NULL;
    items[0] = string_node("text", 4);
    items[0].key = "type";
    items[0].key_len = 4;
    items[1] = string_node("text/plain", 10);
    items[1].key = "media_type";
    items[1].key_len = 10;
    items[2] = string_node(text, len);
    items[2].key = "data";
    items[2].key_len = 4;
    const mf_node *d = mf_with_member(arena, doc, "source", (mf_node){.kind = MF_OBJECT, .count = 3, .items = items});
    return d ? mf_with_member(arena, content, "content", *d) : NULL;
}

/* ---- the adapter --------------------------------------------------------------------- */

static bool server_result(const mf_node *type)
{
    return ends_with(type, "_tool_result") && !mf_str_eq(type, "mcp_tool_result");
}

static void read_block(mf_msg *msg, const mf_node *block, size_t index)
{
    const mf_node *type = mf_get_str(block, "type");
    mf_part *p;
    if (mf_str_eq(type, "text")) {
        p = adapt_add(msg, MF_PART_TEXT, block, index);
        adapt_str(block, "text", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "thinking")) {
        p = adapt_add(msg, MF_PART_THINKING, block, index);
        adapt_str(block, "thinking", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "redacted_thinking")) {
        p = adapt_add(msg, MF_PART_REDACTED_THINKING, block, index);
        adapt_str(block, "data", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "tool_use") || mf_str_eq(type, "server_tool_use") || mf_str_eq(type, "mcp_tool_use")) {
        p = adapt_add(msg, MF_PART_TOOL_CALL, block, index);
        adapt_str(block, "id", &p->id, &p->id_len);
        adapt_str(block, "name", &p->name, &p->name_len);
        p->args = mf_get(block, "input");
        p->same_message = !mf_str_eq(type, "tool_use");
        if (mf_str_eq(type, "mcp_tool_use")) p->read = mf_anthropic_read; /* shows its server */
    } else if (mf_str_eq(type, "tool_result") || mf_str_eq(type, "mcp_tool_result")) {
        p = adapt_add(msg, MF_PART_TOOL_RESULT, block, index);
        adapt_str(block, "tool_use_id", &p->id, &p->id_len);
        p->content = mf_get(block, "content");
        p->is_error = mf_get(block, "is_error") && mf_get(block, "is_error")->kind == MF_TRUE;
        p->target = MF_EDIT_BLOCK_CONTENT; /* a string is valid content for both */
        p->same_message = mf_str_eq(type, "mcp_tool_result");
    } else if (server_result(type)) {
        p = adapt_add(msg, MF_PART_TOOL_RESULT, block, index);
        adapt_str(block, "tool_use_id", &p->id, &p->id_len);
        p->content = mf_get(block, "content");
        p->is_error = ends_with(mf_get_str(p->content, "type"), "_error");
        const mf_node *text;
        p->target = p->content && p->content->kind == MF_OBJECT ? result_target(p->content, &text) : 0;
        p->same_message = true;
    } else if (mf_str_eq(type, "compaction")) {
        /* The provider's own summary: the model reads its text (encrypted_content is opaque). */
        p = adapt_add(msg, MF_PART_TEXT, block, index);
        adapt_str(block, "content", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "image")) {
        adapt_add(msg, MF_PART_IMAGE, block, index);
    } else if (mf_str_eq(type, "document")) {
        p = adapt_add(msg, MF_PART_DOCUMENT, block, index);
        adapt_str(block, "title", &p->text, &p->text_len);
        const mf_node *source = mf_get(block, "source");
        if (mf_str_eq(mf_get_str(source, "type"), "text")) p->content = mf_get_str(source, "data");
        p->read = mf_anthropic_read;
    } else {
        p = adapt_add(msg, MF_PART_OTHER, block, index);
        if (block->kind == MF_OBJECT && type) p->read = read_any;
    }
}

mf_status mf_adapt_anthropic(mf_arena *arena, mf_msg *msg)
{
    const mf_node *content = mf_get(msg->node, "content");
    mf_status st;
    if (adapt_string_content(arena, msg, content, 0, &st)) return st;
    if (!content || content->kind != MF_ARRAY) return adapt_reserve(arena, msg, 0) ? MF_OK : MF_ERR_NOMEM;
    if (!adapt_reserve(arena, msg, content->count)) return MF_ERR_NOMEM;
    for (uint32_t i = 0; i < content->count; i++) read_block(msg, &content->items[i], i);
    return MF_OK;
}
