/* measure.h — token estimates of parts, messages, views and tool results
 * (estimate.c); text itself is priced in profiles.h. Not installed. */
#ifndef MIDFOLD_MEASURE_H
#define MIDFOLD_MEASURE_H

#include "view.h"

/* ---- estimation internals (estimate.c) -------------------------------------------- */
uint64_t mf_estimate_node(const mf_node *node, mf_profile profile);
uint64_t mf_estimate_part(const mf_part *part, mf_profile profile);
uint64_t mf_estimate_tool_result_content(const mf_node *content, mf_profile profile);
uint64_t mf_estimate_msg(const mf_msg *msg, mf_profile profile);
uint64_t mf_estimate_view(const mf_view *view, mf_profile profile);
/* What a request body adds beside its messages ("system", "tools"); 0 otherwise. */
uint64_t mf_estimate_request_extras(const mf_doc *doc, mf_profile profile);
/* A tool result's code points (as below) and, in *milli, its estimate: one pass over
 * plain text. estimate.c */
size_t mf_measure_tool_result(const mf_node *content, mf_profile profile, uint64_t *milli);
/* A tool result part's estimate, exactly mf_estimate_part's, and in *chars its code points
 * (mf_tool_result_chars): one pass over plain text. estimate.c */
uint64_t mf_measure_result_part(const mf_part *part, mf_profile profile, size_t *chars);
/* One message's figures (see mf_doc_estimate_each), and their flags alone. estimate.c */
void mf_msg_figures_of(const mf_msg *msg, mf_profile profile, mf_msg_figures *out);
unsigned mf_msg_figures_flags(const mf_msg *msg);
/* What a media item costs in milli-tokens under a profile. estimate.c */
uint64_t mf_estimate_media(mf_media_kind kind, const mf_media *media, mf_profile profile);

#endif /* MIDFOLD_MEASURE_H */
