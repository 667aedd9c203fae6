/* digest_write.c — the digest's facts as lines, each worth what a continuation loses
 * without it, chosen within the budget by digest_budget.c. Sections, in the order a
 * continuation reads them: an earlier summary, the user's requests, the constraints at their
 * latest value, the tests and errors, the files and identifiers, the decisions with their
 * reasons, the latest conclusions, the tool activity. Headings in English or Chinese.
 *
 * What comes first when the budget is short (the values below): the task and the latest
 * request; a failing test suite and the failures no later run resolved; changed constraints;
 * decisions with their reasons; the files the work changed; the latest conclusion, sentence
 * by sentence; then history — resolved failures, earlier requests, the earlier summary,
 * files only read, identifiers — and the tool counts last. A long text is condensed by
 * sentence and cut only at a word (or a CJK character), so each line says a whole thing. */
#include "digest_write.h"
#include "digest_budget.h"
#include "digest_line.h"
#include "digest_command.h"
#include "digest_decide.h"
#include "base.h"

#include <string.h>

enum { SEC_SUMMARY, SEC_REQUESTS, SEC_CONSTRAINTS, SEC_STATE, SEC_FILES, SEC_DECISIONS, SEC_CONCLUSIONS, SEC_TOOLS, SECTIONS };

static const char *const HEADINGS_EN[SECTIONS] = {
    "## Earlier summary", "## User requests", "## Constraints (latest values)", "## Tests and errors (latest state)",
    "## Files and identifiers", "## Decisions and reasons", "## Latest assistant conclusions", "## Tool activity"};
static const char *const HEADINGS_ZH[SECTIONS] = {
    "## 更早的摘要", "## 用户的请求", "## 约束（以最新为准）", "## 测试与错误（最新状态）", "## 涉及的文件和标识",
    "## 决定及理由", "## 助手最近的结论", "## 工具调用"};

static void put_int(mf_buf *b, long long v)
{
    if (v < 0) mf_buf_putc(b, '-');
    mf_buf_put_uint(b, v < 0 ? (uint64_t)-(v + 1) + 1 : (uint64_t)v);
}

static bool within(mf_span needle, mf_span hay) { return needle.n && mf_span_find(hay, needle) != SIZE_MAX; }

/* ---- the sections ---------------------------------------------------------------------------- */

typedef struct writer {
    const mf_digest_facts *d;
    mf_budget budget;
    bool zh;
} writer;

static mf_buf *line(writer *w)
{
    mf_buf *b = mf_budget_line_text(&w->budget);
    mf_buf_puts(b, "- ");
    return b;
}

static void offer(writer *w, unsigned section, long value)
{
    mf_budget_offer(&w->budget, section, value < 1 ? 1 : (uint32_t)value);
}

/* A summary's lines worth carrying: not its headings ("Summary:", "## 进展"), not a digest's
 * own first and last lines. */
static bool summary_item(mf_span l)
{
    if (!l.n || l.s[0] == '#' || (l.n <= 48 && l.s[l.n - 1] == ':')) return false;
    if (mf_span_starts(l, "digest of ") && mf_span_has(l, "earlier messages")) return false;
    if (mf_span_starts(l, "(") && mf_span_has(l, "left out")) return false;
    return !(mf_span_starts(l, "\xE6\xAD\xA4\xE5\x89\x8D ") && mf_span_has(l, "\xE6\x9D\xA1\xE6\xB6\x88\xE6\x81\xAF")); /* 此前 N 条消息 */
}

static void summaries(writer *w)
{
    const mf_digest_facts *d = w->d;
    for (size_t i = 0; i < d->nsummaries; i++) {
        long base = i + 1 == d->nsummaries ? 730 : 600;
        size_t at = 0, k = 0;
        mf_span l;
        while (mf_next_line(d->summaries[i].text, &at, &l) && k < 60) {
            l = mf_span_trim(l);
            if (!summary_item(l)) continue;
            mf_line_condensed(line(w), l, 240);
            offer(w, SEC_SUMMARY, base - 8 * (long)k++);
        }
    }
}

/* A request that sets a direction (long enough to, or naming a number, a path, a name) rather than small talk. */
static bool directs(mf_span s)
{
    if (s.n >= 25) return true;
    for (size_t i = 0; i < s.n; i++) if ((s.s[i] >= '0' && s.s[i] <= '9') || s.s[i] == '/' || s.s[i] == '`') return true;
    return false;
}

static void requests(writer *w)
{
    const mf_digest_facts *d = w->d;
    size_t total = 0, seen = 0;
    for (size_t i = 0; i < d->nrequests; i++) total += !d->requests[i].boilerplate;
    for (size_t i = 0; i < d->nrequests; i++) {
        const dg_text *r = &d->requests[i];
        if (r->boilerplate) continue;
        size_t later = total - ++seen;
        bool first = seen == 1, latest = !later;
        mf_line_condensed(line(w), r->text, first ? 600 : latest ? 400 : 260);
        long value = first ? 960 : latest ? 950 : (directs(r->text) ? 780 : 420) - 3 * (long)(later < 60 ? later : 60);
        offer(w, SEC_REQUESTS, value);
    }
}

static void constraints(writer *w)
{
    const mf_digest_facts *d = w->d;
    for (size_t i = 0; i < d->nconstraints; i++) {
        const dg_constraint *c = &d->constraints[i];
        size_t newer = 0;
        for (size_t k = 0; k < d->nconstraints; k++) newer += d->constraints[k].seq > c->seq && d->constraints[k].changed == c->changed;
        mf_buf *b = line(w);
        mf_line_clipped(b, c->c.subject, 40);
        mf_buf_puts(b, w->zh ? "：" : ": ");
        mf_line_clipped(b, c->c.value, 40);
        if (c->changed) {
            mf_buf_puts(b, w->zh ? "（此前 " : " (was ");
            mf_line_clipped(b, c->was, 40);
            mf_buf_puts(b, w->zh ? "）" : ")");
        }
        offer(w, SEC_CONSTRAINTS, (c->changed ? 900 : 760) - 2 * (long)newer);
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
        mf_line_clipped(b, r->failing[i], 100);
    }
    if (r->more_failing) {
        mf_buf_puts(b, ", +");
        mf_buf_put_uint(b, r->more_failing);
    }
}

static void suites(writer *w)
{
    const mf_digest_facts *d = w->d;
    bool zh = w->zh;
    for (size_t i = 0; i < d->nsuites; i++) {
        const dg_suite *t = &d->suites[i];
        const mf_test_run *r = &t->latest;
        size_t same_runner = 0;
        for (size_t k = 0; k < d->nsuites; k++) same_runner += strcmp(d->suites[k].runner, t->runner) == 0;
        mf_buf *b = line(w);
        mf_buf_puts(b, t->runner);
        if (same_runner > 1 && t->label.n) { /* which of the runner's suites */
            mf_buf_puts(b, " `");
            mf_line_clipped(b, t->label, 80);
            mf_buf_putc(b, '`');
        }
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
        if (t->has_earlier && run_failed(r)) { /* what failed before and passes now */
            bool any = false;
            for (size_t k = 0; k < t->earlier.nfailing; k++) {
                bool still = false;
                for (size_t j = 0; j < r->nfailing && !still; j++) still = mf_span_eq(r->failing[j], t->earlier.failing[k]);
                if (still) continue;
                mf_buf_puts(b, any ? ", " : zh ? "；此前失败、现已通过：" : "; failed before, passing now: ");
                mf_line_clipped(b, t->earlier.failing[k], 100);
                any = true;
            }
        }
        if (t->has_earlier && !run_failed(r)) {
            mf_buf_puts(b, zh ? "；此前失败过：" : "; earlier it failed: ");
            put_counts(b, &t->earlier);
            if (t->earlier.nfailing) {
                mf_buf_puts(b, " — ");
                put_failing(b, &t->earlier);
            }
        }
        offer(w, SEC_STATE, run_failed(r) ? 930 : 850);
    }
}

/* Did a later run pass: the same command, or the same runner's suite? */
static bool resolved(const mf_digest_facts *d, const dg_failure *f)
{
    if (d->commands[f->command].passed > f->last) return true;
    for (size_t i = 0; f->runner && i < d->nsuites; i++)
        if (strcmp(d->suites[i].runner, f->runner) == 0 && d->suites[i].last > f->last && !run_failed(&d->suites[i].latest)) return true;
    return false;
}

static void failure(writer *w, const dg_failure *f, bool passed, long value)
{
    const dg_command *c = &w->d->commands[f->command];
    bool zh = w->zh;
    mf_buf *b = line(w);
    mf_line_clipped(b, c->tool, 60);
    if (c->key.n) {
        mf_buf_puts(b, " `");
        mf_line_clipped(b, c->key, 80);
        mf_buf_putc(b, '`');
    }
    mf_buf_puts(b, zh ? "：" : ": ");
    mf_line_clipped(b, f->line, 200);
    if (f->has_exit || f->times > 1) {
        mf_buf_puts(b, zh ? "（" : " (");
        if (f->has_exit) {
            mf_buf_puts(b, zh ? "退出码 " : "exit code ");
            put_int(b, f->exit_code);
        }
        if (f->times > 1) {
            mf_buf_puts(b, f->has_exit ? (zh ? "，共 " : ", ") : (zh ? "共 " : ""));
            mf_buf_put_uint(b, f->times);
            mf_buf_puts(b, zh ? " 次" : " times");
        }
        mf_buf_puts(b, zh ? "）" : ")");
    }
    if (passed) mf_buf_puts(b, zh ? "，之后已通过" : "; it passed later");
    offer(w, SEC_STATE, value);
}

/* Is the failing command one the user's requests name ("`npm run build` fails since …")? Then
 * it is what the work is about. */
static bool asked_about(const mf_digest_facts *d, const dg_failure *f)
{
    mf_span key = d->commands[f->command].key;
    for (size_t i = 0; key.n >= 4 && i < d->nrequests; i++) if (within(key, d->requests[i].text)) return true;
    return false;
}

/* Failures no later run resolved, oldest first; then those that passed later, latest first. */
static void failures(writer *w)
{
    const mf_digest_facts *d = w->d;
    size_t open = 0;
    for (size_t i = 0; i < d->nfailures; i++) open += !resolved(d, &d->failures[i]);
    size_t seen = 0;
    for (size_t i = 0; i < d->nfailures; i++)
        if (!resolved(d, &d->failures[i]))
            failure(w, &d->failures[i], false, (asked_about(d, &d->failures[i]) ? 925 : 910) - 3 * (long)(open - ++seen));
    seen = 0;
    for (size_t i = d->nfailures; i-- > 0;)
        if (resolved(d, &d->failures[i]))
            failure(w, &d->failures[i], true, (asked_about(d, &d->failures[i]) ? 805 : 650) - 3 * (long)seen++);
}

static void put_file(writer *w, const dg_file *f)
{
    static const char *const EN[] = {"read", "created", "edited", "deleted", "moved to "};
    static const char *const ZH[] = {"读取", "新建", "修改", "删除", "移动到 "};
    const char *const *words = w->zh ? ZH : EN;
    mf_buf *b = line(w);
    mf_line_clipped(b, f->path, 160);
    mf_buf_puts(b, w->zh ? "：" : ": ");
    const char *sep = "";
    unsigned ops = f->ops & ~(unsigned)MF_FILE_READ ? f->ops & ~(unsigned)MF_FILE_READ : f->ops;
    for (int k = 0; k < 5; k++) {
        if (!(ops & (1u << k))) continue;
        mf_buf_puts(b, sep);
        mf_buf_puts(b, words[k]);
        if (k == 2 && f->edits > 1) {
            mf_buf_puts(b, w->zh ? " " : " ×");
            mf_buf_put_uint(b, f->edits);
            if (w->zh) mf_buf_puts(b, " 次");
        }
        if (k == 4) mf_line_clipped(b, f->to, 160);
        sep = w->zh ? "，" : ", ";
    }
}


static void files(writer *w)
{
    const mf_digest_facts *d = w->d;
    for (int pass = 0; pass < 2; pass++) /* the files the work changed, then those it only read */
        for (size_t i = 0; i < d->nfiles; i++) {
            const dg_file *f = &d->files[i];
            bool changed = f->ops & ~(unsigned)MF_FILE_READ;
            if (changed != (pass == 0)) continue;
            size_t newer = 0;
            for (size_t k = 0; k < d->nfiles; k++) newer += d->files[k].last > f->last;
            put_file(w, f);
            offer(w, SEC_FILES, changed ? 800 - 2 * (long)newer : 440 - (long)newer);
        }
    /* Identifiers on a few lines: the user's first, then the most mentioned; none that a
     * file's path holds. */
    size_t *order = mf_alloc((d->nidents ? d->nidents : 1) * sizeof *order);
    if (!order) { w->budget.failed = true; return; }
    for (size_t i = 0; i < d->nidents; i++) {
        size_t k = i;
        for (; k > 0 && d->idents[order[k - 1]].mentions < d->idents[i].mentions; k--) order[k] = order[k - 1];
        order[k] = i;
    }
    size_t rank = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < d->nidents; i++) {
            const dg_ident *id = &d->idents[order[i]];
            if (id->by_user != (pass == 0)) continue;
            bool dup = false;
            for (size_t k = 0; k < d->nfiles && !dup; k++) dup = within(id->text, d->files[k].path);
            if (dup) continue;
            mf_line_clipped(line(w), id->text, 80);
            offer(w, SEC_FILES, 620 - 4 * (long)(rank < 60 ? rank : 60));
            rank++;
        }
    mf_dealloc(order);
}

static void decisions(writer *w)
{
    const mf_digest_facts *d = w->d;
    for (size_t i = 0; i < d->ndecisions; i++) {
        const dg_decision *c = &d->decisions[i];
        bool again = false; /* said again later: the later one stands */
        for (size_t k = i + 1; k < d->ndecisions && !again; k++) again = mf_span_eq(d->decisions[k].text, c->text);
        if (again) continue;
        mf_line_condensed(line(w), c->text, 320);
        long later = (long)(d->ndecisions - 1 - i);
        offer(w, SEC_DECISIONS, (c->reasoned ? 860 : 610) - 3 * (later < 60 ? later : 60));
    }
}

/* A reply with something to say: not only narration ("Let me check …"), not a line or two. */
static bool substantive(mf_span text)
{
    size_t at = 0;
    mf_span s;
    while (mf_next_sentence(text, &at, &s))
        if (!mf_sentence_is_narration(s) && mf_line_cps(s) >= 20) return true;
    return false;
}

/* A line of a reply that gives a value the user changed after it ("under the 5 MB limit"
 * before the limit became 4 MB) would pass for current: it is left out. */
static bool stale_after(const mf_digest_facts *d, mf_span l, size_t msg)
{
    for (size_t i = 0; i < d->nconstraints; i++) {
        const dg_constraint *c = &d->constraints[i];
        if (c->changed && c->msg > msg && within(c->was, l)) return true;
    }
    return false;
}

/* A line of a reply that only repeats one of the decisions adds nothing. */
static bool repeats_decision(const mf_digest_facts *d, mf_span l)
{
    for (size_t i = 0; i < d->ndecisions; i++) if (within(mf_span_trim(d->decisions[i].text), l) && d->decisions[i].text.n * 10 > l.n * 8) return true;
    return false;
}

static void conclusions(writer *w)
{
    const mf_digest_facts *d = w->d;
    size_t nth = 0, picked[6], n = 0;
    for (size_t i = d->nreplies; i-- > 0 && n < 6;) {
        bool refused = false; /* it says what a refused call was to do */
        for (size_t k = 0; k < d->nrefused && !refused; k++) refused = d->refused[k] == d->replies[i].msg;
        if (!refused && substantive(d->replies[i].text)) picked[n++] = i;
    }
    for (size_t j = n; j-- > 0;) { /* oldest first, as they were said */
        nth = j;
        long base = nth == 0 ? 800 : nth == 1 ? 560 : 380;
        size_t at = 0, k = 0;
        mf_span l;
        while (mf_next_line(d->replies[picked[j]].text, &at, &l) && k < 60) {
            l = mf_span_trim(l);
            if (!l.n || l.s[0] == '#' || l.s[0] == '|' || mf_span_starts(l, "```") || mf_span_starts(l, "---") || repeats_decision(d, l) ||
                stale_after(d, l, d->replies[picked[j]].msg))
                continue;
            size_t sat = 0;
            mf_span first;
            if (!mf_next_sentence(l, &sat, &first) || (mf_sentence_is_narration(first) && sat >= l.n)) continue;
            mf_line_condensed(line(w), l, 260);
            /* Its first line is its gist; the rest follows what is worth more. */
            offer(w, SEC_CONCLUSIONS, k ? base - 50 - 15 * (long)(k - 1) : base);
            k++;
        }
    }
}

static void tools(writer *w)
{
    const mf_digest_facts *d = w->d;
    for (size_t i = 0; i < d->ntools; i++) {
        const dg_tool *t = &d->tools[i];
        size_t busier = 0;
        for (size_t k = 0; k < d->ntools; k++) busier += d->tools[k].calls > t->calls;
        mf_buf *b = line(w);
        mf_line_clipped(b, t->name, 80);
        mf_buf_puts(b, " ×");
        mf_buf_put_uint(b, t->calls);
        if (t->errors) {
            mf_buf_puts(b, w->zh ? "（" : " (");
            mf_buf_put_uint(b, t->errors);
            mf_buf_puts(b, w->zh ? " 次出错）" : t->errors == 1 ? " error)" : " errors)");
        }
        for (size_t k = 0; k < t->nvalues; k++) {
            mf_buf_puts(b, k ? (w->zh ? "、" : ", ") : (w->zh ? "：" : ": "));
            mf_line_clipped(b, t->values[k], 60);
        }
        /* What a lookup tool was asked (cities, queries) is named nowhere else. */
        offer(w, SEC_TOOLS, (t->nvalues ? 760 : 260) - 2 * (long)busier);
    }
}

static void left_out(mf_buf *b, size_t count, bool zh)
{
    mf_buf_puts(b, zh ? "（为控制篇幅，另有 " : "(");
    mf_buf_put_uint(b, count);
    mf_buf_puts(b, zh ? " 条次要内容未列出。）\n" : count == 1 ? " lower-priority line left out to fit the budget.)\n"
                                                    : " lower-priority lines left out to fit the budget.)\n");
}

void mf_digest_write(mf_buf *out, const mf_digest_facts *d, uint32_t max_tokens, mf_profile profile, bool zh)
{
    writer w = {d, {0}, zh};
    mf_budget_init(&w.budget, profile);
    summaries(&w);
    requests(&w);
    constraints(&w);
    suites(&w);
    failures(&w);
    files(&w);
    decisions(&w);
    conclusions(&w);
    tools(&w);
    mf_buf head;
    mf_buf_init(&head);
    mf_buf_puts(&head, zh ? "此前 " : "Digest of ");
    mf_buf_put_uint(&head, d->messages);
    mf_buf_puts(&head, zh ? " 条消息的摘要（未使用模型，自动生成）。\n" : " earlier messages (written without a model).\n");
    mf_buf_putc(&head, 0); /* the layout reads the head as a C string */
    head.len--;
    if (head.failed) out->failed = true;
    else {
        mf_budget_layout layout = {head.data, zh ? HEADINGS_ZH : HEADINGS_EN, SECTIONS, left_out, zh};
        mf_budget_write(&w.budget, out, &layout, (uint64_t)max_tokens * MF_MILLI);
    }
    mf_buf_free(&head);
    mf_budget_free(&w.budget);
}
