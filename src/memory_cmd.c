/* memory_cmd.c — the memory tool's commands (view, create, str_replace, insert, delete,
 * rename) as steps over a store the engine never calls: each step reads what the host
 * has fetched so far, and either names what else it needs or gives the outcome (the
 * result text and the store changes). Paths are checked before anything is asked of the
 * store. Directories are implicit: a path is a directory when files lie under it, and
 * /memories always exists. A key in a store listing that is not a valid memory path is
 * ignored (never shown, read, moved or deleted, and not counted toward max_files: the
 * model could not delete it to make room). */
#include "memory.h"
#include "tree.h"

#include <stdlib.h>
#include <string.h>

static const char ROOT_DIR[] = "/memories/";
static const char FILES_LOCK[] = ":files"; /* held by create, so two creates never pass max_files together */
#define MAX_LISTED_LINES 100u               /* line numbers named for an old_str that is not unique */

typedef struct holder {
    mf_memory_step step; /* first, so a step pointer is the holder's */
    mf_arena arena;
    char *content;
} holder;

typedef struct strvec { mf_memory_str *items; size_t count, cap; } strvec;

typedef struct ctx {
    mf_arena *arena;
    const mf_node *input, *files, *lists, *sizes;
    const mf_node **size_index; /* the members of `sizes` sorted by key, built on first use */
    size_t size_index_len;
    mf_memory_limits lim;
    mf_memory_str command;
    strvec locks, get, list, size;
    mf_memory_op *ops;
    size_t op_count, op_cap;
    mf_buf out;
    bool said, is_error, nomem;
} ctx;

typedef enum avail { MISSING, ABSENT, PRESENT } avail;

void mf_memory_limits_init(mf_memory_limits *limits)
{
    limits->max_file_bytes = (uint64_t)1 << 20;
    limits->max_files = 1000;
    limits->max_view_bytes = 32768;
}

/* ---- small helpers ---------------------------------------------------------------- */

static mf_memory_str str_of(const char *p, size_t n) { mf_memory_str s = {p, n}; return s; }
static mf_memory_str str_node(const mf_node *n) { return str_of(n->str, n->len); }
static bool str_eq(mf_memory_str a, mf_memory_str b) { return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0; }
static bool is_root(mf_memory_str key) { return key.len == MF_MEMORY_ROOT_LEN; }
/* True when `k` lies strictly under the directory `dir`. */
static bool under(mf_memory_str k, mf_memory_str dir)
{
    return k.len > dir.len + 1 && memcmp(k.ptr, dir.ptr, dir.len) == 0 && k.ptr[dir.len] == '/';
}

static bool grow(ctx *c, void **items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap) return true;
    size_t cap2 = *cap ? *cap * 2 : 8;
    void *p = mf_arena_alloc(c->arena, cap2 * size);
    if (!p) { c->nomem = true; return false; }
    if (count) memcpy(p, *items, count * size);
    *items = p;
    *cap = cap2;
    return true;
}

/* Appends s to v; with `unique` the caller knows s is not in v yet (a directory's files
 * can be many: no quadratic search for them). */
static void push_str(ctx *c, strvec *v, mf_memory_str s, bool unique)
{
    for (size_t i = 0; !unique && i < v->count; i++)
        if (str_eq(v->items[i], s)) return;
    if (!grow(c, (void **)&v->items, &v->cap, v->count, sizeof *v->items)) return;
    v->items[v->count++] = s;
}

static mf_memory_op *add_op(ctx *c, mf_memory_op_kind kind, mf_memory_str path)
{
    if (!grow(c, (void **)&c->ops, &c->op_cap, c->op_count, sizeof *c->ops)) return NULL;
    mf_memory_op *op = &c->ops[c->op_count++];
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->path = path;
    return op;
}

/* Writes the result: `fmt` as mf_memory_printf takes it. */
static void say(ctx *c, bool error, const char *fmt, ...)
{
    c->said = true;
    c->is_error = error;
    va_list ap;
    va_start(ap, fmt);
    mf_memory_vprintf(&c->out, fmt, ap);
    va_end(ap);
}

#define S(s) (int)(s).len, (s).ptr /* an mf_memory_str for %.*s */

static void say_missing(ctx *c, mf_memory_str key)
{
    say(c, true, "The path %.*s does not exist. Please provide a valid path.", S(key));
}

/* The member `k` of an object (the last one when it repeats), or NULL. */
static const mf_node *member(const mf_node *obj, mf_memory_str k)
{
    if (!obj || obj->kind != MF_OBJECT) return NULL;
    const mf_node *found = NULL;
    for (uint32_t i = 0; i < obj->count; i++) {
        const mf_node *m = &obj->items[i];
        if (m->key_len == k.len && memcmp(m->key, k.ptr, k.len) == 0) found = m;
    }
    return found;
}

/* An integer from a number's text or a string of digits ("-1" included); false for
 * anything else (fractions, exponents, other types, absurd sizes). */
static bool as_integer(const mf_node *n, int64_t *out)
{
    if (!n || (n->kind != MF_NUMBER && n->kind != MF_STRING)) return false;
    size_t i = 0;
    bool negative = n->len > 0 && n->str[0] == '-';
    if (negative) i = 1;
    if (i == n->len || n->len - i > 15) return false;
    int64_t v = 0;
    for (; i < n->len; i++) {
        if (n->str[i] < '0' || n->str[i] > '9') return false;
        v = v * 10 + (n->str[i] - '0');
    }
    *out = negative ? -v : v;
    return true;
}

/* Writes a parameter's value as the model sent it (a number's text, a string's bytes). */
static void put_raw(ctx *c, const mf_node *n)
{
    if (n->kind == MF_NUMBER || n->kind == MF_STRING) mf_buf_put_utf8(&c->out, n->str, n->len);
    else mf_write_json(&c->out, n);
}

/* ---- parameters ------------------------------------------------------------------- */

/* The string parameter `name`, or NULL: when it is absent and optional nothing is said,
 * otherwise the error is. */
static const mf_node *str_param(ctx *c, const char *name, bool required)
{
    const mf_node *n = mf_get(c->input, name);
    if (!n || n->kind == MF_NULL) {
        if (required) say(c, true, "Error: Parameter `%s` is required for command %.*s.", name, S(c->command));
        return NULL;
    }
    if (n->kind != MF_STRING) {
        say(c, true, "Error: Parameter `%s` must be a string.", name);
        return NULL;
    }
    return n;
}

/* The checked path in parameter `name`, as the store key; false after saying why not. */
static bool path_param(ctx *c, const char *name, mf_memory_str *key)
{
    const mf_node *n = str_param(c, name, true);
    if (!n) return false;
    size_t key_len = 0;
    mf_path_problem problem = mf_memory_check_path(n->str, n->len, &key_len);
    if (problem == MF_PATH_EMPTY) {
        say(c, true, "Error: Parameter `%s` is empty. Memory paths look like /memories/notes.md.", name);
        return false;
    }
    if (problem) {
        say(c, true, "Error: The path ");
        mf_memory_put_shown_path(&c->out, n->str, n->len);
        mf_memory_printf(&c->out, " is not allowed: %s. Memory paths look like /memories/notes.md.",
                         mf_path_problem_text(problem));
        return false;
    }
    *key = str_of(n->str, key_len);
    return true;
}

/* ---- what the store holds ---------------------------------------------------------- */

static avail file_text(ctx *c, mf_memory_str key, mf_memory_str *text)
{
    const mf_node *n = member(c->files, key);
    if (!n) { push_str(c, &c->get, key, false); return MISSING; }
    if (n->kind != MF_STRING) return ABSENT;
    *text = str_node(n);
    return PRESENT;
}

/* "key/" (the root's is static). */
static bool dir_prefix(ctx *c, mf_memory_str key, mf_memory_str *prefix)
{
    if (is_root(key)) { *prefix = str_of(ROOT_DIR, sizeof ROOT_DIR - 1); return true; }
    char *p = mf_arena_alloc(c->arena, key.len + 1);
    if (!p) { c->nomem = true; return false; }
    memcpy(p, key.ptr, key.len);
    p[key.len] = '/';
    *prefix = str_of(p, key.len + 1);
    return true;
}

/* The listing of `prefix` (an array of paths), or NULL when it must be asked for. */
static const mf_node *listing(ctx *c, mf_memory_str prefix)
{
    const mf_node *n = member(c->lists, prefix);
    if (!n) push_str(c, &c->list, prefix, false);
    return n;
}

/* The i-th entry of a listing when it is a valid memory path starting with `prefix`. */
static bool listed_key(const mf_node *list, uint32_t i, mf_memory_str prefix, mf_memory_str *key)
{
    const mf_node *n = &list->items[i];
    if (n->kind != MF_STRING || n->len <= prefix.len || memcmp(n->str, prefix.ptr, prefix.len) != 0) return false;
    if (!mf_memory_is_key(n->str, n->len)) return false;
    *key = str_node(n);
    return true;
}

static uint32_t list_count(const mf_node *list) { return list && list->kind == MF_ARRAY ? list->count : 0; }

static int compare_keys(mf_memory_str a, mf_memory_str b)
{
    int d = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
    return d ? d : a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

static int member_order(const void *pa, const void *pb)
{
    const mf_node *a = *(const mf_node *const *)pa, *b = *(const mf_node *const *)pb;
    return compare_keys(str_of(a->key, a->key_len), str_of(b->key, b->key_len));
}

/* The member `key` of the sizes object, by binary search over a sorted index (a listing
 * of thousands of files would make a linear search per file quadratic). */
static const mf_node *size_member(ctx *c, mf_memory_str key)
{
    if (!c->sizes || c->sizes->kind != MF_OBJECT || !c->sizes->count) return NULL;
    if (!c->size_index) {
        c->size_index = mf_arena_alloc(c->arena, c->sizes->count * sizeof *c->size_index);
        if (!c->size_index) { c->nomem = true; return NULL; }
        for (uint32_t i = 0; i < c->sizes->count; i++) c->size_index[i] = &c->sizes->items[i];
        c->size_index_len = c->sizes->count;
        qsort(c->size_index, c->size_index_len, sizeof *c->size_index, member_order);
    }
    size_t lo = 0, hi = c->size_index_len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const mf_node *m = c->size_index[mid];
        int d = compare_keys(str_of(m->key, m->key_len), key);
        if (d == 0) return m;
        if (d < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

static avail size_of(ctx *c, mf_memory_str key, uint64_t *out)
{
    const mf_node *f = member(c->files, key);
    if (f && f->kind == MF_STRING) { *out = f->len; return PRESENT; }
    const mf_node *n = size_member(c, key);
    if (!n) { push_str(c, &c->size, key, true); return MISSING; }
    int64_t v = 0;
    *out = as_integer(n, &v) && v > 0 ? (uint64_t)v : 0; /* a file gone meanwhile counts as empty */
    return PRESENT;
}

/* ---- view ------------------------------------------------------------------------- */

static void view_file(ctx *c, mf_memory_str key, mf_memory_str text, const mf_node *range)
{
    size_t n = mf_memory_line_count(text.ptr, text.len);
    size_t first = 1, last = n;
    if (range) {
        int64_t from = 0, to = 0;
        as_integer(&range->items[0], &from);
        as_integer(&range->items[1], &to);
        if (from < 1 || (uint64_t)from > (n ? n : 1)) {
            say(c, true, "Error: Invalid `view_range` parameter: ");
            put_raw(c, range);
            mf_memory_printf(&c->out, ". Its first element `%.*s` should be within the range of lines of the file: [1, %zu]",
                             S(str_node(&range->items[0])), n);
            return;
        }
        if (to != -1 && to < from) {
            say(c, true, "Error: Invalid `view_range` parameter: ");
            put_raw(c, range);
            mf_memory_printf(&c->out, ". Its second element `%.*s` should be -1 or at least its first element `%.*s`",
                             S(str_node(&range->items[1])), S(str_node(&range->items[0])));
            return;
        }
        first = (size_t)from;
        if (to != -1 && (uint64_t)to < n) last = (size_t)to;
    }
    say(c, false, "Here's the content of %.*s with line numbers:\n", S(key));
    bool cut = false;
    size_t budget = (size_t)c->lim.max_view_bytes;
    size_t shown = mf_memory_put_numbered(&c->out, text.ptr, text.len, first, last, budget, &cut);
    if (cut) {
        mf_memory_printf(&c->out, "\n[Line %zu is longer than the view limit of %zu bytes and was cut.", shown, budget);
        if (shown < last) mf_memory_printf(&c->out, " Use view_range [%zu, %zu] to read on.", shown + 1, last);
        mf_buf_putc(&c->out, ']');
    } else if (shown < last) {
        mf_memory_printf(&c->out,
                         "\n[Output truncated at the view limit of %zu bytes: lines %zu-%zu of %zu shown. Use view_range [%zu, %zu] to read on.]",
                         budget, first, shown, n, shown + 1, last);
    }
}

/* Tree order: a directory's files right after it ("a", "a/b", "a.txt"). */
static int tree_order(const void *pa, const void *pb)
{
    const mf_memory_str *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    for (size_t i = 0; i < n; i++) {
        unsigned x = a->ptr[i] == '/' ? 0u : (unsigned char)a->ptr[i] + 1u;
        unsigned y = b->ptr[i] == '/' ? 0u : (unsigned char)b->ptr[i] + 1u;
        if (x != y) return x < y ? -1 : 1;
    }
    return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

/* A name is hidden when it starts with a dot; node_modules is left out as well. */
static bool is_hidden(const char *rel, size_t len)
{
    for (size_t at = 0; at < len;) {
        size_t end = at;
        while (end < len && rel[end] != '/') end++;
        if (rel[at] == '.' || (end - at == 12 && memcmp(rel + at, "node_modules", 12) == 0)) return true;
        at = end + 1;
    }
    return false;
}

typedef struct entry { mf_memory_str path; uint64_t size; } entry;

/* Where the path segment of rel that starts at `from` ends (a '/' or the end). */
static size_t segment_end(const char *rel, size_t from, size_t len)
{
    while (from < len && rel[from] != '/') from++;
    return from;
}

/* Adds `size` to the listing's entry for `path`: the entry at *last when it is that path
 * (the keys are sorted, so a path's keys are adjacent), else a new one appended. Returns
 * whether the entry is new. */
static bool tally(entry *entries, size_t *count, size_t *last, mf_memory_str path, uint64_t size)
{
    bool fresh = *last == SIZE_MAX || !str_eq(entries[*last].path, path);
    if (fresh) {
        entries[*count] = (entry){.path = path, .size = 0};
        *last = (*count)++;
    }
    entries[*last].size += size;
    return fresh;
}

static void view_dir(ctx *c, mf_memory_str key)
{
    mf_memory_str prefix;
    if (!dir_prefix(c, key, &prefix)) return;
    const mf_node *list = listing(c, prefix);
    if (!list) return;
    uint32_t total = list_count(list);
    mf_memory_str *keys = mf_arena_alloc(c->arena, (total ? total : 1) * sizeof *keys);
    if (!keys) { c->nomem = true; return; }
    size_t n = 0;
    bool any = false;
    for (uint32_t i = 0; i < total; i++) {
        mf_memory_str k;
        if (!listed_key(list, i, prefix, &k)) continue;
        any = true;
        if (!is_hidden(k.ptr + prefix.len, k.len - prefix.len)) keys[n++] = k;
    }
    if (!any && !is_root(key)) { say_missing(c, key); return; }
    qsort(keys, n, sizeof *keys, tree_order);
    size_t unique = 0;
    for (size_t i = 0; i < n; i++)
        if (!unique || !str_eq(keys[unique - 1], keys[i])) keys[unique++] = keys[i];
    n = unique;
    uint64_t *sizes = mf_arena_alloc(c->arena, (n ? n : 1) * sizeof *sizes);
    if (!sizes) { c->nomem = true; return; }
    for (size_t i = 0; i < n; i++) size_of(c, keys[i], &sizes[i]);
    if (c->size.count || c->nomem) return;

    /* Entries at depth 1 and 2; a directory's size is the sum of the files below it. */
    entry *entries = mf_arena_alloc(c->arena, (n ? 2 * n : 1) * sizeof *entries);
    if (!entries) { c->nomem = true; return; }
    size_t count = 0, last1 = SIZE_MAX, last2 = SIZE_MAX;
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rel = keys[i].ptr + prefix.len;
        size_t rel_len = keys[i].len - prefix.len, end1 = segment_end(rel, 0, rel_len);
        if (tally(entries, &count, &last1, str_of(keys[i].ptr, prefix.len + end1), sizes[i])) last2 = SIZE_MAX;
        sum += sizes[i];
        if (end1 == rel_len) continue;
        size_t end2 = segment_end(rel, end1 + 1, rel_len);
        tally(entries, &count, &last2, str_of(keys[i].ptr, prefix.len + end2), sizes[i]);
    }

    say(c, false, "Here're the files and directories up to 2 levels deep in %.*s, excluding hidden items and node_modules:\n",
        S(key));
    size_t base = c->out.len, budget = (size_t)c->lim.max_view_bytes;
    mf_memory_put_size(&c->out, sum);
    mf_memory_printf(&c->out, "\t%.*s", S(key));
    for (size_t i = 0; i < count; i++) {
        size_t before = c->out.len;
        mf_buf_putc(&c->out, '\n');
        mf_memory_put_size(&c->out, entries[i].size);
        mf_memory_printf(&c->out, "\t%.*s", S(entries[i].path));
        if (!c->out.failed && c->out.len - base > budget) {
            c->out.len = before;
            mf_memory_printf(&c->out,
                             "\n[Listing truncated at the view limit of %zu bytes: %zu of %zu entries shown. View a subdirectory to see the rest.]",
                             budget, i, count);
            break;
        }
    }
}

static void cmd_view(ctx *c)
{
    mf_memory_str key;
    if (!path_param(c, "path", &key)) return;
    const mf_node *range = mf_get(c->input, "view_range");
    if (range && range->kind == MF_NULL) range = NULL;
    int64_t ignored;
    if (range && (range->kind != MF_ARRAY || range->count != 2 || !as_integer(&range->items[0], &ignored) ||
                  !as_integer(&range->items[1], &ignored))) {
        say(c, true, "Error: Invalid `view_range` parameter: ");
        put_raw(c, range);
        mf_memory_printf(&c->out, ". It should be a list of two integers [start_line, end_line]; end_line -1 reads to the end.");
        return;
    }
    push_str(c, &c->locks, key, false);
    if (is_root(key)) { view_dir(c, key); return; }
    mf_memory_str text;
    avail a = file_text(c, key, &text);
    if (a == MISSING) return;
    if (a == PRESENT) view_file(c, key, text, range);
    else view_dir(c, key);
}

/* ---- create ----------------------------------------------------------------------- */

static bool over_cap(ctx *c, mf_memory_str key, uint64_t bytes, const char *what)
{
    if (bytes <= c->lim.max_file_bytes) return false;
    say(c, true, "Error: %s %.*s %zu bytes, over the limit of %zu bytes for one memory file.", what, S(key),
        (size_t)bytes, (size_t)c->lim.max_file_bytes);
    return true;
}

static void cmd_create(ctx *c)
{
    mf_memory_str key;
    if (!path_param(c, "path", &key)) return;
    const mf_node *text = str_param(c, "file_text", true);
    if (!text) return;
    if (is_root(key)) { say(c, true, "Error: The path %.*s is a directory", S(key)); return; }
    if (over_cap(c, key, text->len, "The file text would make")) return;
    push_str(c, &c->locks, key, false);
    push_str(c, &c->locks, str_of(FILES_LOCK, sizeof FILES_LOCK - 1), false);
    mf_memory_str all_prefix = str_of(ROOT_DIR, sizeof ROOT_DIR - 1);
    const mf_node *all = listing(c, all_prefix);
    if (!all) return;
    size_t files = 0;
    bool exists = false, is_dir = false;
    mf_memory_str ancestor = {NULL, 0};
    for (uint32_t i = 0; i < list_count(all); i++) {
        mf_memory_str k;
        if (!listed_key(all, i, all_prefix, &k)) continue;
        files++;
        if (str_eq(k, key)) exists = true;
        else if (under(k, key)) is_dir = true;
        else if (under(key, k)) ancestor = k;
    }
    if (exists) { say(c, true, "Error: File %.*s already exists", S(key)); return; }
    if (is_dir) { say(c, true, "Error: The path %.*s is a directory", S(key)); return; }
    if (ancestor.ptr) {
        say(c, true, "Error: Cannot create %.*s: %.*s is a file, not a directory", S(key), S(ancestor));
        return;
    }
    if (files >= c->lim.max_files) {
        say(c, true, "Error: The memory directory already holds %zu files, the most it may hold. Delete or merge files before creating new ones.",
            files);
        return;
    }
    mf_memory_op *op = add_op(c, MF_MEMORY_PUT, key);
    if (!op) return;
    op->text = str_node(text);
    say(c, false, "File created successfully at: %.*s", S(key));
}

/* ---- str_replace and insert ------------------------------------------------------- */

static void cmd_str_replace(ctx *c)
{
    mf_memory_str key;
    if (!path_param(c, "path", &key)) return;
    const mf_node *old_node = str_param(c, "old_str", true);
    if (!old_node) return;
    const mf_node *new_node = str_param(c, "new_str", false);
    if (c->said) return;
    mf_memory_str old = str_node(old_node), repl = new_node ? str_node(new_node) : str_of("", 0);
    if (!old.len) { say(c, true, "Error: Parameter `old_str` must not be empty."); return; }
    if (is_root(key)) { say(c, true, "Error: The path %.*s is a directory", S(key)); return; }
    push_str(c, &c->locks, key, false);
    mf_memory_str text;
    avail a = file_text(c, key, &text);
    if (a == MISSING) return;
    if (a == ABSENT) { say_missing(c, key); return; }

    size_t found = 0, at = 0, line_count = 0;
    size_t lines[MAX_LISTED_LINES];
    if (old.len <= text.len) {
        size_t *scratch = mf_arena_alloc(c->arena, old.len * sizeof *scratch);
        if (!scratch) { c->nomem = true; return; }
        found = mf_memory_find(text.ptr, text.len, old.ptr, old.len, scratch, &at, lines, MAX_LISTED_LINES, &line_count);
    }
    if (found == 0) {
        say(c, true, "No replacement was performed, old_str `%.*s` did not appear verbatim in %.*s.", S(old), S(key));
        return;
    }
    if (found > 1) {
        say(c, true, "No replacement was performed. Multiple occurrences of old_str `%.*s` in lines: [", S(old));
        size_t listed = line_count < MAX_LISTED_LINES ? line_count : MAX_LISTED_LINES;
        for (size_t i = 0; i < listed; i++) mf_memory_printf(&c->out, i ? ", %zu" : "%zu", lines[i]);
        if (line_count > listed) mf_buf_puts(&c->out, ", ...");
        mf_buf_puts(&c->out, "]. Please ensure it is unique");
        return;
    }
    size_t new_len = text.len - old.len + repl.len;
    if (over_cap(c, key, new_len, "The edit would make")) return;
    char *edited = mf_arena_alloc(c->arena, new_len + 1);
    if (!edited) { c->nomem = true; return; }
    memcpy(edited, text.ptr, at);
    if (repl.len) memcpy(edited + at, repl.ptr, repl.len);
    memcpy(edited + at + repl.len, text.ptr + at + old.len, text.len - at - old.len);
    mf_memory_op *op = add_op(c, MF_MEMORY_PUT, key);
    if (!op) return;
    op->text = str_of(edited, new_len);

    say(c, false, "The memory file has been edited.");
    size_t total = mf_memory_line_count(edited, new_len);
    if (!total) return;
    size_t from = mf_memory_line_of(edited, new_len, at);
    size_t to = mf_memory_line_of(edited, new_len, repl.len ? at + repl.len - 1 : at);
    from = from > 4 ? from - 4 : 1;
    to = to + 4 < total ? to + 4 : total;
    bool cut = false;
    mf_buf_putc(&c->out, '\n');
    mf_memory_put_numbered(&c->out, edited, new_len, from, to, (size_t)c->lim.max_view_bytes, &cut);
}

static void cmd_insert(ctx *c)
{
    mf_memory_str key;
    if (!path_param(c, "path", &key)) return;
    const mf_node *line = mf_get(c->input, "insert_line");
    if (!line || line->kind == MF_NULL) {
        say(c, true, "Error: Parameter `insert_line` is required for command insert.");
        return;
    }
    const mf_node *ins_node = str_param(c, "insert_text", true);
    if (!ins_node) return;
    if (is_root(key)) { say(c, true, "Error: The path %.*s is a directory", S(key)); return; }
    push_str(c, &c->locks, key, false);
    mf_memory_str text;
    avail a = file_text(c, key, &text);
    if (a == MISSING) return;
    if (a == ABSENT) { say_missing(c, key); return; }
    size_t n = mf_memory_line_count(text.ptr, text.len);
    int64_t v = 0;
    if (!as_integer(line, &v) || v < 0 || (uint64_t)v > n) {
        say(c, true, "Error: Invalid `insert_line` parameter: ");
        put_raw(c, line);
        mf_memory_printf(&c->out, ". It should be within the range of lines of the file: [0, %zu]", n);
        return;
    }
    mf_memory_str ins = str_node(ins_node);
    size_t at = mf_memory_line_offset(text.ptr, text.len, (size_t)v);
    bool nl_before = at == text.len && text.len > 0 && text.ptr[text.len - 1] != '\n';
    bool nl_after = ins.len == 0 || ins.ptr[ins.len - 1] != '\n';
    size_t new_len = text.len + ins.len + nl_before + nl_after;
    if (over_cap(c, key, new_len, "The insert would make")) return;
    char *edited = mf_arena_alloc(c->arena, new_len + 1);
    if (!edited) { c->nomem = true; return; }
    size_t w = 0;
    memcpy(edited, text.ptr, at);
    w = at;
    if (nl_before) edited[w++] = '\n';
    if (ins.len) memcpy(edited + w, ins.ptr, ins.len);
    w += ins.len;
    if (nl_after) edited[w++] = '\n';
    memcpy(edited + w, text.ptr + at, text.len - at);
    mf_memory_op *op = add_op(c, MF_MEMORY_PUT, key);
    if (!op) return;
    op->text = str_of(edited, new_len);
    say(c, false, "The file %.*s has been edited.", S(key));
}

/* ---- delete and rename ------------------------------------------------------------ */

static void cmd_delete(ctx *c)
{
    mf_memory_str key;
    if (!path_param(c, "path", &key)) return;
    if (is_root(key)) { say(c, true, "Error: The /memories directory itself cannot be deleted"); return; }
    push_str(c, &c->locks, key, false);
    mf_memory_str text;
    avail a = file_text(c, key, &text);
    if (a == MISSING) return;
    if (a == PRESENT) {
        if (add_op(c, MF_MEMORY_DELETE, key)) say(c, false, "Successfully deleted %.*s", S(key));
        return;
    }
    mf_memory_str prefix;
    if (!dir_prefix(c, key, &prefix)) return;
    const mf_node *list = listing(c, prefix);
    if (!list) return;
    for (uint32_t i = 0; i < list_count(list); i++) {
        mf_memory_str k;
        if (listed_key(list, i, prefix, &k) && !add_op(c, MF_MEMORY_DELETE, k)) return;
    }
    if (!c->op_count) { say_missing(c, key); return; }
    say(c, false, "Successfully deleted %.*s", S(key));
}

static void cmd_rename(ctx *c)
{
    mf_memory_str from, to;
    if (!path_param(c, "old_path", &from) || !path_param(c, "new_path", &to)) return;
    if (is_root(from)) { say(c, true, "Error: The /memories directory itself cannot be renamed"); return; }
    push_str(c, &c->locks, from, false);
    push_str(c, &c->locks, to, false);
    mf_memory_str all_prefix = str_of(ROOT_DIR, sizeof ROOT_DIR - 1);
    const mf_node *all = listing(c, all_prefix);
    if (!all) return;
    bool src_file = false, src_dir = false, taken = is_root(to);
    mf_memory_str ancestor = {NULL, 0};
    for (uint32_t i = 0; i < list_count(all); i++) {
        mf_memory_str k;
        if (!listed_key(all, i, all_prefix, &k)) continue;
        if (str_eq(k, from)) src_file = true;
        else if (under(k, from)) src_dir = true;
        if (str_eq(k, to) || under(k, to)) taken = true;
        else if (under(to, k)) ancestor = k;
    }
    if (!src_file && !src_dir) { say_missing(c, from); return; }
    if (taken) { say(c, true, "Error: The destination %.*s already exists", S(to)); return; }
    if (under(to, from)) {
        say(c, true, "Error: Cannot rename %.*s to %.*s, a path inside itself", S(from), S(to));
        return;
    }
    if (ancestor.ptr) {
        say(c, true, "Error: Cannot rename to %.*s: %.*s is a file, not a directory", S(to), S(ancestor));
        return;
    }
    if (src_file) {
        mf_memory_op *op = add_op(c, MF_MEMORY_RENAME, from);
        if (!op) return;
        op->to = to;
    } else {
        for (uint32_t i = 0; i < list_count(all); i++) {
            mf_memory_str k;
            if (!listed_key(all, i, all_prefix, &k) || !under(k, from)) continue;
            size_t len = to.len + k.len - from.len;
            char *moved = mf_arena_alloc(c->arena, len + 1);
            if (!moved) { c->nomem = true; return; }
            memcpy(moved, to.ptr, to.len);
            memcpy(moved + to.len, k.ptr + from.len, k.len - from.len);
            mf_path_problem problem = mf_memory_check_path(moved, len, NULL);
            if (problem) {
                c->op_count = 0;
                say(c, true, "Error: Cannot rename %.*s to %.*s: %.*s would move to ", S(from), S(to), S(k));
                mf_memory_put_shown_path(&c->out, moved, len);
                mf_memory_printf(&c->out, ", which is not allowed (%s)", mf_path_problem_text(problem));
                return;
            }
            mf_memory_op *op = add_op(c, MF_MEMORY_RENAME, k);
            if (!op) return;
            op->to = str_of(moved, len);
        }
    }
    say(c, false, "Successfully renamed %.*s to %.*s", S(from), S(to));
}

/* ---- the step --------------------------------------------------------------------- */

static void dispatch(ctx *c)
{
    if (!c->input || c->input->kind != MF_OBJECT) {
        say(c, true, "Error: The tool input must be an object with a `command` and its parameters.");
        return;
    }
    const mf_node *cmd = mf_get(c->input, "command");
    if (!cmd || cmd->kind != MF_STRING) {
        say(c, true, "Error: Parameter `command` is required: one of view, create, str_replace, insert, delete, rename.");
        return;
    }
    c->command = str_node(cmd);
    static const struct { const char *name; void (*run)(ctx *); } commands[] = {
        {"view", cmd_view}, {"create", cmd_create}, {"str_replace", cmd_str_replace},
        {"insert", cmd_insert}, {"delete", cmd_delete}, {"rename", cmd_rename},
    };
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (mf_str_eq(cmd, commands[i].name)) { commands[i].run(c); return; }
    }
    say(c, true, "Error: Unknown command `");
    mf_memory_put_shown_path(&c->out, cmd->str, cmd->len);
    mf_buf_puts(&c->out, "`. The memory tool's commands are view, create, str_replace, insert, delete and rename.");
}

mf_status mf_memory_run(const mf_doc *request, const mf_memory_limits *limits, mf_memory_step **out,
                        mf_error *err)
{
    if (!out) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL output pointer");
    *out = NULL;
    if (!request || !request->root || request->root->kind != MF_OBJECT)
        return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "the request must be an object {input, files, lists, sizes}");
    holder *h = mf_alloc(sizeof *h);
    if (!h) return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory");
    memset(h, 0, sizeof *h);
    mf_arena_init(&h->arena);

    ctx c;
    memset(&c, 0, sizeof c);
    c.arena = &h->arena;
    if (limits) c.lim = *limits;
    else mf_memory_limits_init(&c.lim);
    if (c.lim.max_view_bytes < 256) c.lim.max_view_bytes = 256;
    if (c.lim.max_view_bytes > SIZE_MAX / 2) c.lim.max_view_bytes = SIZE_MAX / 2;
    const mf_node *root = request->root;
    c.input = mf_get(root, "input");
    c.files = mf_get(root, "files");
    c.lists = mf_get(root, "lists");
    c.sizes = mf_get(root, "sizes");
    mf_buf_init(&c.out);
    dispatch(&c);

    mf_memory_step *step = &h->step;
    step->done = !(c.get.count || c.list.count || c.size.count);
    if (!step->done || !c.said) {
        /* asking for data: the outcome is not known yet, whatever was written so far */
        c.out.len = 0;
        c.op_count = 0;
        c.is_error = false;
        if (step->done) say(&c, true, "Error: The memory command produced no result.");
    }
    if (c.nomem || c.out.failed) {
        mf_buf_free(&c.out);
        mf_memory_step_free(step);
        return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory");
    }
    mf_status st = mf_buf_finish(&c.out, &h->content, &step->content_len, err);
    if (st) {
        mf_memory_step_free(step);
        return st;
    }
    step->content = h->content;
    step->is_error = c.is_error;
    step->locks = c.locks.items;
    step->lock_count = c.locks.count;
    step->get = c.get.items;
    step->get_count = c.get.count;
    step->list = c.list.items;
    step->list_count = c.list.count;
    step->size = c.size.items;
    step->size_count = c.size.count;
    step->ops = c.ops;
    step->op_count = c.op_count;
    *out = step;
    return MF_OK;
}

void mf_memory_step_free(mf_memory_step *step)
{
    if (!step) return;
    holder *h = (holder *)step;
    mf_arena_free(&h->arena);
    mf_dealloc(h->content);
    mf_dealloc(h);
}
