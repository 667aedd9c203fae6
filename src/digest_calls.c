/* digest_calls.c — what the tools did (digest_calls.h), read from each call and its result:
 *   - a call's files come from all of its arguments (path arguments with what the tool's name
 *     says it does, apply_patch bodies, the paths of a shell command), and count once its
 *     result shows the call succeeded;
 *   - a result failed when its format flags it or its exit status says so; with no status,
 *     when it holds an error line — for what a tool read or found (a file, a search, a
 *     sub-agent's report), only when the error line opens it; a search that exits 1 having
 *     printed nothing found nothing, and failed at nothing; a call the user refused or
 *     interrupted did nothing and failed at nothing;
 *   - each command keeps its distinct failures (the first error line, the exit status, how
 *     often) and its latest success, which resolves the failures before it;
 *   - each test suite (a runner and the paths it ran) keeps its latest counts.
 * The readers of single texts are digest_command.c and digest_results.c. */
#include "digest_calls.h"
#include "digest_command.h"
#include "json_scan.h"
#include "view.h"

#include <string.h>

static mf_span name_of(const mf_part *p)
{
    return p->name && p->name_len ? (mf_span){p->name, p->name_len} : MF_SPAN("unknown");
}

static dg_tool *tool_of(mf_digest_facts *d, mf_span name)
{
    for (size_t i = 0; i < d->ntools; i++) if (mf_span_eq(d->tools[i].name, name)) return &d->tools[i];
    dg_tool *t = MF_FACTS_PUSH(d, tools);
    if (t) t->name = name;
    return t;
}

/* ---- files ------------------------------------------------------------------------------ */

/* The path as the digest compares and shows it: '/' for '\', without a leading "./". */
static mf_span path_of(mf_digest_facts *d, mf_span p)
{
    p = mf_span_trim(p);
    if (p.n > 2 && p.s[0] == '.' && (p.s[1] == '/' || p.s[1] == '\\')) p = mf_span_from(p, 2);
    if (!memchr(p.s, '\\', p.n)) return p;
    p = mf_facts_keep(d, p, p.n);
    for (size_t i = 0; i < p.n; i++) if (p.s[i] == '\\') ((char *)p.s)[i] = '/';
    return p;
}

/* Is `rel` the same file as `abs` (abs ends with "/" + rel)? */
static bool same_file(mf_span a, mf_span b)
{
    if (mf_span_eq(a, b)) return true;
    mf_span longer = a.n > b.n ? a : b, shorter = a.n > b.n ? b : a;
    return shorter.n && longer.n > shorter.n && shorter.s[0] != '/' && longer.s[longer.n - shorter.n - 1] == '/' &&
           memcmp(longer.s + longer.n - shorter.n, shorter.s, shorter.n) == 0;
}

static dg_file *file_of(mf_digest_facts *d, mf_span path)
{
    for (size_t i = 0; i < d->nfiles; i++) {
        dg_file *f = &d->files[i];
        if (!same_file(f->path, path)) continue;
        if (path.n < f->path.n) f->path = path; /* the shorter, relative form reads best */
        return f;
    }
    dg_file *f = MF_FACTS_PUSH(d, files);
    if (f) f->path = path;
    return f;
}

static void file_did(mf_digest_facts *d, mf_span path, unsigned op, mf_span to)
{
    path = path_of(d, path);
    if (path.n < 2 || path.n > 300 || mf_span_has(path, "://") || mf_span_starts(path, "/dev/")) return;
    dg_file *f = file_of(d, path);
    if (!f) return;
    /* A write of a file already read or written rewrites it; of one never seen, creates it. */
    if (op == MF_FILE_CREATED && f->ops && !(f->ops & MF_FILE_DELETED)) op = MF_FILE_EDITED;
    if (op == MF_FILE_CREATED) f->ops &= ~(unsigned)MF_FILE_DELETED;
    if (op == MF_FILE_EDITED) f->edits++;
    if (op == MF_FILE_MOVED) {
        f->to = path_of(d, to);
        dg_file *dest = f->to.n ? file_of(d, f->to) : NULL;
        if (dest) { dest->ops |= MF_FILE_CREATED; dest->last = d->events; }
    }
    f->ops |= op;
    f->last = d->events;
}

/* ---- calls ------------------------------------------------------------------------------ */

typedef struct pending_file {
    mf_span path, to;
    unsigned op;
    struct pending_file *next;
} pending_file;

/* What a call was, kept until its result says whether it happened. */
struct dg_call {
    mf_span tool, key;
    bool shell;              /* it ran a command */
    int reads;               /* mf_command_reads of it; for other tools 1 (what they return is material) */
    bool search;
    size_t msg;              /* the message that made it */
    pending_file *files;
};

static void pend_file(void *ctx, mf_span path, unsigned op, mf_span to)
{
    void **c = ctx;
    mf_digest_facts *d = c[0];
    dg_call *call = c[1];
    pending_file *p = mf_arena_alloc(&d->arena, sizeof *p);
    if (!p) { d->failed = true; return; }
    *p = (pending_file){path, to, op, call->files};
    call->files = p;
}

static const char *const KEY_ARGS[] = {"file_path", "path", "filename", "file", "command", "cmd", "pattern", "query",
                                       "url", "uri", "description", "city", "location", "name", "id", NULL};
static const char *const PATH_ARGS[] = {"file_path", "path", "filename", "file", "notebook_path", "target_file", NULL};
static const char *const SHELLS[] = {"bash", "sh", "zsh", "/bin/bash", "/bin/sh", "pwsh", "powershell", "cmd", NULL};

/* The command of a call's arguments: a string, or an argv list (["bash", "-lc", "cargo test"]). */
static mf_span command_of(mf_digest_facts *d, const mf_node *args)
{
    static const char *const KEYS[] = {"command", "cmd", "script", NULL};
    for (int k = 0; KEYS[k]; k++) {
        const mf_node *v = mf_get(args, KEYS[k]);
        if (!v) continue;
        if (v->kind == MF_STRING) return (mf_span){v->str, v->len};
        if (v->kind != MF_ARRAY || !v->count) continue;
        bool strings = true;
        size_t len = 0;
        for (uint32_t i = 0; i < v->count; i++) { strings &= v->items[i].kind == MF_STRING; len += v->items[i].len + 1; }
        if (!strings) continue;
        const mf_node *it = v->items;
        bool wrapped = v->count == 3 && (it[1].len == 2 || it[1].len == 3) && it[1].str[0] == '-';
        for (int s = 0; wrapped && SHELLS[s]; s++)
            if (strlen(SHELLS[s]) == it[0].len && memcmp(SHELLS[s], it[0].str, it[0].len) == 0) return (mf_span){it[2].str, it[2].len};
        char *joined = mf_arena_alloc(&d->arena, len + 1);
        if (!joined) { d->failed = true; return (mf_span){0}; }
        size_t at = 0;
        for (uint32_t i = 0; i < v->count; i++) {
            if (i) joined[at++] = ' ';
            memcpy(joined + at, it[i].str, it[i].len);
            at += it[i].len;
        }
        return (mf_span){joined, at};
    }
    return (mf_span){0};
}

static bool is_patch(mf_span s)
{
    s = mf_span_trim(s);
    return mf_span_starts(s, "*** begin patch") || mf_span_starts(s, "diff --git") || mf_span_starts(s, "--- ");
}

dg_call *mf_digest_note_call(mf_digest_facts *d, const mf_part *part, size_t msg)
{
    dg_call *call = mf_arena_calloc(&d->arena, 1, sizeof *call);
    if (!call) { d->failed = true; return NULL; }
    call->msg = msg;
    call->tool = name_of(part);
    call->reads = 1;
    dg_tool *t = tool_of(d, call->tool);
    if (t) t->calls++;
    void *ctx[2] = {d, call};
    const mf_node *args = part->args;
    mf_node scanned;
    if (args && args->kind == MF_STRING) { /* OpenAI: a JSON string; a custom tool: its raw input */
        mf_span raw = {args->str, args->len};
        mf_status st = mf_json_scan_strings(&d->arena, args->str, args->len, &scanned);
        if (st == MF_ERR_NOMEM) d->failed = true;
        if (st != MF_OK && is_patch(raw)) mf_patch_files(raw, pend_file, ctx);
        if (st != MF_OK) call->key = mf_span_trim((mf_span){raw.s, raw.n < 80 ? raw.n : 0});
        args = st == MF_OK ? &scanned : NULL;
    }
    unsigned op = mf_tool_file_op(call->tool);
    mf_span lower_name = call->tool;
    call->search = mf_span_has(lower_name, "grep") || mf_span_has(lower_name, "glob"); /* a pattern over files */
    if (!args || args->kind != MF_OBJECT) return call;
    mf_span command = command_of(d, args);
    const mf_node *sub = mf_get_str(args, "command");
    unsigned editor = sub ? mf_editor_command_op((mf_span){sub->str, sub->len}) : 0;
    if (editor) { op = editor; command = (mf_span){0}; } /* a text editor's "view", "str_replace" */
    if (command.n) {
        call->shell = true;
        call->key = mf_command_key(command);
        call->reads = mf_command_reads(command);
        call->search = call->reads == 2;
        mf_command_files(command, pend_file, ctx);
    }
    for (int k = 0; !call->key.n && KEY_ARGS[k]; k++) {
        const mf_node *v = mf_get_str(args, KEY_ARGS[k]);
        if (v) call->key = (mf_span){v->str, v->len};
    }
    for (uint32_t i = 0; !call->key.n && i < args->count; i++)
        if (args->items[i].kind == MF_STRING) call->key = (mf_span){args->items[i].str, args->items[i].len};
    if (!op && !call->shell && !call->search && !call->files && call->key.n && t) { /* what it was asked about */
        bool seen = false;
        for (size_t k = 0; k < t->nvalues && !seen; k++) seen = mf_span_eq(t->values[k], call->key);
        if (!seen && t->nvalues < DG_TOOL_VALUES) t->values[t->nvalues++] = call->key;
    }
    if (op && !call->shell)
        for (int k = 0; PATH_ARGS[k]; k++) {
            const mf_node *p = mf_get_str(args, PATH_ARGS[k]);
            if (p) pend_file(ctx, (mf_span){p->str, p->len}, op, (mf_span){0});
        }
    for (uint32_t i = 0; i < args->count; i++) { /* a patch in any argument ("input", "patch") */
        const mf_node *v = &args->items[i];
        if (v->kind == MF_STRING && !call->shell && is_patch((mf_span){v->str, v->len})) mf_patch_files((mf_span){v->str, v->len}, pend_file, ctx);
    }
    return call;
}

/* ---- tool results -------------------------------------------------------------------------- */

static bool opaque_key(const mf_node *item)
{
    static const char *const keys[] = {"type", "id", "tool_use_id", "toolCallId", "signature", "data", "file_id",
                                       "media_type", "mediaType", "cache_control", "citations", "providerOptions",
                                       "image_url", "url", NULL};
    if (!item->key) return false;
    if (item->key_len >= 10 && memcmp(item->key, "encrypted_", 10) == 0) return true;
    for (int i = 0; keys[i]; i++)
        if (strlen(keys[i]) == item->key_len && memcmp(keys[i], item->key, item->key_len) == 0) return true;
    return false;
}

static bool exit_key(const mf_node *item)
{
    static const char *const keys[] = {"exit_code", "exitCode", "return_code", "returncode", "status_code", NULL};
    for (int i = 0; item->key && keys[i]; i++)
        if (strlen(keys[i]) == item->key_len && memcmp(keys[i], item->key, item->key_len) == 0) return true;
    return false;
}

/* The raw text a result carries, a line per string, whatever the format puts it in: a
 * string, text blocks, an AI SDK output ({type, value}), a server tool's content object
 * (stdout, stderr, return_code), a JSON text with its output and metadata (Codex's
 * apply_patch). Media and identifiers are left out. */
static void result_text(mf_digest_facts *d, mf_buf *b, const mf_node *n, int depth)
{
    if (!n || depth > 6) return;
    if (n->kind == MF_STRING) {
        mf_node json;
        const char *meta = n->len > 12 && n->str[0] == '{' ? strstr(n->str, "\"metadata\"") : NULL;
        if (meta && (size_t)(meta - n->str) < n->len && mf_json_scan_strings(&d->arena, n->str, n->len, &json) == MF_OK &&
            mf_get_str(&json, "output")) {
            const mf_node *out = mf_get_str(&json, "output");
            mf_buf_append(b, out->str, out->len);
            mf_buf_putc(b, '\n');
            mf_buf_append(b, meta, n->len - (size_t)(meta - n->str)); /* "exit_code": 0 reads as a status */
        } else {
            mf_buf_append(b, n->str, n->len);
        }
        mf_buf_putc(b, '\n');
    } else if (n->kind == MF_ARRAY || n->kind == MF_OBJECT) {
        for (uint32_t i = 0; i < n->count; i++) {
            const mf_node *item = &n->items[i];
            if (opaque_key(item)) continue;
            if (item->kind == MF_NUMBER && exit_key(item)) { /* "exit_code: 2" reads as a status */
                mf_buf_append(b, item->key, item->key_len);
                mf_buf_puts(b, ": ");
                mf_buf_append(b, item->str, item->len);
                mf_buf_putc(b, '\n');
            } else {
                result_text(d, b, item, depth + 1);
            }
        }
    }
}

static mf_test_run keep_run(mf_digest_facts *d, const mf_test_run *r)
{
    mf_test_run k = *r;
    for (size_t i = 0; i < k.nfailing; i++) k.failing[i] = mf_facts_keep(d, k.failing[i], 160);
    return k;
}

static bool run_failed(const mf_test_run *r) { return r->failed || r->packages_failed; }

/* Two suites are one when they ran the same words but for flags ("pytest tests/unit -q",
 * "pytest tests/unit"). */
static bool same_suite(mf_span a, mf_span b)
{
    size_t i = 0, k = 0;
    for (;;) {
        while (i < a.n && (a.s[i] == ' ' || (a.s[i] == '-' && (i == 0 || a.s[i - 1] == ' ')))) {
            if (a.s[i] == '-') while (i < a.n && a.s[i] != ' ') i++;
            else i++;
        }
        while (k < b.n && (b.s[k] == ' ' || (b.s[k] == '-' && (k == 0 || b.s[k - 1] == ' ')))) {
            if (b.s[k] == '-') while (k < b.n && b.s[k] != ' ') k++;
            else k++;
        }
        if (i >= a.n || k >= b.n) return i >= a.n && k >= b.n;
        size_t wi = i, wk = k;
        while (i < a.n && a.s[i] != ' ') i++;
        while (k < b.n && b.s[k] != ' ') k++;
        if (i - wi != k - wk || memcmp(a.s + wi, b.s + wk, i - wi) != 0) return false;
    }
}

/* The suite of `runner` that ran `key`, or one step of it ("pnpm build && pnpm test": the
 * suite "pnpm test" already known). */
static dg_suite *suite_of(mf_digest_facts *d, const char *runner, mf_span key)
{
    for (size_t i = 0; i < d->nsuites; i++)
        if (strcmp(d->suites[i].runner, runner) == 0 && same_suite(d->suites[i].key, key)) return &d->suites[i];
    for (size_t at = 0, start = 0; at <= key.n; at++) {
        if (at < key.n && !(at + 4 <= key.n && memcmp(key.s + at, " && ", 4) == 0)) continue;
        mf_span step = {key.s + start, at - start};
        if (step.n < key.n)
            for (size_t i = 0; i < d->nsuites; i++)
                if (strcmp(d->suites[i].runner, runner) == 0 && same_suite(d->suites[i].key, step)) return &d->suites[i];
        start = at + 4;
        at += 3;
    }
    return NULL;
}

static void note_tests(mf_digest_facts *d, const mf_test_run *r, const dg_call *call)
{
    mf_span key = call && call->key.n ? call->key : call ? call->tool : MF_SPAN("");
    dg_suite *t = suite_of(d, r->runner, key);
    if (t) key = t->key;
    if (!t) {
        t = MF_FACTS_PUSH(d, suites);
        if (!t) return;
        t->runner = r->runner;
    } else if (run_failed(&t->latest)) {
        t->earlier = t->latest; /* the most recent failing run before the latest */
        t->has_earlier = true;
    }
    t->key = t->label = key;
    t->latest = keep_run(d, r);
    t->runs++;
    t->last = d->events;
}

static dg_command *command_of_call(mf_digest_facts *d, mf_span tool, mf_span key)
{
    for (size_t i = 0; i < d->ncommands; i++)
        if (mf_span_eq(d->commands[i].tool, tool) && mf_span_eq(d->commands[i].key, key)) return &d->commands[i];
    dg_command *c = MF_FACTS_PUSH(d, commands);
    if (c) { c->tool = tool; c->key = key; }
    return c;
}

/* A success of `key` is one of each step it chains ("pnpm build && pnpm test" passes both). */
static void command_passed(mf_digest_facts *d, mf_span tool, mf_span key)
{
    dg_command *c = command_of_call(d, tool, key);
    if (c) c->passed = d->events;
    for (size_t i = 0; i + 4 <= key.n; i++) {
        if (memcmp(key.s + i, " && ", 4) != 0) continue;
        for (size_t k = 0; k < d->ncommands; k++) {
            mf_span other = d->commands[k].key;
            if (!mf_span_eq(d->commands[k].tool, tool) || other.n > key.n) continue;
            /* the step that starts at 0 or right after an "&&" */
            for (size_t at = 0; at + other.n <= key.n; at++) {
                bool starts = at == 0 || (at >= 4 && memcmp(key.s + at - 4, " && ", 4) == 0);
                bool ends = at + other.n == key.n || (at + other.n + 4 <= key.n && memcmp(key.s + at + other.n, " && ", 4) == 0);
                if (starts && ends && memcmp(key.s + at, other.s, other.n) == 0) { d->commands[k].passed = d->events; break; }
            }
        }
        break;
    }
}

void mf_digest_note_result(mf_digest_facts *d, const mf_part *part, const dg_call *call, mf_buf *scratch)
{
    scratch->len = 0;
    result_text(d, scratch, part->content, 0);
    if (scratch->failed) { d->failed = true; return; }
    mf_span text = mf_span_trim((mf_span){scratch->data ? scratch->data : "", scratch->len});
    /* An interrupted call (Codex's "aborted") or one the user refused at the prompt did
     * nothing and failed at nothing. */
    if (mf_span_eq(text, MF_SPAN("aborted")) || mf_span_starts(text, "the user doesn't want to proceed with this tool use")) {
        size_t *r = call ? MF_FACTS_PUSH(d, refused) : NULL; /* what that message says it does did not happen */
        if (r) *r = call->msg;
        return;
    }
    d->events++;
    mf_result_facts f;
    mf_read_result_facts(text, &f);
    if (f.tests.runner) note_tests(d, &f.tests, call);
    mf_span tool = call ? call->tool : name_of(part), key = call ? call->key : (mf_span){0};
    bool content = !call || call->reads != 0;
    bool failed = part->is_error || mf_result_failed(&f, content);
    /* A search that found nothing says so with exit status 1 and no output. */
    if (failed && !part->is_error && call && call->search && f.has_exit && f.exit_code == 1 && !f.first.n) failed = false;
    if (!failed) {
        for (const pending_file *p = call ? call->files : NULL; p; p = p->next) file_did(d, p->path, p->op, p->to);
        command_passed(d, tool, key);
        return;
    }
    /* A test run's failures are told by its suite's state (the tool itself did its job); only
     * an exception or a compiler error line adds to them. */
    if (f.tests.runner && run_failed(&f.tests) && f.error_rank < 3) return;
    dg_tool *t = tool_of(d, tool);
    if (t) t->errors++;
    mf_span line = content && f.first_rank >= 2 ? f.first : f.error.n ? f.error : f.first;
    line = mf_facts_keep(d, line, 400);
    dg_command *c = command_of_call(d, tool, key);
    if (!c) return;
    size_t index = (size_t)(c - d->commands);
    dg_failure *e = NULL;
    for (size_t i = 0; i < d->nfailures && !e; i++)
        if (d->failures[i].command == index && mf_span_eq(d->failures[i].line, line)) e = &d->failures[i];
    if (!e && (e = MF_FACTS_PUSH(d, failures)) != NULL) { e->command = index; e->line = line; }
    if (!e) return;
    e->has_exit = f.has_exit;
    e->exit_code = f.exit_code;
    e->runner = f.tests.runner && run_failed(&f.tests) ? f.tests.runner : NULL;
    e->times++;
    e->last = d->events;
}
