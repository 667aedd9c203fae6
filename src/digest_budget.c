/* digest_budget.c — the most valuable lines that fit a token budget (digest_budget.h).
 *
 * Lines are taken by value, highest first (ties: in section order, then as offered); a line
 * that does not fit is passed over for cheaper ones after it, so the budget fills. The first
 * line of a section also pays for its heading. A text's estimate is not quite the sum of its
 * lines' (the fitted profiles add a margin that grows like a square root), so the choice is
 * made against a working budget searched for by the estimate of the text itself, and the
 * best choice that fits is written. */
#include "digest_budget.h"
#include "base.h"

#include <string.h>

void mf_budget_init(mf_budget *b, mf_profile profile)
{
    memset(b, 0, sizeof *b);
    mf_buf_init(&b->text);
    b->profile = profile;
}

void mf_budget_free(mf_budget *b)
{
    mf_buf_free(&b->text);
    mf_dealloc(b->lines);
    b->lines = NULL;
}

mf_buf *mf_budget_line_text(mf_budget *b) { return &b->text; }

void mf_budget_offer(mf_budget *b, unsigned section, uint32_t value)
{
    size_t at = b->start, len = b->text.len - at;
    b->start = b->text.len;
    if (!len || b->failed || b->text.failed) return;
    if (b->count == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        mf_budget_line *lines = mf_alloc(cap * sizeof *lines);
        if (!lines) { b->failed = true; return; }
        if (b->count) memcpy(lines, b->lines, b->count * sizeof *lines);
        mf_dealloc(b->lines);
        b->lines = lines;
        b->cap = cap;
    }
    mf_budget_line *l = &b->lines[b->count++];
    /* The line's own estimate, its break included (an estimate prices a line, not the place). */
    uint64_t milli = mf_estimate_text(b->text.data + at, len, b->profile) + mf_estimate_text("\n", 1, b->profile);
    *l = (mf_budget_line){at, len, milli, value, section, false};
}

/* Is line a before line b in the order lines are taken? */
static bool before(const mf_budget_line *a, size_t ia, const mf_budget_line *b, size_t ib)
{
    if (a->value != b->value) return a->value > b->value;
    if (a->section != b->section) return a->section < b->section;
    return ia < ib;
}

/* The lines' indices in the order they are taken (a merge sort: stable, no recursion). */
static size_t *by_value(const mf_budget *b)
{
    size_t n = b->count, *order = mf_alloc((n ? n : 1) * 2 * sizeof *order);
    if (!order) return NULL;
    size_t *tmp = order + n;
    for (size_t i = 0; i < n; i++) order[i] = i;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, k = mid, t = lo;
            while (i < mid && k < hi)
                tmp[t++] = before(&b->lines[order[k]], order[k], &b->lines[order[i]], order[i]) ? order[k++] : order[i++];
            while (i < mid) tmp[t++] = order[i++];
            while (k < hi) tmp[t++] = order[k++];
        }
        memcpy(order, tmp, n * sizeof *order);
    }
    return order;
}

/* Writes the lines marked taken, under their headings; returns how many were left out. */
static size_t render(const mf_budget *b, mf_buf *out, const mf_budget_layout *layout)
{
    out->len = 0;
    mf_buf_puts(out, layout->head);
    size_t left = 0;
    for (size_t i = 0; i < b->count; i++) left += !b->lines[i].taken;
    for (unsigned s = 0; s < layout->sections; s++) {
        bool open = false;
        for (size_t i = 0; i < b->count; i++) {
            const mf_budget_line *l = &b->lines[i];
            if (l->section != s || !l->taken) continue;
            if (!open) {
                mf_buf_putc(out, '\n');
                mf_buf_puts(out, layout->headings[s]);
                mf_buf_putc(out, '\n');
                open = true;
            }
            mf_buf_append(out, b->text.data + l->at, l->len);
            mf_buf_putc(out, '\n');
        }
    }
    if (left && layout->left_out) {
        mf_buf_putc(out, '\n');
        layout->left_out(out, left, layout->zh);
    }
    return left;
}

/* Marks the lines that fit `working` (the lines' own estimates, headings included). */
static void choose(mf_budget *b, const size_t *order, const uint64_t *heading_milli, uint64_t fixed, uint64_t working)
{
    bool open[32] = {false};
    uint64_t used = fixed;
    for (size_t i = 0; i < b->count; i++) b->lines[i].taken = false;
    for (size_t k = 0; k < b->count; k++) {
        mf_budget_line *l = &b->lines[order[k]];
        unsigned s = l->section < 32 ? l->section : 31;
        uint64_t cost = l->milli + (open[s] ? 0 : heading_milli[s]);
        if (used + cost > working) continue;
        used += cost;
        open[s] = true;
        l->taken = true;
    }
}

void mf_budget_write(mf_budget *b, mf_buf *out, const mf_budget_layout *layout, uint64_t max_milli)
{
    out->len = 0;
    if (b->failed || b->text.failed) { out->failed = true; return; }
    size_t *order = by_value(b);
    if (!order) { out->failed = true; return; }
    uint64_t heading_milli[32] = {0};
    for (unsigned s = 0; s < layout->sections && s < 32; s++)
        heading_milli[s] = mf_estimate_text(layout->headings[s], strlen(layout->headings[s]), b->profile) +
                           2 * mf_estimate_text("\n", 1, b->profile);
    mf_buf tail;
    mf_buf_init(&tail);
    if (layout->left_out) layout->left_out(&tail, b->count, layout->zh); /* the longest it can be */
    if (tail.failed) { mf_buf_free(&tail); mf_dealloc(order); out->failed = true; return; }
    uint64_t fixed = mf_estimate_text(layout->head, strlen(layout->head), b->profile) +
                     (tail.len ? mf_estimate_text(tail.data, tail.len, b->profile) + mf_estimate_text("\n", 1, b->profile) : 0);
    mf_buf_free(&tail);
    /* The best choice that fits, by the estimate of the text itself: the working budget that
     * the lines' own estimates are held to is searched for (halving the interval), starting
     * with the budget itself, which is the answer when everything fits. */
    bool *best = mf_alloc((b->count ? b->count : 1) * sizeof *best);
    if (!best) { mf_dealloc(order); out->failed = true; return; }
    bool found = false;
    uint64_t lo = 0, hi = 2 * max_milli + MF_MILLI, working = max_milli, best_value = 0;
    for (int round = 0; round < 24 && lo <= hi && !out->failed; round++) {
        choose(b, order, heading_milli, fixed, working);
        size_t left = render(b, out, layout);
        if (out->failed) break;
        uint64_t real = mf_estimate_text(out->data, out->len, b->profile);
        if (real <= max_milli) {
            uint64_t value = 0;
            for (size_t i = 0; i < b->count; i++) value += b->lines[i].taken ? b->lines[i].value + 1 : 0;
            if (!found || value > best_value) {
                for (size_t i = 0; i < b->count; i++) best[i] = b->lines[i].taken;
                best_value = value;
                found = true;
            }
            if (!left || max_milli - real < 2 * MF_MILLI) break; /* everything, or full to two tokens */
            lo = working + 1;
        } else {
            if (!working) break;
            hi = working - 1;
        }
        working = lo + (hi - lo) / 2;
    }
    if (found) {
        for (size_t i = 0; i < b->count; i++) b->lines[i].taken = best[i];
        render(b, out, layout);
    } else {
        out->len = 0; /* not even the first line fits */
    }
    mf_dealloc(best);
    mf_dealloc(order);
}
