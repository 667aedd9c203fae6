/*
 * check.h — a tiny harness in the style of antirez's sds tests: every test states a fact
 * in words and the expression that must hold for it,
 *
 *     CHECK("an empty text costs nothing", mf_estimate_text("", 0, 0) == 0);
 *
 * A failing fact is printed with its file and line; check_summary() prints exactly one
 * line "N passed, M failed" and gives the process exit status.
 */
#ifndef MIDFOLD_CHECK_H
#define MIDFOLD_CHECK_H

#include <stddef.h>
#include <stdint.h>

#define CHECK(fact, expr) check_fact((expr) ? 1 : 0, (fact), __FILE__, __LINE__)

/* Like CHECK, but a failure also prints both values (for numbers and texts the reader
 * wants to see when they differ). */
#define CHECK_EQ_U64(fact, actual, expected) \
    check_eq_u64((uint64_t)(actual), (uint64_t)(expected), (fact), __FILE__, __LINE__)
#define CHECK_EQ_STR(fact, actual, expected) \
    check_eq_str((actual), (expected), (fact), __FILE__, __LINE__)
#define CHECK_EQ_MEM(fact, actual, actual_len, expected) \
    check_eq_mem((actual), (actual_len), (expected), (fact), __FILE__, __LINE__)

/* Each returns whether the fact held. */
int check_fact(int ok, const char *fact, const char *file, int line);
int check_eq_u64(uint64_t actual, uint64_t expected, const char *fact, const char *file, int line);
/* NULL never equals anything (a missing result is a failure, not a crash). */
int check_eq_str(const char *actual, const char *expected, const char *fact, const char *file, int line);
int check_eq_mem(const char *actual, size_t actual_len, const char *expected, const char *fact,
                 const char *file, int line);

/* Prints "N passed, M failed"; returns 0 when nothing failed, 1 otherwise. */
int check_summary(void);

#endif
