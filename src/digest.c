/* digest.c — a summary written without a model, for when none is configured (the demo,
 * the CLI) or as a fallback: deterministic, and built only from what the conversation
 * says. Sections: the user's requests, the tool activity (names, counts, errors, key
 * arguments), the files and identifiers touched, the latest assistant conclusions. When
 * it is over max_tokens the lists shrink, and as a last resort the text is cut at a line. */
#include "prompt.h"
#include "profiles.h"

#include <string.h>

#define MAX_TOOLS 64
#define MAX_VALUES 6
#define MAX_FILES 24

typedef struct span { const char *s; size_t n; } span;

typedef struct tool_stat {
    span name;
    size_t calls, errors;
    span values[MAX_VALUES];
    size_t nvalues;
} tool_stat;

typedef struct digest {
    const mf_view *view;
    tool_stat tools[MAX_TOOLS];
    size_t ntools;
    span files[MAX_FILES];
    size_t nfiles;
    mf_arena arena;  /* parsed OpenAI argument strings */
    void **owners;   /* their cJSON trees, whose strings the digest points into */
    size_t nowners, cap_owners;
    bool failed;     /* an allocation failed */
} digest;

static bool remember_owner(digest *d, void *owner)
{
    if (d->nowners == d->cap_owners) {
        size_t cap = d->cap_owners ? d->cap_owners * 2 : 8;
        void **grown = mf_realloc(d->owners, cap * sizeof *grown);
        if (!grown) return false;
        d->owners = grown;
        d->cap_owners = cap;
    }
    d->owners[d->nowners++] = owner;
    return true;
}

static bool span_eq(span a, span b) { return a.n == b.n && memcmp(a.s, b.s, a.n) == 0; }

static tool_stat *tool_of(digest *d, const char *name, size_t n)
{
    span key = {name && n ? name : "unknown", name && n ? n : 7};
    for (size_t i = 0; i < d->ntools; i++) if (span_eq(d->tools[i].name, key)) return &d->tools[i];
    if (d->ntools == MAX_TOOLS) return NULL;
    tool_stat *t = &d->tools[d->ntools++];
    memset(t, 0, sizeof *t);
    t->name = key;
    return t;
}

static void add_unique(span *list, size_t *n, size_t cap, span v)
{
    if (!v.n) return;
    for (size_t i = 0; i < *n; i++) if (span_eq(list[i], v)) return;
    if (*n < cap) list[(*n)++] = v;
}

static bool looks_like_path(span v)
{
    if (v.n < 3 || v.n > 160) return false;
    bool slash = false, dot = false;
    for (size_t i = 0; i < v.n; i++) {
        char c = v.s[i];
        if (c == ' ' || c == '\n' || c == '\t' || c == '"' || c == '<' || c == '>') return false;
        if (c == '/') slash = true;
        if (c == '.' && i > 0 && i + 1 < v.n) dot = true;
    }
    return slash || dot;
}

/* The arguments worth naming: paths, commands, patterns, queries, URLs. */
static const char *const KEY_ARGS[] = {"file_path", "path", "filename", "file", "command", "cmd", "pattern",
                                       "query", "url", "uri", "city", "location", "name", "id", NULL};
static const char *const PATH_ARGS[] = {"file_path", "path", "filename", "file", "directory", "dir", NULL};

static void note_call(digest *d, const mf_part *call)
{
    tool_stat *t = tool_of(d, call->name, call->name_len);
    if (!t) return;
    t->calls++;
    const mf_node *args = call->args;
    if (args && args->kind == MF_STRING) { /* OpenAI: a JSON string */
        mf_node *root = NULL;
        void *owner = NULL;
        mf_status st = mf_json_to_tree(&d->arena, args->str, args->len, &root, &owner, NULL);
        if (st == MF_OK && remember_owner(d, owner)) {
            args = root;
        } else {
            /* Arguments that are not JSON name nothing; running out of memory fails. */
            if (st == MF_OK || st == MF_ERR_NOMEM) d->failed = true;
            mf_json_owner_free(owner);
            args = NULL;
        }
    }
    if (!args || args->kind != MF_OBJECT) return;
    const mf_node *value = NULL;
    for (int k = 0; KEY_ARGS[k] && !value; k++) value = mf_get_str(args, KEY_ARGS[k]);
    for (uint32_t i = 0; !value && i < args->count; i++)
        if (args->items[i].kind == MF_STRING) value = &args->items[i];
    if (value) add_unique(t->values, &t->nvalues, MAX_VALUES, (span){value->str, value->len});
    for (int k = 0; PATH_ARGS[k]; k++) {
        const mf_node *p = mf_get_str(args, PATH_ARGS[k]);
        if (p) add_unique(d->files, &d->nfiles, MAX_FILES, (span){p->str, p->len});
    }
    for (uint32_t i = 0; i < args->count; i++) {
        const mf_node *v = &args->items[i];
        if (v->kind == MF_STRING && looks_like_path((span){v->str, v->len}))
            add_unique(d->files, &d->nfiles, MAX_FILES, (span){v->str, v->len});
    }
}

/* ---- writing ---------------------------------------------------------------------- */

typedef struct limits { size_t requests, conclusions, values, files, chars; } limits;

/* A line break of any kind a reader splits on (the set content.c escapes after), or a tab. */
static bool breaks_line(uint32_t cp)
{
    return cp == '\t' || (cp >= 0x0A && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1E) || cp == 0x85 ||
           cp == 0x2028 || cp == 0x2029;
}

/* Writes at most `chars` code points of text on one line, with an ellipsis if cut. Every
 * quote stays on its own bullet's line — no line break of any kind survives — so nothing
 * quoted can start a line of the digest and pass for a heading or a request of its own. */
static void put_clipped(mf_buf *b, const char *s, size_t n, size_t chars)
{
    size_t i = 0, cps = 0, run = 0;
    while (i < n && cps < chars) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp = c;
        size_t len = c < 0x80 ? 1 : mf_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        cps++;
        if (breaks_line(cp)) { /* one line: breaks become spaces */
            mf_buf_put_utf8(b, s + run, i - run);
            mf_buf_putc(b, ' ');
            run = i += len;
            continue;
        }
        i += len;
    }
    mf_buf_put_utf8(b, s + run, i - run);
    if (i < n) mf_buf_puts(b, "…");
}

static bool is_summary_text(const mf_part *p)
{
    if (mf_part_is_compaction(p)) return true; /* carried as the earlier summary, not as a reply */
    return p->kind == MF_PART_TEXT && p->text_len >= sizeof MF_SUMMARY_MARK - 1 &&
           memcmp(p->text, MF_SUMMARY_MARK, sizeof MF_SUMMARY_MARK - 1) == 0;
}

/* The last `limit` text parts of messages with `role`, oldest first, as bullets. */
static void put_texts(mf_buf *b, const mf_view *v, mf_role role, size_t limit, size_t chars, bool zh)
{
    size_t total = 0;
    for (size_t m = 0; m < v->count; m++)
        if (v->msgs[m].role == role)
            for (size_t p = 0; p < v->msgs[m].count; p++)
                total += v->msgs[m].parts[p].kind == MF_PART_TEXT && v->msgs[m].parts[p].text_len &&
                         !is_summary_text(&v->msgs[m].parts[p]);
    size_t skip = total > limit ? total - limit : 0, seen = 0;
    if (skip) {
        mf_buf_puts(b, zh ? "- （另有 " : "- (");
        mf_buf_put_uint(b, skip);
        mf_buf_puts(b, zh ? " 条更早的）\n" : " earlier ones)\n");
    }
    for (size_t m = 0; m < v->count; m++) {
        if (v->msgs[m].role != role) continue;
        for (size_t p = 0; p < v->msgs[m].count; p++) {
            const mf_part *part = &v->msgs[m].parts[p];
            if (part->kind != MF_PART_TEXT || !part->text_len || is_summary_text(part)) continue;
            if (seen++ < skip) continue;
            mf_buf_puts(b, "- ");
            put_clipped(b, part->text, part->text_len, chars);
            mf_buf_putc(b, '\n');
        }
    }
}

/* An earlier summary in the middle is carried over, clipped, so nothing it held is lost. */
static void put_previous(mf_buf *b, const mf_view *v, size_t chars, bool zh)
{
    for (size_t m = 0; m < v->count; m++)
        for (size_t p = 0; p < v->msgs[m].count; p++) {
            const mf_part *part = &v->msgs[m].parts[p];
            bool provider = mf_part_is_compaction(part) && part->text_len; /* the provider's own, in the clear */
            if (!provider && (v->msgs[m].role != MF_ROLE_USER || !is_summary_text(part))) continue;
            size_t skip = provider ? 0 : sizeof MF_SUMMARY_MARK - 1;
            while (skip < part->text_len && (part->text[skip] == '\n' || part->text[skip] == ' ')) skip++;
            mf_buf_puts(b, zh ? "## 更早的摘要\n" : "## Earlier summary\n");
            put_clipped(b, part->text + skip, part->text_len - skip, chars * 4);
            mf_buf_puts(b, "\n\n");
        }
}

static void write_digest(mf_buf *b, const digest *d, const limits *l, bool zh)
{
    const mf_view *v = d->view;
    mf_buf_puts(b, zh ? "此前 " : "Digest of ");
    mf_buf_put_uint(b, v->count);
    mf_buf_puts(b, zh ? " 条消息的摘要（未使用模型，自动生成）。\n\n" : " earlier messages (written without a model).\n\n");
    put_previous(b, v, l->chars, zh);
    mf_buf_puts(b, zh ? "## 用户的请求\n" : "## User requests\n");
    put_texts(b, v, MF_ROLE_USER, l->requests, l->chars, zh);
    if (d->ntools) {
        mf_buf_puts(b, zh ? "\n## 工具调用\n" : "\n## Tool activity\n");
        for (size_t i = 0; i < d->ntools; i++) {
            const tool_stat *t = &d->tools[i];
            mf_buf_puts(b, "- ");
            put_clipped(b, t->name.s, t->name.n, 80);
            mf_buf_puts(b, " ×");
            mf_buf_put_uint(b, t->calls);
            if (t->errors) {
                mf_buf_puts(b, zh ? "（" : " (");
                mf_buf_put_uint(b, t->errors);
                mf_buf_puts(b, zh ? " 次出错）" : t->errors == 1 ? " error)" : " errors)");
            }
            for (size_t k = 0; k < t->nvalues && k < l->values; k++) {
                mf_buf_puts(b, k ? ", " : ": ");
                put_clipped(b, t->values[k].s, t->values[k].n, 80);
            }
            mf_buf_putc(b, '\n');
        }
    }
    if (d->nfiles && l->files) {
        mf_buf_puts(b, zh ? "\n## 涉及的文件和标识\n- " : "\n## Files and identifiers\n- ");
        for (size_t k = 0; k < d->nfiles && k < l->files; k++) {
            if (k) mf_buf_puts(b, ", ");
            put_clipped(b, d->files[k].s, d->files[k].n, 120);
        }
        mf_buf_putc(b, '\n');
    }
    mf_buf_puts(b, zh ? "\n## 助手最近的结论\n" : "\n## Latest assistant conclusions\n");
    put_texts(b, v, MF_ROLE_ASSISTANT, l->conclusions, l->chars, zh);
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
    for (size_t m = 0; m < view.count; m++)
        for (size_t p = 0; p < view.msgs[m].count; p++) {
            const mf_part *part = &view.msgs[m].parts[p];
            if (part->kind == MF_PART_TOOL_CALL) note_call(d, part);
            if (part->kind == MF_PART_TOOL_RESULT && part->is_error) {
                tool_stat *t = tool_of(d, part->name, part->name_len);
                if (t) t->errors++;
            }
        }
    bool zh = (language == MF_LANG_AUTO ? mf_detect_language(&view) : language) == MF_LANG_ZH;
    limits l = {8, 3, MAX_VALUES, MAX_FILES, 400};
    uint64_t budget = (uint64_t)(max_tokens ? max_tokens : 2000) * MF_MILLI;
    mf_buf b;
    mf_buf_init(&b);
    for (int round = 0; !d->failed; round++) {
        b.len = 0;
        write_digest(&b, d, &l, zh);
        if (b.failed || mf_estimate_text(b.data, b.len, profile) <= budget || round == 6) break;
        /* Over budget: halve every list (keeping one of each) and shorten the quotes. */
        l.requests = l.requests > 1 ? l.requests / 2 : 1;
        l.conclusions = l.conclusions > 1 ? l.conclusions / 2 : 1;
        l.values = l.values > 1 ? l.values / 2 : 1;
        l.files = l.files / 2;
        l.chars = l.chars > 60 ? l.chars / 2 : 60;
    }
    /* Last resort: cut at the last line that fits. */
    while (!b.failed && !d->failed && b.len && mf_estimate_text(b.data, b.len, profile) > budget) {
        size_t cut = b.len - 1;
        while (cut > 0 && b.data[cut - 1] != '\n') cut--;
        b.len = cut;
    }
    bool failed = d->failed;
    for (size_t i = 0; i < d->nowners; i++) mf_json_owner_free(d->owners[i]);
    mf_dealloc(d->owners);
    mf_arena_free(&d->arena);
    mf_dealloc(d);
    mf_view_free(&view);
    if (failed) {
        mf_buf_free(&b);
        return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory while writing the digest");
    }
    return mf_buf_finish(&b, out, out_len, err);
}
