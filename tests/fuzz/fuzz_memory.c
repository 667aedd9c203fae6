/* fuzz_memory.c — the memory tool: mf_memory_run driven step by step the way
 * js/memory/tool.js drives it, over a store the input provides, and mf_memory_check_path on
 * every string of the input. Input (JSON):
 *   {"input": {the tool input}, "store": {path: text, ...}, "limits": [file_bytes, files, view_bytes]}
 * (a missing "store" is an empty store; "limits" is optional).
 *
 * Invariants of the path check, restated from midfold.h and src/memory_path.c: an
 * accepted path is "/memories" or under "/memories/", at most 1024 bytes, valid UTF-8
 * without U+FFFD, free of controls, backslashes, percent escapes and : * ? " < > |; its
 * names are non-empty, not all dots, at most 255 bytes, do not begin or end with a space
 * or end with a dot, at most 32 of them; its key is the path minus one trailing slash.
 * Invariants of a command:
 * - every step succeeds; a step that is not done asks for something not yet fetched;
 *   the command is done within js/memory/tool.js's 8 rounds of fetching;
 * - everything asked of the store (get, size, list prefixes) and every lock is a checked
 *   path in its key form (locks may also be ":files");
 * - the result is NUL-terminated valid UTF-8, non-empty; an error has no store changes;
 * - every change names checked paths covered by the first step's locks (the host locks
 *   those before fetching), puts valid UTF-8 within max_file_bytes, deletes or moves a
 *   file that exists, never renames over one; a create that succeeds adds exactly one
 *   file to a store below max_files, and one refused as full found max_files of them
 *   (the files counted are the store's keys the tool can act on: see live_files). */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "midfold_memory.h"

#define MAX_STEPS 9 /* the first step and js/memory/tool.js's 8 rounds */

typedef struct entry { char *path; size_t plen; char *text; size_t tlen; bool live; } entry;
typedef struct store { entry *e; size_t n, cap; } store;
typedef struct strs { char **s; size_t *len; size_t n, cap; } strs;

static char *dup_bytes(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (!p) abort();
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

/* UTF-8 repaired, as a JS host's strings always are. */
static char *dup_utf8(const char *s, size_t n, size_t *out_len)
{
    mf_buf b;
    mf_buf_init(&b);
    mf_buf_put_utf8(&b, s, n);
    char *p = dup_bytes(b.data ? b.data : "", b.len);
    *out_len = b.len;
    mf_buf_free(&b);
    return p;
}

static entry *find(store *st, const char *p, size_t n)
{
    for (size_t i = 0; i < st->n; i++)
        if (st->e[i].live && st->e[i].plen == n && memcmp(st->e[i].path, p, n) == 0) return &st->e[i];
    return NULL;
}

static void put(store *st, const char *p, size_t pn, const char *t, size_t tn)
{
    entry *e = find(st, p, pn);
    if (e) { free(e->text); e->text = dup_bytes(t, tn); e->tlen = tn; return; }
    if (st->n == st->cap) {
        st->cap = st->cap ? st->cap * 2 : 16;
        st->e = realloc(st->e, st->cap * sizeof *st->e);
        if (!st->e) abort();
    }
    st->e[st->n++] = (entry){dup_bytes(p, pn), pn, dup_bytes(t, tn), tn, true};
}

static bool has(const strs *v, const char *s, size_t n)
{
    for (size_t i = 0; i < v->n; i++) if (v->len[i] == n && memcmp(v->s[i], s, n) == 0) return true;
    return false;
}

static bool add(strs *v, const char *s, size_t n)
{
    if (has(v, s, n)) return false;
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 8;
        v->s = realloc(v->s, v->cap * sizeof *v->s);
        v->len = realloc(v->len, v->cap * sizeof *v->len);
        if (!v->s || !v->len) abort();
    }
    v->s[v->n] = dup_bytes(s, n);
    v->len[v->n++] = n;
    return true;
}

static void strs_free(strs *v)
{
    for (size_t i = 0; i < v->n; i++) free(v->s[i]);
    free(v->s);
    free(v->len);
}

static bool is_reserved(unsigned char c)
{
    return c < 0x20 || c == 0x7F || c == '\\' || c == ':' || c == '*' || c == '?' || c == '"' ||
           c == '<' || c == '>' || c == '|';
}

/* The documented rules for an accepted path (a subset: not the Unicode lookalikes and
 * invisible characters, which need the tables). */
static void check_accepted(const char *p, size_t len, size_t key_len)
{
    CHECK(len >= 9 && memcmp(p, "/memories", 9) == 0 && (len == 9 || p[9] == '/'), "accepted \"%.*s\" outside the root",
          (int)len, p);
    CHECK(len <= MF_MEMORY_MAX_PATH, "accepted a path of %zu bytes", len);
    CHECK(fuzz_utf8_valid(p, len), "accepted invalid UTF-8");
    for (size_t i = 0; i + 3 <= len; i++) CHECK(memcmp(p + i, "\xEF\xBF\xBD", 3) != 0, "accepted U+FFFD");
    for (size_t i = 0; i < len; i++) CHECK(!is_reserved((unsigned char)p[i]), "accepted byte 0x%02x", (unsigned char)p[i]);
    for (size_t i = 0; i + 2 < len; i++)
        CHECK(!(p[i] == '%' && isxdigit((unsigned char)p[i + 1]) && isxdigit((unsigned char)p[i + 2])), "accepted a percent escape");
    CHECK(key_len == len || (key_len == len - 1 && p[len - 1] == '/'), "key_len %zu of %zu", key_len, len);
    CHECK(key_len == 9 || p[key_len - 1] != '/', "the key of \"%.*s\" ends with a slash", (int)len, p);
    size_t depth = 0;
    for (size_t i = 10; i < key_len;) {
        size_t j = i;
        while (j < key_len && p[j] != '/') j++;
        size_t n = j - i;
        CHECK(n > 0, "accepted an empty name in \"%.*s\"", (int)len, p);
        CHECK(n <= MF_MEMORY_MAX_NAME, "accepted a name of %zu bytes", n);
        size_t dots = 0;
        while (dots < n && p[i + dots] == '.') dots++;
        CHECK(dots < n, "accepted a name of dots in \"%.*s\"", (int)len, p);
        CHECK(p[i] != ' ' && p[j - 1] != ' ' && p[j - 1] != '.', "accepted a name with a bad edge in \"%.*s\"", (int)len, p);
        depth++;
        i = j + 1;
    }
    CHECK(depth <= MF_MEMORY_MAX_DEPTH, "accepted %zu names", depth);
}

static void check_path_of(const char *p, size_t len)
{
    size_t key_len = SIZE_MAX;
    mf_path_problem pr = mf_memory_check_path(p, len, &key_len);
    CHECK(pr >= MF_PATH_OK && pr <= MF_PATH_EDGE, "problem %d", pr);
    CHECK(mf_path_problem_text(pr) && mf_path_problem_text(pr)[0], "no text for problem %d", pr);
    if (pr == MF_PATH_OK) check_accepted(p, len, key_len);
}

static void check_strings(const mf_node *n)
{
    if (n->key) check_path_of(n->key, n->key_len);
    if (n->kind == MF_STRING) check_path_of(n->str, n->len);
    if (n->kind == MF_ARRAY || n->kind == MF_OBJECT)
        for (uint32_t i = 0; i < n->count; i++) check_strings(&n->items[i]);
}

/* A path the store may be asked about: accepted, and in its key form. */
static void check_key(mf_memory_str s, const char *what)
{
    size_t key_len = SIZE_MAX;
    CHECK(mf_memory_check_path(s.ptr, s.len, &key_len) == MF_PATH_OK && key_len == s.len, "%s \"%.*s\" is not a key",
          what, (int)s.len, s.ptr);
}

static bool overlaps(const char *a, size_t an, const char *b, size_t bn)
{
    if (an == bn) return memcmp(a, b, an) == 0;
    const char *s = an < bn ? a : b, *l = an < bn ? b : a;
    size_t sn = an < bn ? an : bn;
    return memcmp(s, l, sn) == 0 && l[sn] == '/';
}

static bool locked(const strs *locks, mf_memory_str p)
{
    for (size_t i = 0; i < locks->n; i++)
        if (overlaps(locks->s[i], locks->len[i], p.ptr, p.len)) return true;
    return false;
}

/* The files that count toward max_files (README, "Limits"): keys the tool can act on,
 * that is accepted paths in key form (no trailing slash) strictly under "/memories/".
 * Anything else in the store — /etc/passwd, "/memories/a/", "/memories" itself, names
 * with controls — is another writer's and is neither shown nor counted. */
static size_t live_files(const store *st)
{
    size_t n = 0;
    for (size_t i = 0; i < st->n; i++) {
        const entry *e = &st->e[i];
        size_t key_len = 0;
        n += e->live && e->plen > 10 && mf_memory_check_path(e->path, e->plen, &key_len) == MF_PATH_OK && key_len == e->plen;
    }
    return n;
}

/* {"input": ..., "files": {...}, "lists": {...}, "sizes": {...}} from what was fetched. */
static void build_request(mf_buf *b, const mf_node *input, store *st, const strs *got, const strs *listed, const strs *sized)
{
    mf_buf_puts(b, "{\"input\": ");
    mf_write_json(b, input);
    mf_buf_puts(b, ", \"files\": {");
    for (size_t i = 0; i < got->n; i++) {
        if (i) mf_buf_puts(b, ", ");
        mf_buf_put_json_string(b, got->s[i], got->len[i]);
        mf_buf_puts(b, ": ");
        entry *e = find(st, got->s[i], got->len[i]);
        if (e) mf_buf_put_json_string(b, e->text, e->tlen);
        else mf_buf_puts(b, "null");
    }
    mf_buf_puts(b, "}, \"lists\": {");
    for (size_t i = 0; i < listed->n; i++) {
        if (i) mf_buf_puts(b, ", ");
        mf_buf_put_json_string(b, listed->s[i], listed->len[i]);
        mf_buf_puts(b, ": [");
        bool first = true;
        for (size_t k = 0; k < st->n; k++) {
            const entry *e = &st->e[k];
            if (!e->live || e->plen < listed->len[i] || memcmp(e->path, listed->s[i], listed->len[i]) != 0) continue;
            if (!first) mf_buf_puts(b, ", ");
            first = false;
            mf_buf_put_json_string(b, e->path, e->plen);
        }
        mf_buf_putc(b, ']');
    }
    mf_buf_puts(b, "}, \"sizes\": {");
    for (size_t i = 0; i < sized->n; i++) {
        if (i) mf_buf_puts(b, ", ");
        mf_buf_put_json_string(b, sized->s[i], sized->len[i]);
        mf_buf_puts(b, ": ");
        entry *e = find(st, sized->s[i], sized->len[i]);
        mf_buf_put_uint(b, e ? e->tlen : 0);
    }
    mf_buf_puts(b, "}}");
}

static uint64_t limit_of(const mf_node *limits, uint32_t i, uint64_t fallback)
{
    if (!limits || limits->kind != MF_ARRAY || i >= limits->count || limits->items[i].kind != MF_NUMBER) return fallback;
    char text[32];
    size_t n = limits->items[i].len < sizeof text - 1 ? limits->items[i].len : sizeof text - 1;
    memcpy(text, limits->items[i].str, n);
    text[n] = 0;
    if (text[0] < '0' || text[0] > '9') return fallback;
    uint64_t v = strtoull(text, NULL, 10);
    return v ? v : fallback;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_doc *doc = NULL;
    mf_error err;
    if (mf_doc_parse_json((const char *)data, size, &doc, &err)) return 0;
    check_strings(doc->root);

    const mf_node *input = mf_get(doc->root, "input");
    const mf_node *given = mf_get(doc->root, "store");
    mf_memory_limits lim;
    mf_memory_limits_init(&lim);
    const mf_node *limits = mf_get(doc->root, "limits");
    lim.max_file_bytes = limit_of(limits, 0, lim.max_file_bytes);
    lim.max_files = limit_of(limits, 1, lim.max_files);
    lim.max_view_bytes = limit_of(limits, 2, lim.max_view_bytes);

    store st = {0};
    for (uint32_t i = 0; given && given->kind == MF_OBJECT && i < given->count; i++) {
        const mf_node *m = &given->items[i];
        if (m->kind != MF_STRING) continue;
        size_t pn, tn;
        char *p = dup_utf8(m->key, m->key_len, &pn), *t = dup_utf8(m->str, m->len, &tn);
        put(&st, p, pn, t, tn);
        free(p);
        free(t);
    }
    size_t files_before = live_files(&st);

    strs got = {0}, listed = {0}, sized = {0}, locks = {0};
    mf_memory_step *step = NULL;
    mf_doc *req = NULL;
    for (int n = 0;; n++) {
        CHECK(n < MAX_STEPS, "not done after %d steps", n);
        mf_buf b;
        mf_buf_init(&b);
        build_request(&b, input, &st, &got, &listed, &sized);
        CHECK(!b.failed, "request not built");
        mf_memory_step_free(step);
        mf_doc_free(req);
        step = NULL;
        req = NULL;
        mf_status s = mf_doc_parse_json(b.data, b.len, &req, &err);
        CHECK(s == MF_OK, "request does not parse: %s", err.message);
        mf_buf_free(&b);
        s = mf_memory_run(req, &lim, &step, &err);
        CHECK(s == MF_OK, "step %d failed: %d %s", n, s, err.message);
        for (size_t i = 0; i < step->lock_count; i++) {
            mf_memory_str l = step->locks[i];
            if (!(l.len == 6 && memcmp(l.ptr, ":files", 6) == 0)) check_key(l, "lock");
            if (n == 0) add(&locks, l.ptr, l.len);
        }
        if (step->done) break;
        bool asked_new = false;
        for (size_t i = 0; i < step->get_count; i++) {
            check_key(step->get[i], "get");
            asked_new |= add(&got, step->get[i].ptr, step->get[i].len);
        }
        for (size_t i = 0; i < step->size_count; i++) {
            check_key(step->size[i], "size");
            asked_new |= add(&sized, step->size[i].ptr, step->size[i].len);
        }
        for (size_t i = 0; i < step->list_count; i++) {
            mf_memory_str p = step->list[i];
            CHECK(p.len >= 10 && memcmp(p.ptr, "/memories/", 10) == 0 && p.ptr[p.len - 1] == '/',
                  "list prefix \"%.*s\"", (int)p.len, p.ptr);
            CHECK(mf_memory_check_path(p.ptr, p.len, NULL) == MF_PATH_OK, "list prefix \"%.*s\" not accepted", (int)p.len, p.ptr);
            asked_new |= add(&listed, p.ptr, p.len);
        }
        CHECK(asked_new, "step %d asks only for what it has", n);
    }

    CHECK(step->content && step->content[step->content_len] == 0, "content not NUL-terminated");
    CHECK(step->content_len > 0 && strlen(step->content) == step->content_len, "content of %zu bytes", step->content_len);
    CHECK(fuzz_utf8_valid(step->content, step->content_len), "content not UTF-8");
    if (step->is_error) CHECK(step->op_count == 0, "an error with %zu store changes", step->op_count);
    bool create = mf_str_eq(mf_get_str(input, "command"), "create");
    for (size_t i = 0; i < step->op_count; i++) {
        const mf_memory_op *op = &step->ops[i];
        check_key(op->path, "op path");
        CHECK(locked(&locks, op->path), "op on \"%.*s\" outside the first step's locks", (int)op->path.len, op->path.ptr);
        entry *e = find(&st, op->path.ptr, op->path.len);
        switch (op->kind) {
        case MF_MEMORY_PUT:
            CHECK(fuzz_utf8_valid(op->text.ptr, op->text.len), "put text not UTF-8");
            CHECK(op->text.len <= lim.max_file_bytes, "put of %zu bytes over %" PRIu64, op->text.len, lim.max_file_bytes);
            put(&st, op->path.ptr, op->path.len, op->text.ptr, op->text.len);
            break;
        case MF_MEMORY_DELETE:
            CHECK(e != NULL, "delete of a missing file \"%.*s\"", (int)op->path.len, op->path.ptr);
            e->live = false;
            break;
        case MF_MEMORY_RENAME:
            check_key(op->to, "rename target");
            CHECK(locked(&locks, op->to), "rename to \"%.*s\" outside the locks", (int)op->to.len, op->to.ptr);
            CHECK(e != NULL, "rename of a missing file");
            CHECK(!find(&st, op->to.ptr, op->to.len), "rename over an existing file \"%.*s\"", (int)op->to.len, op->to.ptr);
            e->live = false;
            char *text = dup_bytes(e->text, e->tlen);
            size_t tlen = e->tlen;
            put(&st, op->to.ptr, op->to.len, text, tlen); /* may move the entries */
            free(text);
            break;
        default:
            CHECK(0, "op kind %d", op->kind);
        }
    }
    /* A create that succeeds adds exactly one counted file to a store below the limit; the
     * limit's refusal comes only at the limit. */
    if (create && !step->is_error)
        CHECK(files_before < lim.max_files && live_files(&st) == files_before + 1,
              "create passed max_files (%zu files before, %zu after, max %" PRIu64 ")", files_before, live_files(&st),
              lim.max_files);
    static const char FULL[] = "Error: The memory directory already holds";
    if (create && step->is_error && step->content_len >= sizeof FULL - 1 && memcmp(step->content, FULL, sizeof FULL - 1) == 0)
        CHECK(files_before >= lim.max_files, "create refused at %zu files of %" PRIu64, files_before, lim.max_files);

    mf_memory_step_free(step);
    mf_doc_free(req);
    strs_free(&got);
    strs_free(&listed);
    strs_free(&sized);
    strs_free(&locks);
    for (size_t i = 0; i < st.n; i++) { free(st.e[i].path); free(st.e[i].text); }
    free(st.e);
    mf_doc_free(doc);
    return 0;
}
