/* digest.c — a summary written without a model, for when none is configured (the demo,
 * the CLI) or as a fallback: deterministic, and built only from what the conversation
 * says. It keeps what a continuation needs: the user's requests and the latest value of
 * each constraint they stated, the latest test state and the last error of each failing
 * tool, the tool activity, the files and identifiers touched, the assistant's decisions with
 * their reasons and its latest conclusions. Requests come from the user's own text only
 * (never from tool output or quoted text). When it is over max_tokens the lists shrink, and
 * as a last resort the text is cut at a line.
 *
 * This file reads the view (calls, results, texts) into a `digest`; digest_write.c writes
 * it. The readers of single texts are digest_results.c (test summaries, exit statuses, error
 * lines), digest_decide.c (decisions) and digest_constraint.c (valued statements). */
#include "digest_state.h"
#include "json_scan.h"
#include "profiles.h"
#include "prompt.h"

#include <string.h>

bool mf_digest_is_summary_text(const mf_part *p)
{
    if (mf_part_is_compaction(p)) return true; /* carried as the earlier summary, not as a reply */
    return p->kind == MF_PART_TEXT && p->text_len >= sizeof MF_SUMMARY_MARK - 1 &&
           memcmp(p->text, MF_SUMMARY_MARK, sizeof MF_SUMMARY_MARK - 1) == 0;
}

static tool_stat *tool_of(digest *d, const char *name, size_t n)
{
    mf_span key = {name && n ? name : "unknown", name && n ? n : 7};
    for (size_t i = 0; i < d->ntools; i++) if (mf_span_eq(d->tools[i].name, key)) return &d->tools[i];
    if (d->ntools == MF_DIGEST_MAX_TOOLS) return NULL;
    tool_stat *t = &d->tools[d->ntools++];
    memset(t, 0, sizeof *t);
    t->name = key;
    return t;
}

static void add_unique(mf_span *list, size_t *n, size_t cap, mf_span v)
{
    if (!v.n) return;
    for (size_t i = 0; i < *n; i++) if (mf_span_eq(list[i], v)) return;
    if (*n < cap) list[(*n)++] = v;
}

static bool looks_like_path(mf_span v)
{
    if (v.n < 3 || v.n > 160) return false;
    bool slash = false, dot = false;
    for (size_t i = 0; i < v.n; i++) {
        char c = v.s[i];
        /* A pattern or a command ("@/utils/[Dd]ate'", "a | b") names no file. */
        if (strchr(" \n\t\"<>[]'*?|(){}$\\^`", c) && c) return false;
        if (c == '/') slash = true;
        if (c == '.' && i > 0 && i + 1 < v.n) dot = true;
    }
    return slash || dot;
}

/* A copy of s in the digest's arena, cut at a code point to at most `max` bytes (the
 * result text it comes from is reused for the next result). */
static mf_span keep(digest *d, mf_span s, size_t max)
{
    if (s.n > max) {
        s.n = max;
        while (s.n && ((unsigned char)s.s[s.n] & 0xC0) == 0x80) s.n--;
    }
    char *copy = s.n ? mf_arena_strdup(&d->arena, s.s, s.n) : NULL;
    if (s.n && !copy) { d->failed = true; return (mf_span){0}; }
    return (mf_span){copy, s.n};
}

/* The arguments worth naming: paths, commands, patterns, queries, URLs. */
static const char *const KEY_ARGS[] = {"file_path", "path", "filename", "file", "command", "cmd", "pattern",
                                       "query", "url", "uri", "city", "location", "name", "id", NULL};
static const char *const PATH_ARGS[] = {"file_path", "path", "filename", "file", "directory", "dir", NULL};

/* Notes a call's tool and arguments; returns its key value (what the call was about). */
static mf_span note_call(digest *d, const mf_part *call)
{
    tool_stat *t = tool_of(d, call->name, call->name_len);
    if (!t) return (mf_span){0};
    t->calls++;
    const mf_node *args = call->args;
    mf_node scanned;
    if (args && args->kind == MF_STRING) { /* OpenAI: a JSON string */
        mf_status st = mf_json_scan_strings(&d->arena, args->str, args->len, &scanned);
        if (st == MF_ERR_NOMEM) d->failed = true;
        args = st == MF_OK ? &scanned : NULL; /* arguments that are not JSON name nothing */
    }
    if (!args || args->kind != MF_OBJECT) return (mf_span){0};
    const mf_node *value = NULL;
    for (int k = 0; KEY_ARGS[k] && !value; k++) value = mf_get_str(args, KEY_ARGS[k]);
    for (uint32_t i = 0; !value && i < args->count; i++)
        if (args->items[i].kind == MF_STRING) value = &args->items[i];
    if (value) add_unique(t->values, &t->nvalues, MF_DIGEST_MAX_VALUES, (mf_span){value->str, value->len});
    for (int k = 0; PATH_ARGS[k]; k++) {
        const mf_node *p = mf_get_str(args, PATH_ARGS[k]);
        if (p) add_unique(d->files, &d->nfiles, MF_DIGEST_MAX_FILES, (mf_span){p->str, p->len});
    }
    for (uint32_t i = 0; i < args->count; i++) {
        const mf_node *v = &args->items[i];
        if (v->kind == MF_STRING && looks_like_path((mf_span){v->str, v->len}))
            add_unique(d->files, &d->nfiles, MF_DIGEST_MAX_FILES, (mf_span){v->str, v->len});
    }
    return value ? (mf_span){value->str, value->len} : (mf_span){0};
}

/* ---- tool results ------------------------------------------------------------------ */

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
 * (stdout, stderr, return_code). Media and identifiers are left out. */
static void result_text(mf_buf *b, const mf_node *n, int depth)
{
    if (!n || depth > 6) return;
    if (n->kind == MF_STRING) {
        mf_buf_append(b, n->str, n->len);
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
                result_text(b, item, depth + 1);
            }
        }
    }
}

static mf_test_run keep_run(digest *d, const mf_test_run *r)
{
    mf_test_run k = *r;
    for (size_t i = 0; i < k.nfailing; i++) k.failing[i] = keep(d, k.failing[i], 160);
    return k;
}

static bool run_failed(const mf_test_run *r) { return r->failed || r->packages_failed; }

static void note_tests(digest *d, const mf_test_run *r)
{
    test_state *t = NULL;
    for (size_t i = 0; i < d->nruns && !t; i++) if (strcmp(d->runs[i].latest.runner, r->runner) == 0) t = &d->runs[i];
    if (!t) {
        if (d->nruns == MF_DIGEST_MAX_RUNNERS) return;
        t = &d->runs[d->nruns++];
        memset(t, 0, sizeof *t);
    } else if (run_failed(&t->latest)) {
        t->earlier = t->latest; /* the most recent failing run before the latest */
        t->has_earlier = true;
    }
    t->latest = keep_run(d, r);
    t->runs++;
}

static void note_result(digest *d, const mf_part *part, mf_span call_value, mf_buf *scratch)
{
    scratch->len = 0;
    result_text(scratch, part->content, 0);
    if (scratch->failed) { d->failed = true; return; }
    mf_span text = {scratch->data ? scratch->data : "", scratch->len};
    mf_result_facts f;
    mf_read_result_facts(text, &f);
    if (f.tests.runner) note_tests(d, &f.tests);
    mf_span name = {part->name && part->name_len ? part->name : "unknown", part->name && part->name_len ? part->name_len : 7};
    bool failed = part->is_error || mf_result_failed(&f);
    if (!failed) {
        /* A later success of the same tool resolves an error when it ran the same call (or
         * one that starts with it: "npm run build && npx vitest run" after "npm run build"),
         * or when the same test runner passed. */
        for (size_t i = 0; i < d->nerrors; i++) {
            error_entry *o = &d->errors[i];
            bool same_call = o->call.n && call_value.n >= o->call.n && memcmp(o->call.s, call_value.s, o->call.n) == 0;
            bool same_runner = o->runner && f.tests.runner && strcmp(o->runner, f.tests.runner) == 0;
            if (mf_span_eq(o->tool, name) && (same_call || same_runner)) o->resolved = true;
        }
        return;
    }
    /* One entry per tool and call: bash's "npm run build" and "pytest" fail apart. */
    error_entry *e = NULL;
    for (size_t i = 0; i < d->nerrors && !e; i++)
        if (mf_span_eq(d->errors[i].tool, name) && mf_span_eq(d->errors[i].call, call_value)) e = &d->errors[i];
    /* A test run's failures are told by its test state; only an exception or compiler
     * error line adds to them. */
    if (f.tests.runner && run_failed(&f.tests) && f.error_rank < 3 && !part->is_error) return;
    /* An error of the tool: flagged by the format (Anthropic is_error, AI SDK error-text) or,
     * the same in every format, read from the result itself. */
    tool_stat *t = tool_of(d, part->name, part->name_len);
    if (t) t->errors++;
    if (!e && d->nerrors == MF_DIGEST_MAX_ERRORS) { /* full: the oldest gives way */
        e = &d->errors[0];
        for (size_t i = 1; i < d->nerrors; i++) if (d->errors[i].seq < e->seq) e = &d->errors[i];
    }
    if (!e) e = &d->errors[d->nerrors++];
    mf_span line = f.error;
    if (!line.n) { /* no line says "error": the result's first line does */
        size_t at = 0;
        while (mf_next_line(text, &at, &line) && !mf_span_trim(line).n) {}
        line = mf_span_trim(line);
    }
    memset(e, 0, sizeof *e);
    e->tool = name;
    e->call = call_value;
    e->line = keep(d, line, 400);
    e->has_exit = f.has_exit;
    e->exit_code = f.exit_code;
    e->runner = f.tests.runner && run_failed(&f.tests) ? f.tests.runner : NULL;
    e->seq = ++d->nfailures;
}

/* ---- texts: decisions, constraints, identifiers -------------------------------------- */

static void note_decisions(digest *d, mf_span text)
{
    size_t at = 0;
    mf_span s;
    while (mf_next_sentence(text, &at, &s)) {
        int kind = mf_sentence_is_decision(s);
        if (!kind) continue;
        size_t i = d->ndecisions++ % MF_DIGEST_MAX_DECISIONS; /* a ring: the latest ones */
        d->decisions[i].text = s;
        d->decisions[i].reasoned = kind == 2;
    }
}

static void note_constraints(digest *d, mf_span text)
{
    size_t at = 0;
    mf_span s;
    while (mf_next_sentence(text, &at, &s)) {
        mf_constraint found[4];
        size_t n = mf_find_constraints(s, found, 4);
        for (size_t k = 0; k < n; k++) {
            constraint_entry *c = NULL;
            for (size_t i = 0; i < d->nconstraints && !c; i++)
                if (mf_span_eq_ci(d->constraints[i].c.key, found[k].key)) c = &d->constraints[i];
            if (!c) {
                if (d->nconstraints == MF_DIGEST_MAX_CONSTRAINTS) continue;
                c = &d->constraints[d->nconstraints++];
                memset(c, 0, sizeof *c);
            } else if (!mf_span_eq_ci(c->c.value, found[k].value)) {
                c->was = c->c.value;
                c->changed = true;
            }
            c->c = found[k];
            c->seq = ++d->nstatements;
        }
    }
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '/' || c == '-' || c == '@' || c == ':';
}

static void add_ident(digest *d, mf_span v, bool user)
{
    size_t before = d->nidents;
    add_unique(d->idents, &d->nidents, MF_DIGEST_MAX_IDENTS, v);
    if (d->nidents > before) d->ident_by_user[before] = user;
}

/* Backquoted names (`toZonedTime`) and paths (src/format-date.js) a text mentions. */
static void note_identifiers(digest *d, mf_span t, bool user)
{
    for (size_t i = 0; i < t.n; i++) {
        if (t.s[i] == '`') {
            size_t j = i + 1;
            while (j < t.n && t.s[j] != '`' && t.s[j] != '\n' && j - i <= 80) j++;
            if (j < t.n && t.s[j] == '`' && j - i >= 3) {
                mf_span v = {t.s + i + 1, j - i - 1};
                if (!memchr(v.s, ' ', v.n)) add_ident(d, v, user);
                i = j;
            }
            continue;
        }
        if (!ident_char(t.s[i]) || (i && ident_char(t.s[i - 1]))) continue;
        size_t j = i;
        while (j < t.n && ident_char(t.s[j])) j++;
        mf_span w = {t.s + i, j - i};
        while (w.n && strchr(".:-", w.s[w.n - 1])) w.n--; /* sentence punctuation */
        bool letter = false, slash = memchr(w.s, '/', w.n) != NULL;
        for (size_t k = 0; k < w.n; k++) letter |= (w.s[k] | 32) >= 'a' && (w.s[k] | 32) <= 'z';
        /* name.ext with a name of two characters or more, or a path with a slash */
        const char *dot = w.n ? memchr(w.s, '.', w.n) : NULL;
        bool file = dot && dot - w.s >= 2 && (size_t)(dot - w.s) + 2 < w.n;
        if (letter && (slash || file) && !mf_span_starts(w, "http") && looks_like_path(w)) add_ident(d, w, user);
        i = j;
    }
}

/* ---- the entry point ----------------------------------------------------------------- */

static void read_view(digest *d, const mf_view *view, mf_buf *scratch)
{
    size_t calls = 0;
    for (size_t m = 0; m < view->count; m++)
        for (size_t p = 0; p < view->msgs[m].count; p++) calls += view->msgs[m].parts[p].kind == MF_PART_TOOL_CALL;
    mf_idmap map = {0};
    if (calls && !mf_idmap_init(&map, &d->arena, calls)) { d->failed = true; return; }
    for (size_t m = 0; m < view->count && !d->failed; m++) {
        const mf_msg *msg = &view->msgs[m];
        for (size_t p = 0; p < msg->count; p++) {
            const mf_part *part = &msg->parts[p];
            if (part->kind == MF_PART_TOOL_CALL) {
                mf_span value = note_call(d, part);
                if (part->id && calls) {
                    mf_idslot *s = mf_idmap_slot(&map, part->id, part->id_len);
                    mf_span *v = mf_arena_alloc(&d->arena, sizeof *v);
                    if (!v) { d->failed = true; return; }
                    *v = value;
                    s->id = part->id;
                    s->len = part->id_len;
                    s->value = v; /* a repeated id: the latest call wins */
                }
            } else if (part->kind == MF_PART_TOOL_RESULT) {
                mf_span value = {0};
                if (part->id && calls) {
                    mf_idslot *s = mf_idmap_slot(&map, part->id, part->id_len);
                    if (s->id) value = *(const mf_span *)s->value;
                }
                note_result(d, part, value, scratch);
            } else if (part->kind == MF_PART_TEXT && part->text_len && !mf_digest_is_summary_text(part)) {
                mf_span text = {part->text, part->text_len};
                if (msg->role == MF_ROLE_ASSISTANT) {
                    note_decisions(d, text);
                    note_identifiers(d, text, false);
                } else if (msg->role == MF_ROLE_USER) {
                    note_constraints(d, text); /* the user's own words only: never a tool's output */
                    note_identifiers(d, text, true);
                }
            }
        }
    }
}

mf_status mf_doc_digest(const mf_doc *doc, mf_format format, uint32_t max_tokens, mf_language language,
                        mf_profile profile, char **out, size_t *out_len, mf_error *err)
{
    if (!out) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL output pointer");
    *out = NULL;
    if ((unsigned)profile >= MF_PROFILE_COUNT) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "unknown profile");
    mf_view view;
    mf_status st = mf_view_build(doc, format, &view, err);
    if (st) return st;
    digest *d = mf_alloc(sizeof *d);
    if (!d) { mf_view_free(&view); return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory"); }
    memset(d, 0, sizeof *d);
    d->view = &view;
    mf_arena_init(&d->arena);
    mf_buf scratch;
    mf_buf_init(&scratch);
    read_view(d, &view, &scratch);
    mf_buf_free(&scratch);
    bool zh = (language == MF_LANG_AUTO ? mf_detect_language(&view) : language) == MF_LANG_ZH;
    mf_buf b;
    mf_buf_init(&b);
    if (!d->failed) mf_digest_write(&b, d, max_tokens ? max_tokens : 2000, profile, zh);
    bool failed = d->failed;
    mf_arena_free(&d->arena);
    mf_dealloc(d);
    mf_view_free(&view);
    if (failed) {
        mf_buf_free(&b);
        return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory while writing the digest");
    }
    return mf_buf_finish(&b, out, out_len, err);
}
