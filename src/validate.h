/* validate.h — what validate.c shares with the Responses pairing rules
 * (validate_responses.c). Not installed. */
#ifndef MIDFOLD_VALIDATE_H
#define MIDFOLD_VALIDATE_H

#include "view.h"

/* The Responses pairing rules (validate_responses.c): every call answered by a later
 * output with its call_id, every output answering an earlier call, approvals answering
 * their request, and a reasoning item followed by the item it produced. Problems go to
 * `report` (validate.c's sink). Init reads the whole list once (false when memory ran
 * out; the maps live in `arena`); check_item then checks item m. */
typedef void (*mf_report_fn)(void *ctx, mf_problem_code code, size_t message, size_t part, const char *fmt,
                             const char *arg, size_t arg_len);
typedef struct mf_responses_pairs { mf_idmap calls, outputs, seen, answered; } mf_responses_pairs;
bool mf_responses_pairs_init(mf_responses_pairs *pairs, const mf_view *view, mf_arena *arena);
void mf_responses_check_item(mf_responses_pairs *pairs, const mf_view *view, size_t m, mf_report_fn report,
                             void *ctx);

#endif /* MIDFOLD_VALIDATE_H */
