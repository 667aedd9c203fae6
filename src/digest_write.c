/* digest_write.c — the digest as text, within its budget. Sections, in the order a
 * continuation reads them (and the last-resort cut drops them from the end): an earlier
 * summary, the user's requests, the constraints at their latest value, the latest test
 * state and errors, the tool activity, files and identifiers, decisions with their reasons,
 * the latest conclusions. Headings in English or Chinese. */
#include "digest_state.h"
#include "profiles.h"
#include "prompt.h"

#include <string.h>

typedef struct limits {
    size_t requests, constraints, errors, decisions, conclusions, values, files, idents, chars;
} limits;

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

static void put_span(mf_buf *b, mf_span s, size_t chars) { put_clipped(b, s.s, s.n, chars); }

static bool counted_text(const mf_part *p) { return p->kind == MF_PART_TEXT && p->text_len && !mf_digest_is_summary_text(p); }

static void put_skipped(mf_buf *b, size_t skipped, bool zh)
{
    mf_buf_puts(b, zh ? "- （另有 " : "- (");
    mf_buf_put_uint(b, skipped);
    mf_buf_puts(b, zh ? " 条更早的）\n" : skipped == 1 ? " earlier one)\n" : " earlier ones)\n");
}

/* The last `limit` text parts of messages with `role`, oldest first, as bullets; with
 * `keep_first`, the first one too (the user's first request usually states the task). */
static void put_texts(mf_buf *b, const mf_view *v, mf_role role, size_t limit, bool keep_first, size_t chars, bool zh)
{
    size_t total = 0;
    for (size_t m = 0; m < v->count; m++)
        if (v->msgs[m].role == role)
            for (size_t p = 0; p < v->msgs[m].count; p++) total += counted_text(&v->msgs[m].parts[p]);
    size_t skip = total > limit ? total - limit : 0, seen = 0;
    size_t first = keep_first && skip ? 1 : 0; /* shown before the skipped ones */
    if (skip && !first) put_skipped(b, skip, zh);
    for (size_t m = 0; m < v->count; m++) {
        if (v->msgs[m].role != role) continue;
        for (size_t p = 0; p < v->msgs[m].count; p++) {
            const mf_part *part = &v->msgs[m].parts[p];
            if (!counted_text(part)) continue;
            size_t at = seen++;
            if (at >= first && at < skip + first) {
                if (at == first && first) put_skipped(b, skip, zh);
                continue;
            }
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
            if (!provider && (v->msgs[m].role != MF_ROLE_USER || !mf_digest_is_summary_text(part))) continue;
            size_t skip = provider ? 0 : sizeof MF_SUMMARY_MARK - 1;
            while (skip < part->text_len && (part->text[skip] == '\n' || part->text[skip] == ' ')) skip++;
            mf_buf_puts(b, zh ? "## 更早的摘要\n" : "## Earlier summary\n");
            put_clipped(b, part->text + skip, part->text_len - skip, chars * 4);
            mf_buf_puts(b, "\n\n");
        }
}

/* Changed constraints first, then the most recently stated: the ones a continuation gets wrong. */
static void put_constraints(mf_buf *b, const digest *d, size_t limit, bool zh)
{
    if (!d->nconstraints || !limit) return;
    mf_buf_puts(b, zh ? "\n## 约束（以最新为准）\n" : "\n## Constraints (latest values)\n");
    bool shown[MF_DIGEST_MAX_CONSTRAINTS] = {false};
    for (size_t k = 0; k < limit && k < d->nconstraints; k++) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < d->nconstraints; i++) {
            if (shown[i]) continue;
            const constraint_entry *c = &d->constraints[i], *o = best == SIZE_MAX ? NULL : &d->constraints[best];
            if (!o || (c->changed && !o->changed) || (c->changed == o->changed && c->seq > o->seq)) best = i;
        }
        shown[best] = true;
        const constraint_entry *c = &d->constraints[best];
        mf_buf_puts(b, "- ");
        put_span(b, c->c.subject, 40);
        mf_buf_puts(b, zh ? "：" : ": ");
        put_span(b, c->c.value, 40);
        if (c->changed) {
            mf_buf_puts(b, zh ? "（此前 " : " (was ");
            put_span(b, c->was, 40);
            mf_buf_puts(b, zh ? "）" : ")");
        }
        mf_buf_putc(b, '\n');
    }
}

static bool run_failed(const mf_test_run *r) { return r->failed || r->packages_failed; }

static void put_counts(mf_buf *b, const mf_test_run *r)
{
    const char *sep = "";
    const uint64_t values[] = {r->failed, r->passed, r->skipped, r->packages_ok, r->packages_failed};
    static const char *const words[] = {" failed", " passed", " skipped", " packages ok", " packages failed"};
    for (int i = 0; i < 5; i++) {
        if (!values[i]) continue;
        mf_buf_puts(b, sep);
        mf_buf_put_uint(b, values[i]);
        mf_buf_puts(b, values[i] == 1 && i >= 3 ? (i == 3 ? " package ok" : " package failed") : words[i]);
        sep = ", ";
    }
    if (!*sep) mf_buf_puts(b, "no tests counted");
}

static void put_failing(mf_buf *b, const mf_test_run *r)
{
    for (size_t i = 0; i < r->nfailing; i++) {
        if (i) mf_buf_puts(b, ", ");
        put_span(b, r->failing[i], 100);
    }
    if (r->more_failing) {
        mf_buf_puts(b, ", +");
        mf_buf_put_uint(b, r->more_failing);
    }
}

static void put_tests(mf_buf *b, const test_state *t, bool zh)
{
    const mf_test_run *r = &t->latest;
    mf_buf_puts(b, "- ");
    mf_buf_puts(b, r->runner);
    mf_buf_puts(b, zh ? "：" : ": ");
    put_counts(b, r);
    if (r->nfailing) {
        mf_buf_puts(b, zh ? "；失败的测试：" : "; failing: ");
        put_failing(b, r);
    }
    if (t->runs > 1) {
        mf_buf_puts(b, zh ? "（最近一次，共 " : " (latest of ");
        mf_buf_put_uint(b, t->runs);
        mf_buf_puts(b, zh ? " 次运行）" : " runs)");
    } else {
        mf_buf_puts(b, zh ? "（最近一次）" : " (latest run)");
    }
    if (t->has_earlier && !run_failed(r)) {
        mf_buf_puts(b, zh ? "；此前失败过：" : "; earlier it failed: ");
        put_counts(b, &t->earlier);
        if (t->earlier.nfailing) {
            mf_buf_puts(b, " — ");
            put_failing(b, &t->earlier);
        }
    }
    mf_buf_putc(b, '\n');
}

static void put_error(mf_buf *b, const error_entry *e, bool zh)
{
    mf_buf_puts(b, "- ");
    put_span(b, e->tool, 60);
    if (e->call.n) {
        mf_buf_puts(b, " `");
        put_span(b, e->call, 80);
        mf_buf_putc(b, '`');
    }
    mf_buf_puts(b, zh ? "：" : ": ");
    put_span(b, e->line, 200);
    if (e->has_exit) {
        mf_buf_puts(b, zh ? "（退出码 " : " (exit code ");
        char num[24];
        size_t n = 0;
        unsigned long long v = e->exit_code < 0 ? (unsigned long long)-e->exit_code : (unsigned long long)e->exit_code;
        do { num[n++] = (char)('0' + v % 10); v /= 10; } while (v);
        if (e->exit_code < 0) mf_buf_putc(b, '-');
        while (n) mf_buf_putc(b, num[--n]);
        mf_buf_puts(b, zh ? "）" : ")");
    }
    if (e->resolved) mf_buf_puts(b, zh ? "，之后已通过" : "; it passed later");
    mf_buf_putc(b, '\n');
}

static void put_state(mf_buf *b, const digest *d, size_t errors, bool zh)
{
    if (!d->nruns && !d->nerrors) return;
    mf_buf_puts(b, zh ? "\n## 测试与错误（最新状态）\n" : "\n## Tests and errors (latest state)\n");
    for (size_t i = 0; i < d->nruns; i++) put_tests(b, &d->runs[i], zh);
    /* The latest errors, oldest first. */
    size_t order[MF_DIGEST_MAX_ERRORS], n = 0;
    for (size_t i = 0; i < d->nerrors; i++) order[n++] = i;
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && d->errors[order[k]].seq < d->errors[order[k - 1]].seq; k--) {
            size_t t = order[k]; order[k] = order[k - 1]; order[k - 1] = t;
        }
    for (size_t i = n > errors ? n - errors : 0; i < n; i++) put_error(b, &d->errors[order[i]], zh);
}

static void put_tools(mf_buf *b, const digest *d, size_t values, bool zh)
{
    if (!d->ntools) return;
    mf_buf_puts(b, zh ? "\n## 工具调用\n" : "\n## Tool activity\n");
    for (size_t i = 0; i < d->ntools; i++) {
        const tool_stat *t = &d->tools[i];
        mf_buf_puts(b, "- ");
        put_span(b, t->name, 80);
        mf_buf_puts(b, " ×");
        mf_buf_put_uint(b, t->calls);
        if (t->errors) {
            mf_buf_puts(b, zh ? "（" : " (");
            mf_buf_put_uint(b, t->errors);
            mf_buf_puts(b, zh ? " 次出错）" : t->errors == 1 ? " error)" : " errors)");
        }
        for (size_t k = 0; k < t->nvalues && k < values; k++) {
            mf_buf_puts(b, k ? ", " : ": ");
            put_span(b, t->values[k], 80);
        }
        mf_buf_putc(b, '\n');
    }
}

static void put_files(mf_buf *b, const digest *d, const limits *l, bool zh)
{
    size_t files = d->nfiles < l->files ? d->nfiles : l->files, shown = 0;
    bool any = files;
    for (size_t k = 0; k < d->nidents && k < l->idents && !any; k++) any = true;
    if (!any) return;
    mf_buf_puts(b, zh ? "\n## 涉及的文件和标识\n- " : "\n## Files and identifiers\n- ");
    for (size_t k = 0; k < files; k++, shown++) {
        if (shown) mf_buf_puts(b, ", ");
        put_span(b, d->files[k], 120);
    }
    for (size_t k = 0, taken = 0; k < d->nidents && taken < l->idents; k++) {
        bool dup = false;
        for (size_t f = 0; f < d->nfiles && !dup; f++) dup = mf_span_eq(d->files[f], d->idents[k]);
        if (dup) continue;
        if (shown++) mf_buf_puts(b, ", ");
        put_span(b, d->idents[k], 80);
        taken++;
    }
    mf_buf_putc(b, '\n');
}

/* The latest decisions outside the texts quoted as conclusions, oldest first. */
static void put_decisions(mf_buf *b, const digest *d, const limits *l, bool zh)
{
    size_t held = d->ndecisions < MF_DIGEST_MAX_DECISIONS ? d->ndecisions : MF_DIGEST_MAX_DECISIONS;
    size_t first = d->ndecisions - held;
    size_t quoted_from = d->assistant_texts > l->conclusions ? d->assistant_texts - l->conclusions : 0;
    const decision *pick[MF_DIGEST_MAX_DECISIONS];
    size_t n = 0;
    for (size_t k = d->ndecisions; k-- > first && n < l->decisions;) {
        const decision *c = &d->decisions[k % MF_DIGEST_MAX_DECISIONS];
        if (c->ordinal >= quoted_from) continue;
        bool dup = false;
        for (size_t i = 0; i < n && !dup; i++) dup = mf_span_eq(pick[i]->text, c->text);
        if (!dup) pick[n++] = c;
    }
    if (!n) return;
    mf_buf_puts(b, zh ? "\n## 决定及理由\n" : "\n## Decisions and reasons\n");
    while (n--) {
        mf_buf_puts(b, "- ");
        put_span(b, pick[n]->text, l->chars);
        mf_buf_putc(b, '\n');
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
    put_texts(b, v, MF_ROLE_USER, l->requests, true, l->chars, zh);
    put_constraints(b, d, l->constraints, zh);
    put_state(b, d, l->errors, zh);
    put_tools(b, d, l->values, zh);
    put_files(b, d, l, zh);
    put_decisions(b, d, l, zh);
    mf_buf_puts(b, zh ? "\n## 助手最近的结论\n" : "\n## Latest assistant conclusions\n");
    put_texts(b, v, MF_ROLE_ASSISTANT, l->conclusions, false, l->chars, zh);
}

static size_t half(size_t v) { return v > 1 ? v / 2 : 1; }

void mf_digest_write(mf_buf *b, const digest *d, uint32_t max_tokens, mf_profile profile, bool zh)
{
    limits l = {8, 8, MF_DIGEST_MAX_ERRORS, 4, 3, MF_DIGEST_MAX_VALUES, MF_DIGEST_MAX_FILES, 16, 400};
    uint64_t budget = (uint64_t)max_tokens * MF_MILLI;
    for (int round = 0;; round++) {
        b->len = 0;
        write_digest(b, d, &l, zh);
        if (b->failed || mf_estimate_text(b->data, b->len, profile) <= budget || round == 6) break;
        /* Over budget: halve every list (keeping one of each) and shorten the quotes. */
        l.requests = l.requests > 2 ? l.requests / 2 : 2; /* the first and the latest */
        l.constraints = half(l.constraints);
        l.errors = half(l.errors);
        l.decisions = half(l.decisions);
        l.conclusions = half(l.conclusions);
        l.values = half(l.values);
        l.files /= 2;
        l.idents /= 2;
        l.chars = l.chars > 60 ? l.chars / 2 : 60;
    }
    /* Last resort: cut at the last line that fits. */
    while (!b->failed && b->len && mf_estimate_text(b->data, b->len, profile) > budget) {
        size_t cut = b->len - 1;
        while (cut > 0 && b->data[cut - 1] != '\n') cut--;
        b->len = cut;
    }
}
