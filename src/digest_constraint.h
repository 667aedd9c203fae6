/* digest_constraint.h — the valued statements of the user's text (digest_constraint.c).
 * Not installed. */
#ifndef MIDFOLD_DIGEST_CONSTRAINT_H
#define MIDFOLD_DIGEST_CONSTRAINT_H

#include "digest_text.h"

typedef struct mf_constraint {
    mf_span subject;         /* what the value is about, as written ("budget", "free plan", "预算") */
    mf_span key;             /* how subjects are compared (the subject's words / last two CJK characters) */
    mf_span value;           /* the value with its currency and unit ("500 euros", "60 requests per minute") */
    mf_span unit;            /* the unit alone ("euros", "requests", "元"); empty for a bare number */
} mf_constraint;

/* The valued statements of one sentence of user text (at most `cap`): each number with
 * its unit and the words it is about. A value the sentence turns down ("500 is too low",
 * "not 800", 2 秒太紧了) is none. Returns how many were written to out. */
size_t mf_find_constraints(mf_span sentence, mf_constraint *out, size_t cap);
/* How well `later` (stated in `later_sentence`) sets the value of `earlier` (stated in
 * `earlier_sentence`): -1 not at all; 0 the same key; more (the lower the closer) with
 * compatible units, when the later sentence says a value changes ("make it", "放宽到", "not
 * 800") and one sentence names the other's subject: the distance in the earlier sentence
 * from where the later subject is named to the earlier value. */
long mf_constraint_match(const mf_constraint *later, mf_span later_sentence, const mf_constraint *earlier,
                         mf_span earlier_sentence);

#endif
