/* profiles.h — the estimator's weights. Every figure is in milli-tokens. */
#ifndef MIDFOLD_PROFILES_H
#define MIDFOLD_PROFILES_H

#include "base.h"

typedef struct mf_profile_def {
    const char *name;
    uint32_t class_milli[MF_CLASS_COUNT]; /* per code point, indexed by mf_char_class (bareagent) */
    const uint32_t *feature_milli;        /* per feature (text_features.h); NULL: use class_milli */
    uint32_t message_milli;   /* per message: role markers and delimiters */
    uint32_t tool_call_milli; /* per tool call: the wrapping around name and arguments */
    uint32_t image_milli;     /* per image, whatever its size */
    uint32_t document_milli;  /* per document without a text source (PDF and the like) */
} mf_profile_def;

/* A fitted profile's weights: one per feature (text_features.h), then MF_W_LENGTH, the
 * milli-tokens per square root of the text's code points (tools/calibrate/model.mjs,
 * section 6: a margin that grows like the estimate's noise, so short texts get the slack
 * they need and long ones are not priced for it). */
#define MF_W_LENGTH MF_FEATURE_COUNT
#define MF_WEIGHT_COUNT (MF_FEATURE_COUNT + 1)

/* Fitted weights (profiles_fitted.c, generated), MF_WEIGHT_COUNT each. */
extern const uint32_t mf_weights_o200k[], mf_weights_cl100k[], mf_weights_deepseek[], mf_weights_qwen[],
    mf_weights_claude[];

/* The estimate of class counts (mf_count_classes) under a profile's class weights. */
uint64_t mf_price_classes(mf_profile profile, const uint64_t counts[MF_CLASS_COUNT]);

/* mf_estimate_text, and the text's code points (when code_points is not NULL) from the
 * same pass. Reads text during the call; keeps nothing. */
uint64_t mf_measure_text(const char *text, size_t len, mf_profile profile, size_t *code_points);

/* The estimate of one text's feature counts under a profile (MF_PROFILE_SAFE: the largest):
 * the length term makes it not additive, so counts of separate texts are priced apart. */
uint64_t mf_profile_price(mf_profile profile, const uint64_t *feature_counts);

/* The profile's definition; an out-of-range value gives the reference profile. */
const mf_profile_def *mf_profile_get(mf_profile profile);

#endif
