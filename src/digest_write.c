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
    bool tools;              /* the tool activity section */
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
    if (!n) return; /* an empty span may have no pointer at all */
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
            /* The latest request is what comes next: it gets twice the room. */
            put_clipped(b, part->text, part->text_len, keep_first && at + 1 == total ? chars * 2 : chars);
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

static void put_failing(mf_buf *b, const mf_test_run *r, size_t chars)
{
    for (size_t i = 0; i < r->nfailing; i++) {
        if (i) mf_buf_puts(b, ", ");
        put_span(b, r->failing[i], chars < 100 ? chars : 100);
    }
    if (r->more_failing) {
        mf_buf_puts(b, ", +");
        mf_buf_put_uint(b, r->more_failing);
    }
}

static void put_tests(mf_buf *b, const test_state *t, size_t chars, bool zh)
{
    const mf_test_run *r = &t->latest;
    mf_buf_puts(b, "- ");
    mf_buf_puts(b, r->runner);
    mf_buf_puts(b, zh ? "：" : ": ");
    put_counts(b, r);
    if (r->nfailing) {
        mf_buf_puts(b, zh ? "；失败的测试：" : "; failing: ");
        put_failing(b, r, chars);
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
            put_failing(b, &t->earlier, chars);
        }
    }
    mf_buf_putc(b, '\n');
}

static void put_error(mf_buf *b, const error_entry *e, size_t chars, bool zh)
{
    mf_buf_puts(b, "- ");
    put_span(b, e->tool, 60);
    if (e->call.n) {
        mf_buf_puts(b, " `");
        put_span(b, e->call, 80);
        mf_buf_putc(b, '`');
    }
    mf_buf_puts(b, zh ? "：" : ": ");
    put_span(b, e->line, chars < 200 ? chars : 200);
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

static bool error_before(const error_entry *a, const error_entry *b)
{
    if (a->resolved != b->resolved) return !a->resolved;
    return a->resolved ? a->seq > b->seq : a->seq < b->seq; /* of the resolved ones, the latest first */
}

static void put_state(mf_buf *b, const digest *d, size_t errors, size_t chars, bool zh)
{
    if (!d->nruns && !d->nerrors) return;
    mf_buf_puts(b, zh ? "\n## 测试与错误（最新状态）\n" : "\n## Tests and errors (latest state)\n");
    for (size_t i = 0; i < d->nruns; i++) put_tests(b, &d->runs[i], chars, zh);
    /* The latest errors, unresolved ones before those that passed later, oldest first. */
    size_t order[MF_DIGEST_MAX_ERRORS], n = 0;
    for (size_t i = 0; i < d->nerrors; i++) order[n++] = i;
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && error_before(&d->errors[order[k]], &d->errors[order[k - 1]]); k--) {
            size_t t = order[k]; order[k] = order[k - 1]; order[k - 1] = t;
        }
    for (size_t i = 0; i < n && i < errors; i++) put_error(b, &d->errors[order[i]], chars, zh);
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

static bool span_within(mf_span needle, mf_span hay)
{
    for (size_t i = 0; needle.n && i + needle.n <= hay.n; i++)
        if (memcmp(hay.s + i, needle.s, needle.n) == 0) return true;
    return false;
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
    /* The names the user wrote first, then the assistant's; none that a listed path holds. */
    size_t taken = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < d->nidents && taken < l->idents; k++) {
            if (d->ident_by_user[k] != (pass == 0)) continue;
            bool dup = false;
            for (size_t f = 0; f < files && !dup; f++) dup = span_within(d->idents[k], d->files[f]);
            if (dup) continue;
            if (shown++) mf_buf_puts(b, ", ");
            put_span(b, d->idents[k], 80);
            taken++;
        }
    mf_buf_putc(b, '\n');
}

/* The latest decisions, oldest first. */
static void put_decisions(mf_buf *b, const digest *d, const limits *l, bool zh)
{
    size_t held = d->ndecisions < MF_DIGEST_MAX_DECISIONS ? d->ndecisions : MF_DIGEST_MAX_DECISIONS;
    size_t first = d->ndecisions - held;
    size_t pick[MF_DIGEST_MAX_DECISIONS], n = 0;
    /* The latest ones that give their reason first, then the others. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = d->ndecisions; k-- > first && n < l->decisions;) {
            const decision *c = &d->decisions[k % MF_DIGEST_MAX_DECISIONS];
            if (c->reasoned != (pass == 0)) continue;
            bool dup = false;
            for (size_t i = 0; i < n && !dup; i++) dup = mf_span_eq(d->decisions[pick[i] % MF_DIGEST_MAX_DECISIONS].text, c->text);
            if (!dup) pick[n++] = k;
        }
    if (!n) return;
    for (size_t i = 1; i < n; i++) /* in the order they were made */
        for (size_t k = i; k > 0 && pick[k] < pick[k - 1]; k--) { size_t t = pick[k]; pick[k] = pick[k - 1]; pick[k - 1] = t; }
    mf_buf_puts(b, zh ? "\n## 决定及理由\n" : "\n## Decisions and reasons\n");
    for (size_t i = 0; i < n; i++) {
        mf_buf_puts(b, "- ");
        /* A decision is worth little without its reason, which ends the sentence: a longer clip. */
        put_span(b, d->decisions[pick[i] % MF_DIGEST_MAX_DECISIONS].text, l->chars < 240 ? 240 : l->chars);
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
    put_state(b, d, l->errors, l->chars, zh);
    put_files(b, d, l, zh);
    put_decisions(b, d, l, zh);
    if (l->conclusions) {
        mf_buf_puts(b, zh ? "\n## 助手最近的结论\n" : "\n## Latest assistant conclusions\n");
        put_texts(b, v, MF_ROLE_ASSISTANT, l->conclusions, false, l->chars, zh);
    }
    if (l->tools) put_tools(b, d, l->values, zh);
}

/* What the digest gives up, step by step, when it is over budget: the least a
 * continuation needs first (long quotes, older conclusions, argument lists), the
 * constraints, the test state and the errors last. Each row holds from its round on. */
static void shrink(limits *l, int round)
{
    static const limits steps[] = {
        /* requests, constraints, errors, decisions, conclusions, values, files, idents, chars, tools */
        {8, 8, 8, 4, 2, 3, 24, 16, 400, true},
        {8, 8, 8, 4, 2, 2, 24, 16, 250, true},
        {4, 8, 8, 3, 1, 1, 24, 16, 200, true},
        {4, 8, 6, 2, 1, 1, 16, 12, 160, true},
        {2, 6, 6, 2, 1, 1, 16, 12, 120, true},
        {2, 6, 4, 2, 1, 1, 12, 8, 100, true},
        {2, 4, 4, 2, 1, 1, 8, 6, 80, true},
        {2, 4, 3, 2, 0, 1, 8, 6, 60, true},
        {2, 3, 3, 2, 0, 0, 6, 4, 60, false},
        {2, 2, 2, 1, 0, 0, 4, 2, 60, false},
    };
    *l = steps[round < (int)(sizeof steps / sizeof *steps) ? round : (int)(sizeof steps / sizeof *steps) - 1];
}

void mf_digest_write(mf_buf *b, const digest *d, uint32_t max_tokens, mf_profile profile, bool zh)
{
    limits l = {8, 8, MF_DIGEST_MAX_ERRORS, 4, 3, MF_DIGEST_MAX_VALUES, MF_DIGEST_MAX_FILES, 16, 400, true};
    uint64_t budget = (uint64_t)max_tokens * MF_MILLI;
    for (int round = 0;; round++) {
        b->len = 0;
        write_digest(b, d, &l, zh);
        if (b->failed || mf_estimate_text(b->data, b->len, profile) <= budget || round == 10) break;
        shrink(&l, round);
    }
    /* Last resort: cut at the last line that fits, and drop the headings left with nothing under them. */
    bool cut_any = false;
    while (!b->failed && b->len && mf_estimate_text(b->data, b->len, profile) > budget) {
        size_t cut = b->len - 1;
        while (cut > 0 && b->data[cut - 1] != '\n') cut--;
        b->len = cut;
        cut_any = true;
    }
    while (cut_any && !b->failed && b->len) {
        size_t start = b->len - 1;
        while (start > 0 && b->data[start - 1] != '\n') start--;
        bool empty = start + 1 == b->len, heading = b->len - start > 3 && memcmp(b->data + start, "## ", 3) == 0;
        if (!empty && !heading) break;
        b->len = start;
    }
}
