/* digest_results.c — what one tool result says about the state of the work: the test
 * runner's summary, the exit status, the error line. A continuation needs the latest of
 * each ("3 failed, 118 passed", "exit code 2", "TypeError: x is not a function"), not the
 * log around them.
 *
 * The summary lines recognised, one runner each (their default reporters):
 *   pytest       "==== 3 failed, 118 passed, 2 warnings in 4.21s ====" (also -q's bare form);
 *                failing names from the short summary: "FAILED tests/test_x.py::test_a - …"
 *   jest         "Tests:       3 failed, 118 passed, 121 total"; names from "● Suite › test"
 *   vitest       "Tests  3 failed | 118 passed (121)"; names from "FAIL  file > suite > test"
 *   node --test  "ℹ pass 118" / "ℹ fail 3" (spec reporter; "# pass" in TAP); names listed
 *                after "✖ failing tests:" ("✖ name (1.2ms)") or TAP's "not ok 3 - name"
 *   go test      "--- FAIL: TestParse (0.00s)" / "--- PASS: …" and the package lines
 *                "ok  \tpkg\t0.01s" / "FAIL\tpkg\t0.01s"
 *   cargo test   "test result: FAILED. 118 passed; 3 failed; 0 ignored; …" (summed over the
 *                test binaries); names from "test path::name ... FAILED"
 *   mocha        "118 passing (2s)", "3 failing", "1 pending"; names from "1) suite test:"
 *   playwright   "Running 12 tests using 4 workers", then "1 failed", "11 passed (18.4s)",
 *                "2 flaky", "1 skipped"; names listed under "N failed" ("[chromium] › file:3:5 › t")
 * Exit statuses: "exit code 2", "Exit status 1", "exited with code 1", "exit_code": 1,
 * "returncode=1", "npm error code 1". */
#include "digest_results.h"

#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Digits at s[*i] (advancing *i), saturating; false when there are none. */
static bool read_uint(mf_span s, size_t *i, uint64_t *v)
{
    size_t from = *i;
    *v = 0;
    while (*i < s.n && is_digit(s.s[*i])) {
        *v = *v > UINT64_MAX / 10 - 1 ? UINT64_MAX / 10 : *v * 10 + (uint64_t)(s.s[*i] - '0');
        (*i)++;
    }
    return *i > from;
}

static mf_span after(mf_span s, size_t n) { return n >= s.n ? (mf_span){s.s + s.n, 0} : (mf_span){s.s + n, s.n - n}; }

/* "N word" items separated by `sep` ("3 failed, 118 passed"): each count goes to the field
 * its word names. Returns false, changing nothing, unless every item is such a pair and one
 * of them counts tests. */
static bool count_items(mf_span s, char sep, mf_test_run *r)
{
    uint64_t failed = 0, passed = 0, skipped = 0;
    bool counted = false;
    size_t i = 0;
    while (i < s.n) {
        size_t end = i;
        while (end < s.n && s.s[end] != sep) end++;
        mf_span item = mf_span_trim((mf_span){s.s + i, end - i});
        i = end + 1;
        if (mf_span_starts(item, "finished in")) continue; /* cargo's timing */
        size_t k = 0;
        uint64_t v;
        if (!read_uint(item, &k, &v) || k >= item.n || item.s[k] != ' ') return false;
        mf_span word = mf_span_trim(after(item, k));
        if (mf_span_starts(word, "failed") || mf_span_starts(word, "error") || mf_span_starts(word, "failing")) {
            failed += v; counted = true;
        } else if (mf_span_starts(word, "passed") || mf_span_starts(word, "passing") || mf_span_starts(word, "xpassed")) {
            passed += v; counted = true;
        } else if (mf_span_starts(word, "skipped") || mf_span_starts(word, "ignored") || mf_span_starts(word, "pending") ||
                   mf_span_starts(word, "xfailed") || mf_span_starts(word, "todo")) {
            skipped += v;
        } else if (!mf_span_starts(word, "total") && !mf_span_starts(word, "warning") &&
                   !mf_span_starts(word, "deselected") && !mf_span_starts(word, "rerun") &&
                   !mf_span_starts(word, "measured") && !mf_span_starts(word, "filtered")) {
            return false;
        }
    }
    if (!counted) return false;
    r->failed += failed;
    r->passed += passed;
    r->skipped += skipped;
    return true;
}

/* Starts a run of `runner` (a later summary of another runner replaces an earlier one). */
static void start_run(mf_test_run *r, const char *runner)
{
    if (r->runner && strcmp(r->runner, runner) == 0) return;
    memset(r, 0, sizeof *r);
    r->runner = runner;
}

static void add_failing(mf_test_run *r, mf_span name)
{
    name = mf_span_trim(name);
    if (!name.n) return;
    for (size_t i = 0; i < r->nfailing; i++) if (mf_span_eq(r->failing[i], name)) return;
    if (r->nfailing < MF_MAX_FAILING) r->failing[r->nfailing++] = name;
    else r->more_failing++;
}

/* pytest's closing line, its "="s stripped: "3 failed, 118 passed in 4.21s (0:00:04)". */
static bool pytest_line(mf_span l, mf_test_run *r)
{
    while (l.n && (l.s[0] == '=' || l.s[0] == ' ')) { l.s++; l.n--; }
    while (l.n && (l.s[l.n - 1] == '=' || l.s[l.n - 1] == ' ')) l.n--;
    size_t in = SIZE_MAX;
    for (size_t i = 0; i + 4 < l.n; i++)
        if (memcmp(l.s + i, " in ", 4) == 0 && is_digit(l.s[i + 4])) in = i;
    if (in == SIZE_MAX) return false;
    mf_test_run tmp = {0};
    if (!count_items((mf_span){l.s, in}, ',', &tmp)) return false;
    start_run(r, "pytest");
    r->failed += tmp.failed; r->passed += tmp.passed; r->skipped += tmp.skipped;
    return true;
}

/* Adds a go test package line ("ok  \tpkg\t0.01s", "FAIL\tpkg\t0.01s"); false for others. */
static bool go_package_line(mf_span l, mf_test_run *r)
{
    bool ok = mf_span_starts(l, "ok  ") || mf_span_starts(l, "ok\t");
    bool fail = l.n > 5 && memcmp(l.s, "FAIL\t", 5) == 0;
    if (!ok && !fail) return false;
    start_run(r, "go test");
    if (ok) r->packages_ok++;
    else r->packages_failed++;
    return true;
}

/* The part of a line before a trailing " (1.2ms)" timing. */
static mf_span before_timing(mf_span s)
{
    for (size_t i = s.n; i-- > 1;)
        if (s.s[i] == '(' && s.s[i - 1] == ' ') return mf_span_trim((mf_span){s.s, i});
    return s;
}

static bool starts_with_bytes(mf_span s, const char *p)
{
    for (size_t i = 0; p[i]; i++)
        if (i >= s.n || s.s[i] != p[i]) return false;
    return true;
}

/* Failing tests' names, by the runner's way of listing them. `section` tracks a list that
 * follows a heading (node's "✖ failing tests:", mocha's "N failing"). */
static void failing_name(mf_span l, mf_test_run *r, int *section)
{
    if (starts_with_bytes(l, "FAILED ") && r->runner && strcmp(r->runner, "pytest") == 0) {
        mf_span rest = after(l, 7);
        for (size_t i = 0; i + 2 < rest.n; i++)
            if (memcmp(rest.s + i, " - ", 3) == 0) { rest.n = i; break; }
        add_failing(r, rest);
    } else if (starts_with_bytes(l, "FAILED ")) {
        /* pytest's short summary comes before its closing line: remember it for that run. */
        start_run(r, "pytest");
        failing_name(l, r, section);
    } else if (starts_with_bytes(l, "\xE2\x97\x8F ") && !starts_with_bytes(l, "\xE2\x97\x8F Console")) { /* ● */
        start_run(r, "jest");
        add_failing(r, after(l, 4));
    } else if (starts_with_bytes(l, "FAIL ") && mf_span_has(l, " > ")) {
        start_run(r, "vitest");
        add_failing(r, after(l, 5));
    } else if (starts_with_bytes(l, "--- FAIL: ")) {
        start_run(r, "go test");
        r->failed++;
        add_failing(r, before_timing(after(l, 10)));
    } else if (starts_with_bytes(l, "--- PASS: ")) {
        start_run(r, "go test");
        r->passed++;
    } else if (starts_with_bytes(l, "--- SKIP: ")) {
        start_run(r, "go test");
        r->skipped++;
    } else if (starts_with_bytes(l, "test ") && l.n > 16 && memcmp(l.s + l.n - 11, " ... FAILED", 11) == 0) {
        start_run(r, "cargo test");
        add_failing(r, (mf_span){l.s + 5, l.n - 16});
    } else if (starts_with_bytes(l, "not ok ")) {
        mf_span rest = after(l, 7);
        size_t i = 0;
        while (i < rest.n && is_digit(rest.s[i])) i++;
        if (i + 3 <= rest.n && memcmp(rest.s + i, " - ", 3) == 0) {
            start_run(r, "node --test");
            add_failing(r, after(rest, i + 3));
        }
    } else if (*section == 3 && starts_with_bytes(l, "[") && mf_span_has(l, "] \xE2\x80\xBA ")) { /* playwright: "[chromium] › …" */
        add_failing(r, mf_span_from(l, mf_span_find(l, MF_SPAN("] \xE2\x80\xBA ")) + 6));
    } else if (*section == 1 && starts_with_bytes(l, "\xE2\x9C\x96 ")) { /* ✖ after "failing tests:" */
        add_failing(r, before_timing(after(l, 4)));
    } else if (*section == 2 && l.n > 3 && is_digit(l.s[0])) { /* mocha: "1) suite test:" */
        size_t i = 0;
        while (i < l.n && is_digit(l.s[i])) i++;
        if (i + 1 < l.n && l.s[i] == ')' && l.s[i + 1] == ' ') {
            mf_span name = after(l, i + 2);
            if (name.n && name.s[name.n - 1] == ':') name.n--;
            add_failing(r, name);
        }
    }
}

/* The summary lines of every runner; true when l was one. */
static bool summary_line(mf_span l, mf_test_run *r, int *section)
{
    if (starts_with_bytes(l, "Tests:")) {
        mf_test_run tmp = {0};
        if (!count_items(after(l, 6), ',', &tmp)) return false;
        start_run(r, "jest");
        r->failed = tmp.failed; r->passed = tmp.passed; r->skipped = tmp.skipped;
        return true;
    }
    if (starts_with_bytes(l, "Tests ") && (mf_span_has(l, "passed") || mf_span_has(l, "failed"))) {
        mf_span rest = mf_span_trim(after(l, 6));
        mf_span items = before_timing(rest);
        mf_test_run tmp = {0};
        if (!count_items(items, '|', &tmp)) return false;
        start_run(r, "vitest");
        r->failed = tmp.failed; r->passed = tmp.passed; r->skipped = tmp.skipped;
        return true;
    }
    if (starts_with_bytes(l, "test result: ")) {
        mf_span rest = after(l, 13);
        size_t dot = 0;
        while (dot < rest.n && rest.s[dot] != '.') dot++;
        mf_test_run tmp = {0};
        if (dot + 1 >= rest.n || !count_items(after(rest, dot + 1), ';', &tmp)) return false;
        start_run(r, "cargo test");
        r->failed += tmp.failed; r->passed += tmp.passed; r->skipped += tmp.skipped;
        return true;
    }
    /* node --test: "ℹ pass 118" (spec) or "# pass 118" (TAP). */
    bool info = starts_with_bytes(l, "\xE2\x84\xB9 "), tap = starts_with_bytes(l, "# ");
    if (info || tap) {
        mf_span rest = after(l, info ? 4 : 2);
        int which = mf_span_starts(rest, "pass ") ? 1 : mf_span_starts(rest, "fail ") ? 2 : mf_span_starts(rest, "skipped ") ? 3 : 0;
        size_t k = which == 3 ? 8 : 5;
        uint64_t v;
        if (!which || !read_uint(rest, &k, &v) || k != rest.n) return false;
        start_run(r, "node --test");
        *(which == 1 ? &r->passed : which == 2 ? &r->failed : &r->skipped) = v;
        return true;
    }
    if (starts_with_bytes(l, "Running ") && mf_span_has(l, " using ") && mf_span_has(l, " worker")) {
        start_run(r, "playwright"); /* "Running 12 tests using 4 workers": its summary lines follow */
        return true;
    }
    if (l.n && is_digit(l.s[0]) && r->runner && strcmp(r->runner, "playwright") == 0) {
        /* "1 failed" (its names follow), "11 passed (18.4s)", "2 flaky", "1 skipped" */
        size_t k = 0;
        uint64_t v;
        read_uint(l, &k, &v);
        mf_span word = after(l, k);
        int which = mf_span_starts(word, " passed") ? 1 : mf_span_starts(word, " failed") ? 2
                  : mf_span_starts(word, " flaky") || mf_span_starts(word, " skipped") || mf_span_starts(word, " did not run") ? 3 : 0;
        if (which) {
            *(which == 1 ? &r->passed : which == 2 ? &r->failed : &r->skipped) += v;
            *section = which == 2 ? 3 : 0;
            return true;
        }
    }
    if (l.n && is_digit(l.s[0])) { /* mocha: "118 passing (2s)", "3 failing", "1 pending" */
        size_t k = 0;
        uint64_t v;
        read_uint(l, &k, &v);
        mf_span word = after(l, k);
        bool passing = mf_span_starts(word, " passing"), failing = mf_span_starts(word, " failing");
        if ((passing || failing || mf_span_starts(word, " pending")) &&
            (word.n == 8 || word.s[8] == ' ')) {
            start_run(r, "mocha");
            if (passing) r->passed = v;
            else if (failing) { r->failed = v; *section = 2; }
            else r->skipped = v;
            return true;
        }
    }
    return pytest_line(l, r) || go_package_line(l, r);
}

/* "exit code 2", "Exit status: 1", "exited with code 1", "\"exit_code\": 1", "returncode=1". */
static void exit_status(mf_span l, mf_result_facts *f)
{
    static const char *const PHRASES[] = {"exit code", "exit status", "exited with code", "exited with status",
                                          "exit_code", "exitcode", "returncode", "return_code", "return code", "error code", NULL};
    for (size_t i = 0; i < l.n; i++) {
        /* Every phrase starts with "ex", "er" or "re": most bytes are passed over here. */
        char c0 = l.s[i] | 32, c1 = i + 1 < l.n ? l.s[i + 1] | 32 : 0;
        if (!(c0 == 'e' && (c1 == 'x' || c1 == 'r')) && !(c0 == 'r' && c1 == 'e')) continue;
        for (int p = 0; PHRASES[p]; p++) {
            size_t n = mf_span_prefix_len(after(l, i), PHRASES[p]);
            if (!n) continue;
            size_t k = i + n;
            while (k < l.n && l.s[k] && strchr(" :=\"'", l.s[k])) k++;
            if (mf_span_starts(after(l, k), "is ")) k += 3;
            bool negative = k < l.n && l.s[k] == '-';
            uint64_t v;
            size_t d = k + negative;
            if (d < l.n && read_uint(l, &d, &v) && (d == l.n || !((l.s[d] | 32) >= 'a' && (l.s[d] | 32) <= 'z'))) {
                f->has_exit = true;
                f->exit_code = negative ? -(long long)(v & 0x7FFFFFFF) : (long long)(v & 0x7FFFFFFF);
            }
            i = k;
            break;
        }
    }
}

static bool ends_with(mf_span s, const char *suffix)
{
    size_t n = strlen(suffix);
    return s.n >= n && mf_span_starts((mf_span){s.s + s.n - n, n}, suffix);
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '.' || c == '$';
}

/* How telling a line is as the error of a failed command (see mf_result_facts). */
static int error_rank(mf_span l)
{
    if (starts_with_bytes(l, "E ")) l = mf_span_trim(after(l, 2)); /* pytest's assertion lines */
    /* A linter's "LINE:COL  error  message  rule" (ESLint's default "stylish" format; its
     * file is the line above, its "✖ 1 problem (1 error, 0 warnings)" below). */
    size_t d = 0;
    while (d < l.n && is_digit(l.s[d])) d++;
    if (d && d < l.n && l.s[d] == ':') {
        size_t e = d + 1;
        while (e < l.n && is_digit(l.s[e])) e++;
        if (e > d + 1 && starts_with_bytes(mf_span_trim(after(l, e)), "error ")) return 3;
    }
    if (starts_with_bytes(l, "Uncaught ")) l = after(l, 9);
    /* An exception line: "TypeError: …", "java.io.IOException: …", "AssertionError [ERR_ASSERTION]: …". */
    size_t i = 0;
    while (i < l.n && ident_char(l.s[i])) i++;
    mf_span name = {l.s, i};
    bool exception = (ends_with(name, "error") || ends_with(name, "exception") || ends_with(name, "failure") ||
                      ends_with(name, "fault")) &&
                     name.n > 5 && !mf_span_starts(name, "error") &&
                     (i == l.n || l.s[i] == ':' || (l.s[i] == ' ' && i + 1 < l.n && l.s[i + 1] == '['));
    if (exception || starts_with_bytes(l, "panic: ") || starts_with_bytes(l, "error[E") ||
        mf_span_has(l, "error ts") || mf_span_has(l, ": error:") || mf_span_has(l, ": fatal error:") ||
        starts_with_bytes(l, "Error: ") || starts_with_bytes(l, "SyntaxError"))
        return 3;
    if (mf_span_starts(l, "error:") || mf_span_starts(l, "error ") || mf_span_starts(l, "fatal:") ||
        mf_span_starts(l, "fatal error") || starts_with_bytes(l, "ERROR") || starts_with_bytes(l, "[ERROR]") ||
        starts_with_bytes(l, "FAILED") || mf_span_has(l, "command not found") ||
        mf_span_has(l, "no such file or directory") || mf_span_has(l, "permission denied") ||
        mf_span_has(l, "traceback (most recent call last)") || starts_with_bytes(l, "错误") ||
        starts_with_bytes(l, "报错") || starts_with_bytes(l, "失败") || starts_with_bytes(l, "异常"))
        return 2;
    /* A compiler's "file.go:15:2: declared and not used" names its file and place. */
    size_t colon = 0;
    while (colon < l.n && colon < 160 && l.s[colon] != ':' && l.s[colon] != ' ') colon++;
    if (colon + 1 < l.n && l.s[colon] == ':' && memchr(l.s, '.', colon) && is_digit(l.s[colon + 1])) {
        size_t k = colon + 1;
        while (k < l.n && is_digit(l.s[k])) k++;
        if (k + 1 < l.n && l.s[k] == ':' && is_digit(l.s[k + 1])) return 1;
    }
    /* npm's own "npm ERR! Test failed" only says that something above failed. */
    if (mf_span_has(l, "error") || mf_span_has(l, "fail") || mf_span_has(l, "错误") || mf_span_has(l, "失败")) return 1;
    return 0;
}

/* A CI log's "job<TAB>" or "job<TAB>step<TAB>" columns (gh run view --log), which hide
 * where a line starts. */
static mf_span without_log_prefix(mf_span l)
{
    for (int k = 0; k < 2; k++) {
        size_t i = 0;
        while (i < l.n && i < 48 && l.s[i] != '\t' && l.s[i] != ' ') i++;
        if (i == 0 || i >= l.n || i >= 48 || l.s[i] != '\t') break;
        if ((i == 4 && memcmp(l.s, "FAIL", 4) == 0) || (i == 2 && memcmp(l.s, "ok", 2) == 0)) break; /* go test's package lines */
        l = mf_span_trim(after(l, i + 1));
    }
    return l;
}

/* A line of the header an agent's shell tool puts before the output: Codex's "Chunk ID:",
 * "Wall time:", "Process exited with code 1", "Original token count:", "Exit code: 0",
 * "Output:"; Claude Code's "Exit code 2". */
static bool header_line(mf_span l)
{
    static const char *const KEYS[] = {"chunk id:", "wall time:", "process exited with code", "original token count:",
                                       "exit code", "total output lines:", "output:", NULL};
    for (int k = 0; KEYS[k]; k++)
        if (mf_span_starts(l, KEYS[k])) return k != 4 || l.n < 16; /* "Exit code 2", not "exit code 2 means…" */
    return false;
}

void mf_read_result_facts(mf_span text, mf_result_facts *f)
{
    memset(f, 0, sizeof *f);
    size_t at = 0;
    mf_span line;
    int section = 0;
    bool traceback = false, colon = false, header = true;
    while (mf_next_line(text, &at, &line)) {
        mf_span l = without_log_prefix(mf_span_trim(line));
        if (!l.n) continue;
        if (header && header_line(l)) {
            exit_status(l, f);
            continue;
        }
        if (header) {
            header = false;
            f->first = l;
            f->first_rank = error_rank(l);
        }
        /* "error during build:" says what follows: the next line is the error. */
        if (colon) {
            colon = false;
            f->error = l;
        }
        /* Python: the first unindented line after "Traceback (most recent call last):" is the
         * exception that ended it ("decimal.InvalidOperation: …"); the last such one wins. */
        if (mf_span_starts(l, "traceback (most recent call last)")) { traceback = true; continue; }
        if (traceback && line.s[0] != ' ' && line.s[0] != '\t' && !mf_span_starts(l, "during handling") &&
            !mf_span_starts(l, "the above exception")) {
            traceback = false;
            f->error_rank = 4;
            f->error = l;
            continue;
        }
        if (starts_with_bytes(l, "\xE2\x9C\x96 failing tests")) section = 1; /* node's list of failures follows */
        else if (!summary_line(l, &f->tests, &section)) failing_name(l, &f->tests, &section);
        exit_status(l, f);
        int rank = error_rank(l);
        if (rank > f->error_rank) {
            f->error_rank = rank;
            f->error = starts_with_bytes(l, "E ") ? mf_span_trim(after(l, 2)) : l; /* pytest's "E   " margin */
            colon = l.s[l.n - 1] == ':';
        }
    }
}

bool mf_result_failed(const mf_result_facts *f, bool content)
{
    if (f->has_exit) return f->exit_code != 0;
    if (f->tests.runner && (f->tests.failed || f->tests.packages_failed)) return true;
    return (content ? f->first_rank : f->error_rank) >= 2;
}
