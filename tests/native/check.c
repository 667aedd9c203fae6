/* check.c — counts facts that held and facts that did not. */
#include "check.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static unsigned long passed, failed;

int check_fact(int ok, const char *fact, const char *file, int line)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s:%d: %s\n", file, line, fact);
    }
    return ok;
}

int check_eq_u64(uint64_t actual, uint64_t expected, const char *fact, const char *file, int line)
{
    int ok = check_fact(actual == expected, fact, file, line);
    if (!ok) printf("     expected %" PRIu64 ", got %" PRIu64 "\n", expected, actual);
    return ok;
}

/* Prints where two texts first differ, with a little context, so a long transcript
 * that is off by one byte is easy to read. */
static void show_difference(const char *actual, size_t actual_len, const char *expected)
{
    size_t expected_len = strlen(expected), i = 0;
    while (i < actual_len && i < expected_len && actual[i] == expected[i]) i++;
    size_t from = i > 40 ? i - 40 : 0;
    printf("     first difference at byte %zu\n", i);
    printf("     expected: \"%.*s\"\n", (int)(expected_len - from < 120 ? expected_len - from : 120), expected + from);
    printf("     got:      \"%.*s\"\n", (int)(actual_len - from < 120 ? actual_len - from : 120), actual + from);
}

int check_eq_mem(const char *actual, size_t actual_len, const char *expected, const char *fact,
                 const char *file, int line)
{
    int ok = actual && expected && strlen(expected) == actual_len && memcmp(actual, expected, actual_len) == 0;
    check_fact(ok, fact, file, line);
    if (!ok && (!actual || !expected)) printf("     got %s\n", actual ? "a text" : "NULL");
    else if (!ok) show_difference(actual, actual_len, expected);
    return ok;
}

int check_eq_str(const char *actual, const char *expected, const char *fact, const char *file, int line)
{
    return check_eq_mem(actual, actual ? strlen(actual) : 0, expected, fact, file, line);
}

int check_summary(void)
{
    printf("%lu passed, %lu failed\n", passed, failed);
    fflush(stdout); /* before LeakSanitizer's report at exit */
    return failed ? 1 : 0;
}
