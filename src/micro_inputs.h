/* micro_inputs.h — clearing the inputs of cleared tool calls (micro_inputs.c), a step of
 * the micro-compaction plan (micro.c). Not installed. */
#ifndef MIDFOLD_MICRO_INPUTS_H
#define MIDFOLD_MICRO_INPUTS_H
#include "view.h"

/* Plans the edit that clears `call`'s input (a TOOL_CALL part of message `m`): every string
 * in it that costs more than its marker, "[truncated: NAME input, N chars]", becomes that
 * marker; keys, numbers, booleans and short strings stay, so the call keeps its shape. Fills
 * `e` (its replacement is the whole input as JSON text, in `arena`) and `*saved` (what it
 * frees, in milli-tokens) and sets *found; *found false when there is nothing to clear (no
 * large string, an input that is no object nor a string of JSON holding one, a call written
 * where no edit can reach). Returns false only when out of memory. */
bool mf_plan_input_edit(mf_arena *arena, const mf_view *view, size_t m, const mf_part *call, mf_profile profile,
                        mf_micro_edit *e, uint64_t *saved, bool *found);
#endif /* MIDFOLD_MICRO_INPUTS_H */
