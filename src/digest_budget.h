/* digest_budget.h — the digest's lines chosen by what they are worth, within a token budget
 * (digest_budget.c). The writer offers every line it could write, each with a section and a
 * value; the budget keeps the most valuable ones that fit, in their sections and in the
 * order they were offered, and says how many it left out. Not installed. */
#ifndef MIDFOLD_DIGEST_BUDGET_H
#define MIDFOLD_DIGEST_BUDGET_H

#include "base.h"

typedef struct mf_budget_line {
    size_t at, len;          /* the line's bytes in the budget's text */
    uint64_t milli;          /* its estimate, its line break included */
    uint32_t value;          /* what a continuation loses without it: higher is kept first */
    unsigned section;
    bool taken;
} mf_budget_line;

typedef struct mf_budget {
    mf_buf text;             /* every offered line, one after another */
    mf_budget_line *lines;
    size_t count, cap, start;
    mf_profile profile;
    bool failed;
} mf_budget;

void mf_budget_init(mf_budget *b, mf_profile profile);
void mf_budget_free(mf_budget *b);
/* The buffer to write the next line into (no line break); mf_budget_offer ends it. */
mf_buf *mf_budget_line_text(mf_budget *b);
/* Offers the line written since the last offer (an empty one is dropped). */
void mf_budget_offer(mf_budget *b, unsigned section, uint32_t value);

typedef struct mf_budget_layout {
    const char *head;                  /* the first line (with its line break) */
    const char *const *headings;       /* one per section, "## …" without a line break */
    size_t sections;
    /* Writes the line that says how many lines were left out (with its line break). */
    void (*left_out)(mf_buf *out, size_t count, bool zh);
    bool zh;
} mf_budget_layout;

/* Writes the head, then each section that keeps a line (its heading, its kept lines in the
 * order offered), then the left-out line when any was left out, so that the whole estimates
 * at most max_milli under the budget's profile. Nothing at all when not even the head fits. */
void mf_budget_write(mf_budget *b, mf_buf *out, const mf_budget_layout *layout, uint64_t max_milli);

#endif
