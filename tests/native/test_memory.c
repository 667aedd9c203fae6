/* test_memory.c — the memory tool's engine: which paths are refused and why, and each
 * command's result text and store changes, driven step by step over a small store kept
 * in this file (the way the JS wrapper drives it over the host's store). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "check.h"
#include "failing_alloc.h"
#include "midfold.h"
#include "midfold_memory.h"
#include "suites.h"

/* ---- a store of up to 64 files, and a driver that runs a command to its end ---- */

#define MAX_FILES 64
typedef struct store {
    char *path[MAX_FILES];
    char *text[MAX_FILES];
    size_t n;
    size_t writes; /* puts, deletes and renames made */
} store;

static char *dup_mem(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (!p) abort();
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static int find(const store *st, const char *path, size_t len)
{
    for (size_t i = 0; i < st->n; i++)
        if (strlen(st->path[i]) == len && memcmp(st->path[i], path, len) == 0) return (int)i;
    return -1;
}

static void put(store *st, const char *path, size_t path_len, const char *text, size_t text_len)
{
    int i = find(st, path, path_len);
    if (i < 0) {
        if (st->n == MAX_FILES) abort();
        i = (int)st->n++;
        st->path[i] = dup_mem(path, path_len);
    } else {
        free(st->text[i]);
    }
    st->text[i] = dup_mem(text, text_len);
}

static void seed(store *st, const char *path, const char *text) { put(st, path, strlen(path), text, strlen(text)); }

static void drop(store *st, int i)
{
    free(st->path[i]);
    free(st->text[i]);
    st->n--;
    st->path[i] = st->path[st->n];
    st->text[i] = st->text[st->n];
}

static const char *text_at(const store *st, const char *path)
{
    int i = find(st, path, strlen(path));
    return i < 0 ? NULL : st->text[i];
}

static void clear(store *st)
{
    while (st->n) drop(st, 0);
    st->writes = 0;
}

typedef struct outcome {
    char *content;
    int is_error;
    int steps;
    int failed;           /* the engine returned a status, or never finished */
    char first_locks[256]; /* the first step's locks, joined by ' ' */
    char first_needs[256]; /* the first step's needs: "get:P list:P size:P" */
} outcome;

static void add_to(char *out, size_t cap, const char *what, const mf_memory_str *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t used = strlen(out);
        snprintf(out + used, cap - used, "%s%s%.*s", used ? " " : "", what, (int)s[i].len, s[i].ptr);
    }
}

/* Runs the command `input_json` over `st`, fulfilling what each step asks, then makes
 * its store changes. With `limits` NULL the defaults apply. */
static outcome run_with(store *st, const char *input_json, const mf_memory_limits *limits)
{
    outcome o;
    memset(&o, 0, sizeof o);
    cJSON *request = cJSON_CreateObject();
    cJSON *input = cJSON_Parse(input_json);
    if (!input) { o.failed = 1; cJSON_Delete(request); return o; }
    cJSON_AddItemToObject(request, "input", input);
    cJSON *files = cJSON_AddObjectToObject(request, "files");
    cJSON *lists = cJSON_AddObjectToObject(request, "lists");
    cJSON *sizes = cJSON_AddObjectToObject(request, "sizes");
    for (o.steps = 1; o.steps <= 8; o.steps++) {
        char *json = cJSON_PrintUnformatted(request);
        mf_doc *doc = NULL;
        mf_memory_step *step = NULL;
        if (mf_doc_parse_json(json, strlen(json), &doc, NULL) != MF_OK || mf_memory_run(doc, limits, &step, NULL) != MF_OK) {
            o.failed = 1;
            mf_doc_free(doc);
            cJSON_free(json);
            break;
        }
        if (o.steps == 1) {
            add_to(o.first_locks, sizeof o.first_locks, "", step->locks, step->lock_count);
            add_to(o.first_needs, sizeof o.first_needs, "get:", step->get, step->get_count);
            add_to(o.first_needs, sizeof o.first_needs, "list:", step->list, step->list_count);
            add_to(o.first_needs, sizeof o.first_needs, "size:", step->size, step->size_count);
        }
        if (step->done) {
            o.content = dup_mem(step->content, step->content_len);
            o.is_error = step->is_error;
            for (size_t i = 0; i < step->op_count; i++) {
                const mf_memory_op *op = &step->ops[i];
                st->writes++;
                int at = find(st, op->path.ptr, op->path.len);
                if (op->kind == MF_MEMORY_PUT) {
                    put(st, op->path.ptr, op->path.len, op->text.ptr, op->text.len);
                } else if (op->kind == MF_MEMORY_DELETE) {
                    if (at >= 0) drop(st, at);
                } else if (at >= 0) {
                    char *text = dup_mem(st->text[at], strlen(st->text[at]));
                    drop(st, at);
                    put(st, op->to.ptr, op->to.len, text, strlen(text));
                    free(text);
                }
            }
        } else {
            char key[1200];
            for (size_t i = 0; i < step->get_count; i++) {
                snprintf(key, sizeof key, "%.*s", (int)step->get[i].len, step->get[i].ptr);
                const char *text = text_at(st, key);
                cJSON_AddItemToObject(files, key, text ? cJSON_CreateString(text) : cJSON_CreateNull());
            }
            for (size_t i = 0; i < step->list_count; i++) {
                snprintf(key, sizeof key, "%.*s", (int)step->list[i].len, step->list[i].ptr);
                cJSON *paths = cJSON_AddArrayToObject(lists, key);
                for (size_t f = 0; f < st->n; f++)
                    if (strncmp(st->path[f], key, strlen(key)) == 0) cJSON_AddItemToArray(paths, cJSON_CreateString(st->path[f]));
            }
            for (size_t i = 0; i < step->size_count; i++) {
                snprintf(key, sizeof key, "%.*s", (int)step->size[i].len, step->size[i].ptr);
                const char *text = text_at(st, key);
                cJSON_AddItemToObject(sizes, key, cJSON_CreateNumber(text ? (double)strlen(text) : 0));
            }
        }
        int done = step->done;
        mf_memory_step_free(step);
        mf_doc_free(doc);
        cJSON_free(json);
        if (done) break;
    }
    if (!o.content) o.failed = 1;
    cJSON_Delete(request);
    return o;
}

static outcome run(store *st, const char *input_json) { return run_with(st, input_json, NULL); }

static void release(outcome *o) { free(o->content); o->content = NULL; }

/* The result text of a command that must succeed / fail, for CHECK_EQ_STR; freed by the
 * next call. */
static char *last_text;
static const char *result(store *st, const char *input_json, int want_error)
{
    free(last_text);
    outcome o = run(st, input_json);
    last_text = o.content;
    if (o.failed || o.is_error != want_error) {
        printf("     %s gave %s: %s\n", input_json, o.failed ? "no result" : o.is_error ? "an error" : "a success",
               o.content ? o.content : "");
        return "(unexpected outcome)";
    }
    return o.content;
}
#define OK(st, json) result((st), (json), 0)
#define ERR(st, json) result((st), (json), 1)

/* ---- paths ---- */

static mf_path_problem check(const char *path) { return mf_memory_check_path(path, strlen(path), NULL); }

static void paths_allowed(void)
{
    size_t key_len = 99;
    CHECK("/memories itself is a valid path, its own key",
          mf_memory_check_path("/memories", 9, &key_len) == MF_PATH_OK && key_len == 9);
    CHECK("/memories/ is the root too: the trailing slash is not part of the key",
          mf_memory_check_path("/memories/", 10, &key_len) == MF_PATH_OK && key_len == 9);
    CHECK("/memories/notes/ names the directory /memories/notes",
          mf_memory_check_path("/memories/notes/", 16, &key_len) == MF_PATH_OK && key_len == 15);
    CHECK("a plain file path is valid", check("/memories/notes.md") == MF_PATH_OK);
    CHECK("nested directories are valid", check("/memories/projects/midfold/progress.md") == MF_PATH_OK);
    CHECK("Chinese names are valid", check("/memories/用户/偏好设置.md") == MF_PATH_OK);
    CHECK("accents, emoji and inner spaces are valid", check("/memories/café notes 📝.md") == MF_PATH_OK);
    CHECK("a hidden name (one leading dot) is valid", check("/memories/.profile") == MF_PATH_OK);
    CHECK("a name with inner dots is valid", check("/memories/v1.2..3.txt") == MF_PATH_OK);
    CHECK("a percent sign that starts no escape is valid", check("/memories/50% done.md") == MF_PATH_OK);
    CHECK("the ideographic full stop (not folded to '.') is valid", check("/memories/笔记。md") == MF_PATH_OK);
}

static void paths_refused(void)
{
    static const struct { const char *path; mf_path_problem why; } cases[] = {
        {"", MF_PATH_EMPTY},
        {"memories/a", MF_PATH_OUTSIDE_ROOT},
        {"/etc/passwd", MF_PATH_OUTSIDE_ROOT},
        {"/memoriesX/a", MF_PATH_OUTSIDE_ROOT},
        {"/Memories/a", MF_PATH_OUTSIDE_ROOT},
        {"/", MF_PATH_OUTSIDE_ROOT},
        {"../memories/a", MF_PATH_OUTSIDE_ROOT},
        {"/memories/../etc/passwd", MF_PATH_DOT_NAME},
        {"/memories/a/../../etc", MF_PATH_DOT_NAME},
        {"/memories/..", MF_PATH_DOT_NAME},
        {"/memories/.", MF_PATH_DOT_NAME},
        {"/memories/a/./b", MF_PATH_DOT_NAME},
        {"/memories/...", MF_PATH_DOT_NAME},
        {"/memories//a", MF_PATH_EMPTY_NAME},
        {"/memories/a//", MF_PATH_EMPTY_NAME},
        {"/memories/%2e%2e/etc", MF_PATH_ENCODED},
        {"/memories/%2E%2E%2Fetc", MF_PATH_ENCODED},
        {"/memories/a%2fb", MF_PATH_ENCODED},
        {"/memories/a%5cb", MF_PATH_ENCODED},
        {"/memories/%252e%252e/x", MF_PATH_ENCODED},
        {"/memories/a\\..\\b", MF_PATH_BACKSLASH},
        {"/memories/a\tb", MF_PATH_CONTROL},
        {"/memories/a\x1b[31m", MF_PATH_CONTROL},
        {"/memories/a\x7f", MF_PATH_CONTROL},
        {"/memories/a\xc2\x85" "b", MF_PATH_CONTROL},          /* U+0085 next line */
        {"/memories/a\xe2\x80\xae" "dm.exe", MF_PATH_CONTROL}, /* U+202E right-to-left override */
        {"/memories/a\xe2\x80\x8b" "b", MF_PATH_CONTROL},      /* U+200B zero width space */
        {"/memories/\xef\xbb\xbf" "a", MF_PATH_CONTROL},       /* U+FEFF */
        {"/memories/a\xe2\x80\xa8" "b", MF_PATH_CONTROL},      /* U+2028 line separator */
        {"/memories/\xc0\xae\xc0\xae/x", MF_PATH_BAD_UTF8},    /* overlong "." */
        {"/memories/\xc0\xaf" "etc", MF_PATH_BAD_UTF8},        /* overlong "/" */
        {"/memories/\xe0\x80\xae", MF_PATH_BAD_UTF8},
        {"/memories/a\xff", MF_PATH_BAD_UTF8},
        {"/memories/\xef\xbf\xbd", MF_PATH_BAD_UTF8},          /* U+FFFD: an unpaired surrogate on the way in */
        {"/memories/c:evil", MF_PATH_RESERVED},
        {"/memories/notes.md:stream", MF_PATH_RESERVED},
        {"/memories/what?", MF_PATH_RESERVED},
        {"/memories/a|b", MF_PATH_RESERVED},
        {"/memories/\xef\xbc\x8e\xef\xbc\x8e/x", MF_PATH_LOOKALIKE}, /* fullwidth full stops */
        {"/memories/a\xef\xbc\x8f" "b", MF_PATH_LOOKALIKE},          /* fullwidth solidus */
        {"/memories/a\xe2\x88\x95" "b", MF_PATH_LOOKALIKE},          /* division slash */
        {"/memories/\xe2\x80\xa5", MF_PATH_LOOKALIKE},               /* two dot leader */
        {"/memories/\xe2\x80\xa6", MF_PATH_LOOKALIKE},               /* ellipsis */
        {"/memories/a\xef\xbc\xbc" "b", MF_PATH_LOOKALIKE},          /* fullwidth reverse solidus */
        {"/memories/\xef\xbc\x85" "2e", MF_PATH_LOOKALIKE},          /* fullwidth percent */
        {"/memories/\xef\xb8\xb0/\xef\xb8\xb0/etc/passwd", MF_PATH_LOOKALIKE}, /* U+FE30, NFKC ".." */
        {"/memories/\xef\xb8\x99", MF_PATH_LOOKALIKE},               /* U+FE19, NFKC "..." */
        {"/memories/c\xe2\x84\x85" "o", MF_PATH_LOOKALIKE},          /* U+2105 care of, NFKC "c/o" */
        {"/memories/\xe2\x92\x88" "md", MF_PATH_LOOKALIKE},          /* U+2488 digit one full stop, NFKC "1." */
        {"/memories/\xe2\x92\x9b", MF_PATH_LOOKALIKE},               /* U+249B number twenty full stop */
        {"/memories/\xf0\x9f\x84\x80", MF_PATH_LOOKALIKE},          /* U+1F100 digit zero full stop */
        {"/memories/\xe2\x88\x96", MF_PATH_LOOKALIKE},               /* U+2216 set minus (best fit, not NFKC) */
        {"/memories/.. ", MF_PATH_EDGE},
        {"/memories/ a", MF_PATH_EDGE},
        {"/memories/notes.", MF_PATH_EDGE},
        {"/memories/a\xe3\x80\x80", MF_PATH_EDGE},                   /* ideographic space at the end */
    };
    size_t wrong = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mf_path_problem got = check(cases[i].path);
        if (got != cases[i].why) {
            wrong++;
            printf("     %s: got %d, expected %d\n", cases[i].path, got, cases[i].why);
        }
    }
    CHECK("each hostile path is refused with its own reason", wrong == 0);
    CHECK("a NUL inside a path is a control character, length given explicitly",
          mf_memory_check_path("/memories/a\0/../x", 17, NULL) == MF_PATH_CONTROL);
    CHECK("every problem has a reason text", strcmp(mf_path_problem_text(MF_PATH_EDGE), "") != 0 &&
                                             strstr(mf_path_problem_text(MF_PATH_BACKSLASH), "backslash") != NULL);
}

static void path_limits(void)
{
    char path[1100];
    /* /memories + 4 names of 255 bytes + "/" separators: 9 + 4 * 256 = 1033; trim to 1024 */
    memcpy(path, "/memories", 9);
    size_t len = 9;
    for (int k = 0; k < 4; k++) {
        path[len++] = '/';
        memset(path + len, 'a' + k, 255);
        len += 255;
    }
    CHECK("a name of exactly 255 bytes is allowed", mf_memory_check_path(path, 9 + 256, NULL) == MF_PATH_OK);
    CHECK("a path of exactly 1024 bytes is allowed", mf_memory_check_path(path, 1024, NULL) == MF_PATH_OK);
    CHECK("a path of 1025 bytes is too long", mf_memory_check_path(path, 1025, NULL) == MF_PATH_TOO_LONG);
    char name[300];
    memcpy(name, "/memories/", 10);
    memset(name + 10, 'x', 256);
    CHECK("a name of 256 bytes is too long", mf_memory_check_path(name, 266, NULL) == MF_PATH_NAME_TOO_LONG);
    char deep[200];
    len = 0;
    memcpy(deep, "/memories", 9);
    len = 9;
    for (int k = 0; k < 33; k++) { deep[len++] = '/'; deep[len++] = 'd'; }
    CHECK("32 names below the root are allowed", mf_memory_check_path(deep, 9 + 64, NULL) == MF_PATH_OK);
    CHECK("33 names below the root are too deep", mf_memory_check_path(deep, 9 + 66, NULL) == MF_PATH_TOO_DEEP);
}

/* ---- commands ---- */

static void view_command(void)
{
    store st = {{0}, {0}, 0, 0};
    CHECK_EQ_STR("an empty store lists the root alone",
                 OK(&st, "{\"command\":\"view\",\"path\":\"/memories\"}"),
                 "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n"
                 "0B\t/memories");
    seed(&st, "/memories/notes.md", "first\nsecond\nthird\n");
    seed(&st, "/memories/projects/midfold/progress.md", "step 1 done\n");
    seed(&st, "/memories/projects/midfold/deep/more.md", "x");
    seed(&st, "/memories/projects/todo.md", "- ship\n");
    seed(&st, "/memories/.secret", "hidden");
    seed(&st, "/memories/node_modules/pkg/index.js", "module");
    seed(&st, "/memories/projects/.cache/tmp", "hidden too");
    CHECK_EQ_STR("a directory lists two levels with sizes (directories sum their files), hidden items left out",
                 OK(&st, "{\"command\":\"view\",\"path\":\"/memories\"}"),
                 "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n"
                 "39B\t/memories\n"
                 "19B\t/memories/notes.md\n"
                 "20B\t/memories/projects\n"
                 "13B\t/memories/projects/midfold\n"
                 "7B\t/memories/projects/todo.md");
    CHECK_EQ_STR("a subdirectory lists relative to itself, also given with a trailing slash",
                 OK(&st, "{\"command\":\"view\",\"path\":\"/memories/projects/\"}"),
                 "Here're the files and directories up to 2 levels deep in /memories/projects, excluding hidden items and node_modules:\n"
                 "20B\t/memories/projects\n"
                 "13B\t/memories/projects/midfold\n"
                 "1B\t/memories/projects/midfold/deep\n"
                 "12B\t/memories/projects/midfold/progress.md\n"
                 "7B\t/memories/projects/todo.md");
    CHECK_EQ_STR("a file shows 6-wide right-aligned line numbers, a tab, the line",
                 OK(&st, "{\"command\":\"view\",\"path\":\"/memories/notes.md\"}"),
                 "Here's the content of /memories/notes.md with line numbers:\n"
                 "     1\tfirst\n     2\tsecond\n     3\tthird");
    CHECK_EQ_STR("view_range [2, 2] shows line 2 alone",
                 OK(&st, "{\"command\":\"view\",\"path\":\"/memories/notes.md\",\"view_range\":[2,2]}"),
                 "Here's the content of /memories/notes.md with line numbers:\n     2\tsecond");
    CHECK_EQ_STR("view_range [2, -1] reads to the end",
                 OK(&st, "{\"command\":\"view\",\"path\":\"/memories/notes.md\",\"view_range\":[2,-1]}"),
                 "Here's the content of /memories/notes.md with line numbers:\n     2\tsecond\n     3\tthird");
    CHECK_EQ_STR("an end past the last line stops at the last line",
                 OK(&st, "{\"command\":\"view\",\"path\":\"/memories/notes.md\",\"view_range\":[3,99]}"),
                 "Here's the content of /memories/notes.md with line numbers:\n     3\tthird");
    CHECK_EQ_STR("a start past the last line is an error naming the file's range",
                 ERR(&st, "{\"command\":\"view\",\"path\":\"/memories/notes.md\",\"view_range\":[4,5]}"),
                 "Error: Invalid `view_range` parameter: [4, 5]. Its first element `4` should be within the range of lines of the file: [1, 3]");
    CHECK_EQ_STR("an end before the start is an error",
                 ERR(&st, "{\"command\":\"view\",\"path\":\"/memories/notes.md\",\"view_range\":[3,2]}"),
                 "Error: Invalid `view_range` parameter: [3, 2]. Its second element `2` should be -1 or at least its first element `3`");
    CHECK_EQ_STR("a view_range that is not two integers is an error before the store is read",
                 ERR(&st, "{\"command\":\"view\",\"path\":\"/memories/notes.md\",\"view_range\":[1.5]}"),
                 "Error: Invalid `view_range` parameter: [1.5]. It should be a list of two integers [start_line, end_line]; end_line -1 reads to the end.");
    CHECK_EQ_STR("a missing path says so in Anthropic's words",
                 ERR(&st, "{\"command\":\"view\",\"path\":\"/memories/nope.md\"}"),
                 "The path /memories/nope.md does not exist. Please provide a valid path.");
    CHECK_EQ_STR("a hidden file can still be viewed by its path",
                 OK(&st, "{\"command\":\"view\",\"path\":\"/memories/.secret\"}"),
                 "Here's the content of /memories/.secret with line numbers:\n     1\thidden");
    seed(&st, "/memories/empty.md", "");
    CHECK_EQ_STR("an empty file shows the header alone",
                 OK(&st, "{\"command\":\"view\",\"path\":\"/memories/empty.md\"}"),
                 "Here's the content of /memories/empty.md with line numbers:\n");

    outcome o = run(&st, "{\"command\":\"view\",\"path\":\"/memories/notes.md\"}");
    CHECK_EQ_STR("the first step of a file view asks for the file's text", o.first_needs, "get:/memories/notes.md");
    CHECK_EQ_STR("... and locks the path", o.first_locks, "/memories/notes.md");
    CHECK("... and a second step finishes it", o.steps == 2);
    release(&o);
    o = run(&st, "{\"command\":\"view\",\"path\":\"/memories/projects\"}");
    CHECK("a directory view takes three steps: its text (none), its listing, its files' sizes", o.steps == 4);
    release(&o);
    CHECK("viewing writes nothing", st.writes == 0);
    clear(&st);
}

static void view_limits(void)
{
    store st = {{0}, {0}, 0, 0};
    mf_memory_limits lim;
    mf_memory_limits_init(&lim);
    CHECK("the default limits are 1 MiB per file, 1000 files, 32 KiB per view",
          lim.max_file_bytes == 1048576 && lim.max_files == 1000 && lim.max_view_bytes == 32768);
    lim.max_view_bytes = 256;
    /* 40 lines of 20 bytes: "%6zu\t" + 20 bytes + "\n" = 28 bytes a line, so 9 fit in 256 */
    char text[40 * 21 + 1];
    for (int i = 0; i < 40; i++) {
        memset(text + i * 21, 'a' + i % 26, 20);
        text[i * 21 + 20] = '\n';
    }
    text[40 * 21] = 0;
    seed(&st, "/memories/long.txt", text);
    outcome o = run_with(&st, "{\"command\":\"view\",\"path\":\"/memories/long.txt\"}", &lim);
    CHECK("a view over the limit shows the lines that fit and says how to read on",
          o.content && strstr(o.content, "     9\tiiiiiiiiiiiiiiiiiiii\n[Output truncated at the view limit of 256 bytes: "
                                         "lines 1-9 of 40 shown. Use view_range [10, 40] to read on.]") != NULL &&
              strstr(o.content, "    10\t") == NULL && !o.is_error);
    release(&o);
    o = run_with(&st, "{\"command\":\"view\",\"path\":\"/memories/long.txt\",\"view_range\":[37,-1]}", &lim);
    CHECK("view_range pages through the rest", o.content && strstr(o.content, "    40\tnnnnnnnnnnnnnnnnnnnn") != NULL &&
                                                  strstr(o.content, "truncated") == NULL);
    release(&o);

    char wide[600];
    memcpy(wide, "中", 3);
    for (int i = 0; i < 199; i++) memcpy(wide + i * 3, "中", 3);
    strcpy(wide + 597, "\nb");
    seed(&st, "/memories/wide.txt", wide);
    o = run_with(&st, "{\"command\":\"view\",\"path\":\"/memories/wide.txt\"}", &lim);
    const char *cut = o.content ? strstr(o.content, "     1\t") : NULL;
    const char *note = o.content ? strstr(o.content, "\n[Line 1 is longer than the view limit of 256 bytes and was cut. Use view_range [2, 2] to read on.]") : NULL;
    CHECK("a single line longer than the limit is cut on a character boundary, with a note",
          cut && note && (note - (cut + 7)) % 3 == 0 && (note - (cut + 7)) <= 249);
    release(&o);

    lim.max_view_bytes = 300;
    clear(&st);
    char path[64];
    for (int i = 0; i < 30; i++) {
        snprintf(path, sizeof path, "/memories/file-%02d.md", i);
        seed(&st, path, "x");
    }
    o = run_with(&st, "{\"command\":\"view\",\"path\":\"/memories\"}", &lim);
    CHECK("a listing over the limit stops at a whole entry and says how many were shown",
          o.content && strstr(o.content, "\n[Listing truncated at the view limit of 300 bytes: 11 of 30 entries shown. "
                                         "View a subdirectory to see the rest.]") != NULL);
    release(&o);
    clear(&st);
}

static void sizes(void)
{
    store st = {{0}, {0}, 0, 0};
    char *big = malloc(3 * 1048576 + 1);
    memset(big, 'x', 3 * 1048576);
    big[1023] = 0;
    seed(&st, "/memories/a", big); /* 1023 */
    big[1023] = 'x';
    big[1536] = 0;
    seed(&st, "/memories/b", big); /* 1536 */
    big[1536] = 'x';
    big[10241] = 0;
    seed(&st, "/memories/c", big); /* 10241: 10.0K and a bit, rounded up */
    big[10241] = 'x';
    big[1048576] = 0;
    seed(&st, "/memories/d", big); /* 1 MiB */
    big[1048576] = 'x';
    CHECK_EQ_STR("sizes read like du -h: bytes below 1K, one decimal below 10, rounded up",
                 OK(&st, "{\"command\":\"view\",\"path\":\"/memories\"}"),
                 "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n"
                 "1.1M\t/memories\n1023B\t/memories/a\n1.5K\t/memories/b\n11K\t/memories/c\n1.0M\t/memories/d");
    free(big);
    clear(&st);
}

static void create_command(void)
{
    store st = {{0}, {0}, 0, 0};
    CHECK_EQ_STR("create stores a new file",
                 OK(&st, "{\"command\":\"create\",\"path\":\"/memories/prefs.md\",\"file_text\":\"likes short answers\\n\"}"),
                 "File created successfully at: /memories/prefs.md");
    CHECK_EQ_STR("... with exactly the text given", text_at(&st, "/memories/prefs.md"), "likes short answers\n");
    CHECK_EQ_STR("create never overwrites",
                 ERR(&st, "{\"command\":\"create\",\"path\":\"/memories/prefs.md\",\"file_text\":\"other\"}"),
                 "Error: File /memories/prefs.md already exists");
    CHECK_EQ_STR("... and the file keeps its text", text_at(&st, "/memories/prefs.md"), "likes short answers\n");
    CHECK_EQ_STR("create makes its directories implicitly",
                 OK(&st, "{\"command\":\"create\",\"path\":\"/memories/a/b/c.md\",\"file_text\":\"\"}"),
                 "File created successfully at: /memories/a/b/c.md");
    CHECK_EQ_STR("a file cannot be created where a directory is",
                 ERR(&st, "{\"command\":\"create\",\"path\":\"/memories/a/b\",\"file_text\":\"x\"}"),
                 "Error: The path /memories/a/b is a directory");
    CHECK_EQ_STR("a file cannot be created inside a file",
                 ERR(&st, "{\"command\":\"create\",\"path\":\"/memories/prefs.md/x\",\"file_text\":\"x\"}"),
                 "Error: Cannot create /memories/prefs.md/x: /memories/prefs.md is a file, not a directory");
    CHECK_EQ_STR("the root is no file",
                 ERR(&st, "{\"command\":\"create\",\"path\":\"/memories\",\"file_text\":\"x\"}"),
                 "Error: The path /memories is a directory");
    CHECK_EQ_STR("file_text is required",
                 ERR(&st, "{\"command\":\"create\",\"path\":\"/memories/x.md\"}"),
                 "Error: Parameter `file_text` is required for command create.");
    CHECK_EQ_STR("file_text must be a string",
                 ERR(&st, "{\"command\":\"create\",\"path\":\"/memories/x.md\",\"file_text\":42}"),
                 "Error: Parameter `file_text` must be a string.");
    outcome o = run(&st, "{\"command\":\"create\",\"path\":\"/memories/n.md\",\"file_text\":\"x\"}");
    CHECK_EQ_STR("create lists the whole store first", o.first_needs, "list:/memories/");
    CHECK_EQ_STR("... and locks its path and the file count", o.first_locks, "/memories/n.md :files");
    release(&o);
    clear(&st);

    mf_memory_limits lim;
    mf_memory_limits_init(&lim);
    lim.max_files = 2;
    seed(&st, "/memories/one", "1");
    o = run_with(&st, "{\"command\":\"create\",\"path\":\"/memories/two\",\"file_text\":\"2\"}", &lim);
    CHECK("max_files: the file that reaches the limit is created", o.content && !o.is_error && st.n == 2);
    release(&o);
    o = run_with(&st, "{\"command\":\"create\",\"path\":\"/memories/three\",\"file_text\":\"3\"}", &lim);
    CHECK_EQ_STR("max_files: one more is refused",
                 o.content, "Error: The memory directory already holds 2 files, the most it may hold. Delete or merge files before creating new ones.");
    CHECK("... and nothing is written", st.n == 2);
    release(&o);
    clear(&st);

    /* Keys the tool cannot act on are someone else's: they are not counted (README,
     * "Limits"), so the model is never told the store is full of files it cannot see. */
    seed(&st, "/memories/one", "1");
    seed(&st, "/memories", "the root as a key");
    seed(&st, "/memories/dir/", "a trailing slash");
    seed(&st, "/memories/bell\x07", "a control character");
    seed(&st, "/memories/../etc", "a dot name");
    seed(&st, "/etc/passwd", "outside the root");
    o = run_with(&st, "{\"command\":\"create\",\"path\":\"/memories/two\",\"file_text\":\"2\"}", &lim);
    CHECK("max_files counts only keys the tool can act on: one valid file and five others leave room for one",
          o.content && !o.is_error && text_at(&st, "/memories/two"));
    release(&o);
    o = run_with(&st, "{\"command\":\"create\",\"path\":\"/memories/three\",\"file_text\":\"3\"}", &lim);
    CHECK_EQ_STR("... and the refusal counts the same files",
                 o.content, "Error: The memory directory already holds 2 files, the most it may hold. Delete or merge files before creating new ones.");
    release(&o);
    clear(&st);
}

/* A raw NUL byte in a request's JSON (fuzz regression memory/raw-nul-store-key): cJSON
 * kept it and cut the string there, so the store key "/memories<NUL>..." read as the
 * root "/memories" and a path "/memories/a.md<NUL>/../x" as "/memories/a.md". The reader
 * refuses it, at its position, as it refuses an escaped \u0000. */
static void raw_nul_refused(void)
{
    static const char key[] = "{\"input\": {\"command\": \"view\", \"path\": \"/memories\"}, "
                              "\"lists\": {\"/memories/\": [\"/memories\0/notes.md\"]}}";
    static const char path[] = "{\"command\": \"create\", \"path\": \"/memories/a.md\0/../x\", \"file_text\": \"x\"}";
    mf_doc *doc = NULL;
    mf_error err;
    CHECK("a raw NUL in a listed key is a parse error", mf_doc_parse_json(key, sizeof key - 1, &doc, &err) == MF_ERR_PARSE &&
                                                          !doc && err.position == (size_t)(strchr(key, 0) - key) &&
                                                          strstr(err.message, "NUL"));
    mf_doc_free(doc); /* only when the check failed */
    doc = NULL;
    CHECK("a raw NUL in a path is a parse error", mf_doc_parse_json(path, sizeof path - 1, &doc, &err) == MF_ERR_PARSE &&
                                                    !doc && err.position == (size_t)(strchr(path, 0) - path));
    mf_doc_free(doc);
}

static void size_cap(void)
{
    store st = {{0}, {0}, 0, 0};
    mf_memory_limits lim;
    mf_memory_limits_init(&lim);
    lim.max_file_bytes = 16;
    outcome o = run_with(&st, "{\"command\":\"create\",\"path\":\"/memories/at.md\",\"file_text\":\"0123456789abcdef\"}", &lim);
    CHECK("a file of exactly max_file_bytes is created", o.content && !o.is_error && text_at(&st, "/memories/at.md"));
    release(&o);
    o = run_with(&st, "{\"command\":\"create\",\"path\":\"/memories/over.md\",\"file_text\":\"0123456789abcdefg\"}", &lim);
    CHECK_EQ_STR("one byte more is refused, before the store is read",
                 o.content, "Error: The file text would make /memories/over.md 17 bytes, over the limit of 16 bytes for one memory file.");
    CHECK("... in one step, writing nothing", o.steps == 1 && !text_at(&st, "/memories/over.md"));
    release(&o);
    o = run_with(&st, "{\"command\":\"create\",\"path\":\"/memories/zh.md\",\"file_text\":\"中文中文中文\"}", &lim);
    CHECK("the cap counts UTF-8 bytes: six CJK characters are 18 bytes, over 16", o.content && o.is_error);
    release(&o);
    o = run_with(&st, "{\"command\":\"str_replace\",\"path\":\"/memories/at.md\",\"old_str\":\"f\",\"new_str\":\"fg\"}", &lim);
    CHECK_EQ_STR("an edit that would grow a file past the cap is refused",
                 o.content, "Error: The edit would make /memories/at.md 17 bytes, over the limit of 16 bytes for one memory file.");
    release(&o);
    o = run_with(&st, "{\"command\":\"insert\",\"path\":\"/memories/at.md\",\"insert_line\":1,\"insert_text\":\"\"}", &lim);
    CHECK_EQ_STR("an insert that would grow a file past the cap is refused",
                 o.content, "Error: The insert would make /memories/at.md 18 bytes, over the limit of 16 bytes for one memory file.");
    CHECK_EQ_STR("... and the file is unchanged", text_at(&st, "/memories/at.md"), "0123456789abcdef");
    release(&o);
    clear(&st);
}

static void str_replace_command(void)
{
    store st = {{0}, {0}, 0, 0};
    seed(&st, "/memories/plan.md", "1\n2\n3\n4\n5\n6 target\n7\n8\n9\n10\n11\n12\n");
    CHECK_EQ_STR("str_replace edits and shows a numbered snippet: four lines either side",
                 OK(&st, "{\"command\":\"str_replace\",\"path\":\"/memories/plan.md\",\"old_str\":\"target\",\"new_str\":\"hit\\nand more\"}"),
                 "The memory file has been edited.\n"
                 "     2\t2\n     3\t3\n     4\t4\n     5\t5\n     6\t6 hit\n     7\tand more\n     8\t7\n     9\t8\n    10\t9\n    11\t10");
    CHECK_EQ_STR("... and the store holds the new text", text_at(&st, "/memories/plan.md"),
                 "1\n2\n3\n4\n5\n6 hit\nand more\n7\n8\n9\n10\n11\n12\n");
    CHECK_EQ_STR("old_str that is absent",
                 ERR(&st, "{\"command\":\"str_replace\",\"path\":\"/memories/plan.md\",\"old_str\":\"nowhere\",\"new_str\":\"x\"}"),
                 "No replacement was performed, old_str `nowhere` did not appear verbatim in /memories/plan.md.");
    CHECK_EQ_STR("old_str that occurs more than once names each line it starts on, once",
                 ERR(&st, "{\"command\":\"str_replace\",\"path\":\"/memories/plan.md\",\"old_str\":\"1\",\"new_str\":\"x\"}"),
                 "No replacement was performed. Multiple occurrences of old_str `1` in lines: [1, 11, 12, 13]. Please ensure it is unique");
    CHECK_EQ_STR("a missing new_str deletes old_str",
                 OK(&st, "{\"command\":\"str_replace\",\"path\":\"/memories/plan.md\",\"old_str\":\"and more\\n\"}"),
                 "The memory file has been edited.\n"
                 "     3\t3\n     4\t4\n     5\t5\n     6\t6 hit\n     7\t7\n     8\t8\n     9\t9\n    10\t10\n    11\t11");
    CHECK_EQ_STR("an empty old_str is refused",
                 ERR(&st, "{\"command\":\"str_replace\",\"path\":\"/memories/plan.md\",\"old_str\":\"\",\"new_str\":\"x\"}"),
                 "Error: Parameter `old_str` must not be empty.");
    CHECK_EQ_STR("a missing file",
                 ERR(&st, "{\"command\":\"str_replace\",\"path\":\"/memories/none.md\",\"old_str\":\"a\",\"new_str\":\"b\"}"),
                 "The path /memories/none.md does not exist. Please provide a valid path.");
    CHECK_EQ_STR("old_str is required",
                 ERR(&st, "{\"command\":\"str_replace\",\"path\":\"/memories/plan.md\",\"new_str\":\"b\"}"),
                 "Error: Parameter `old_str` is required for command str_replace.");

    seed(&st, "/memories/aaa.txt", "aaaa");
    CHECK_EQ_STR("occurrences do not overlap: \"aa\" occurs twice in \"aaaa\", both on line 1",
                 ERR(&st, "{\"command\":\"str_replace\",\"path\":\"/memories/aaa.txt\",\"old_str\":\"aa\",\"new_str\":\"b\"}"),
                 "No replacement was performed. Multiple occurrences of old_str `aa` in lines: [1]. Please ensure it is unique");
    char many[400];
    for (int i = 0; i < 150; i++) { many[2 * i] = 'x'; many[2 * i + 1] = '\n'; }
    many[300] = 0;
    seed(&st, "/memories/many.txt", many);
    const char *text = ERR(&st, "{\"command\":\"str_replace\",\"path\":\"/memories/many.txt\",\"old_str\":\"x\",\"new_str\":\"y\"}");
    CHECK("at most 100 line numbers are named, then \"...\"", strstr(text, ", 99, 100, ...]. Please ensure it is unique") != NULL);

    /* a pattern that defeats naive search: linear time, and found at the very end */
    size_t n = 200000;
    char *hay = malloc(n + 2);
    memset(hay, 'a', n);
    hay[n] = 'b';
    hay[n + 1] = 0;
    seed(&st, "/memories/hay.txt", hay);
    char *input = malloc(20100);
    strcpy(input, "{\"command\":\"str_replace\",\"path\":\"/memories/hay.txt\",\"old_str\":\"");
    size_t at = strlen(input);
    memset(input + at, 'a', 20000);
    strcpy(input + at + 20000, "b\",\"new_str\":\"Z\"}");
    outcome o = run(&st, input);
    CHECK("a long old_str of repeated characters is found once, at the end",
          o.content && !o.is_error && strlen(text_at(&st, "/memories/hay.txt")) == n - 20000 + 1);
    release(&o);
    free(input);
    free(hay);

    seed(&st, "/memories/zh.md", "用户喜欢简洁的回答。\n项目：midfold\n");
    CHECK_EQ_STR("Chinese text is replaced by bytes and numbered by lines",
                 OK(&st, "{\"command\":\"str_replace\",\"path\":\"/memories/zh.md\",\"old_str\":\"简洁\",\"new_str\":\"详细\"}"),
                 "The memory file has been edited.\n     1\t用户喜欢详细的回答。\n     2\t项目：midfold");
    clear(&st);
}

static void insert_command(void)
{
    store st = {{0}, {0}, 0, 0};
    seed(&st, "/memories/list.md", "a\nb\n");
    CHECK_EQ_STR("insert at line 0 puts the text first",
                 OK(&st, "{\"command\":\"insert\",\"path\":\"/memories/list.md\",\"insert_line\":0,\"insert_text\":\"top\"}"),
                 "The file /memories/list.md has been edited.");
    CHECK_EQ_STR("... as a line of its own", text_at(&st, "/memories/list.md"), "top\na\nb\n");
    OK(&st, "{\"command\":\"insert\",\"path\":\"/memories/list.md\",\"insert_line\":2,\"insert_text\":\"mid\\n\"}");
    CHECK_EQ_STR("insert at line 2 goes after the second line", text_at(&st, "/memories/list.md"), "top\na\nmid\nb\n");
    OK(&st, "{\"command\":\"insert\",\"path\":\"/memories/list.md\",\"insert_line\":4,\"insert_text\":\"end\"}");
    CHECK_EQ_STR("insert after the last line appends", text_at(&st, "/memories/list.md"), "top\na\nmid\nb\nend\n");
    CHECK_EQ_STR("a line past the end names the valid range",
                 ERR(&st, "{\"command\":\"insert\",\"path\":\"/memories/list.md\",\"insert_line\":6,\"insert_text\":\"x\"}"),
                 "Error: Invalid `insert_line` parameter: 6. It should be within the range of lines of the file: [0, 5]");
    CHECK_EQ_STR("a negative line too",
                 ERR(&st, "{\"command\":\"insert\",\"path\":\"/memories/list.md\",\"insert_line\":-1,\"insert_text\":\"x\"}"),
                 "Error: Invalid `insert_line` parameter: -1. It should be within the range of lines of the file: [0, 5]");
    CHECK_EQ_STR("a fraction too",
                 ERR(&st, "{\"command\":\"insert\",\"path\":\"/memories/list.md\",\"insert_line\":1.5,\"insert_text\":\"x\"}"),
                 "Error: Invalid `insert_line` parameter: 1.5. It should be within the range of lines of the file: [0, 5]");
    CHECK_EQ_STR("insert_line is required",
                 ERR(&st, "{\"command\":\"insert\",\"path\":\"/memories/list.md\",\"insert_text\":\"x\"}"),
                 "Error: Parameter `insert_line` is required for command insert.");
    seed(&st, "/memories/open.md", "no newline");
    OK(&st, "{\"command\":\"insert\",\"path\":\"/memories/open.md\",\"insert_line\":1,\"insert_text\":\"next\"}");
    CHECK_EQ_STR("appending to a last line without a newline ends that line first",
                 text_at(&st, "/memories/open.md"), "no newline\nnext\n");
    seed(&st, "/memories/empty.md", "");
    OK(&st, "{\"command\":\"insert\",\"path\":\"/memories/empty.md\",\"insert_line\":0,\"insert_text\":\"only\"}");
    CHECK_EQ_STR("an empty file takes insert_line 0", text_at(&st, "/memories/empty.md"), "only\n");
    CHECK_EQ_STR("a missing file",
                 ERR(&st, "{\"command\":\"insert\",\"path\":\"/memories/none.md\",\"insert_line\":0,\"insert_text\":\"x\"}"),
                 "The path /memories/none.md does not exist. Please provide a valid path.");
    clear(&st);
}

static void delete_command(void)
{
    store st = {{0}, {0}, 0, 0};
    seed(&st, "/memories/a.md", "a");
    seed(&st, "/memories/dir/x.md", "x");
    seed(&st, "/memories/dir/sub/.y", "y");
    seed(&st, "/memories/dir/../evil", "planted by another writer");
    seed(&st, "/memories/dirt.md", "not in dir");
    CHECK_EQ_STR("delete removes a file", OK(&st, "{\"command\":\"delete\",\"path\":\"/memories/a.md\"}"),
                 "Successfully deleted /memories/a.md");
    CHECK("... from the store", !text_at(&st, "/memories/a.md"));
    CHECK_EQ_STR("delete removes a directory recursively, hidden files too",
                 OK(&st, "{\"command\":\"delete\",\"path\":\"/memories/dir\"}"), "Successfully deleted /memories/dir");
    CHECK("... every valid path under it, and nothing beside it",
          !text_at(&st, "/memories/dir/x.md") && !text_at(&st, "/memories/dir/sub/.y") && text_at(&st, "/memories/dirt.md"));
    CHECK("a stored key that is no valid path is never deleted (nor followed)", text_at(&st, "/memories/dir/../evil") != NULL);
    CHECK_EQ_STR("a missing path", ERR(&st, "{\"command\":\"delete\",\"path\":\"/memories/a.md\"}"),
                 "The path /memories/a.md does not exist. Please provide a valid path.");
    CHECK_EQ_STR("the root cannot be deleted", ERR(&st, "{\"command\":\"delete\",\"path\":\"/memories\"}"),
                 "Error: The /memories directory itself cannot be deleted");
    CHECK_EQ_STR("... nor as /memories/", ERR(&st, "{\"command\":\"delete\",\"path\":\"/memories/\"}"),
                 "Error: The /memories directory itself cannot be deleted");
    clear(&st);
}

static void rename_command(void)
{
    store st = {{0}, {0}, 0, 0};
    seed(&st, "/memories/a.md", "A");
    seed(&st, "/memories/b.md", "B");
    seed(&st, "/memories/dir/one.md", "1");
    seed(&st, "/memories/dir/sub/.two", "2");
    CHECK_EQ_STR("rename moves a file",
                 OK(&st, "{\"command\":\"rename\",\"old_path\":\"/memories/a.md\",\"new_path\":\"/memories/archive/a.md\"}"),
                 "Successfully renamed /memories/a.md to /memories/archive/a.md");
    CHECK("... keeping its text", !text_at(&st, "/memories/a.md") && strcmp(text_at(&st, "/memories/archive/a.md"), "A") == 0);
    CHECK_EQ_STR("rename never overwrites",
                 ERR(&st, "{\"command\":\"rename\",\"old_path\":\"/memories/b.md\",\"new_path\":\"/memories/archive/a.md\"}"),
                 "Error: The destination /memories/archive/a.md already exists");
    CHECK_EQ_STR("... nor onto a directory",
                 ERR(&st, "{\"command\":\"rename\",\"old_path\":\"/memories/b.md\",\"new_path\":\"/memories/dir\"}"),
                 "Error: The destination /memories/dir already exists");
    CHECK_EQ_STR("... nor onto the root",
                 ERR(&st, "{\"command\":\"rename\",\"old_path\":\"/memories/b.md\",\"new_path\":\"/memories\"}"),
                 "Error: The destination /memories already exists");
    CHECK("... and both files keep their texts",
          strcmp(text_at(&st, "/memories/b.md"), "B") == 0 && strcmp(text_at(&st, "/memories/archive/a.md"), "A") == 0);
    CHECK_EQ_STR("a directory moves with everything in it",
                 OK(&st, "{\"command\":\"rename\",\"old_path\":\"/memories/dir\",\"new_path\":\"/memories/moved\"}"),
                 "Successfully renamed /memories/dir to /memories/moved");
    CHECK("... hidden files included",
          text_at(&st, "/memories/moved/one.md") && text_at(&st, "/memories/moved/sub/.two") && !text_at(&st, "/memories/dir/one.md"));
    CHECK_EQ_STR("a directory cannot move into itself",
                 ERR(&st, "{\"command\":\"rename\",\"old_path\":\"/memories/moved\",\"new_path\":\"/memories/moved/inner\"}"),
                 "Error: Cannot rename /memories/moved to /memories/moved/inner, a path inside itself");
    CHECK_EQ_STR("nothing can move below a file",
                 ERR(&st, "{\"command\":\"rename\",\"old_path\":\"/memories/moved\",\"new_path\":\"/memories/b.md/x\"}"),
                 "Error: Cannot rename to /memories/b.md/x: /memories/b.md is a file, not a directory");
    CHECK_EQ_STR("a missing source",
                 ERR(&st, "{\"command\":\"rename\",\"old_path\":\"/memories/gone\",\"new_path\":\"/memories/x\"}"),
                 "The path /memories/gone does not exist. Please provide a valid path.");
    CHECK_EQ_STR("the root cannot be renamed",
                 ERR(&st, "{\"command\":\"rename\",\"old_path\":\"/memories\",\"new_path\":\"/memories/x\"}"),
                 "Error: The /memories directory itself cannot be renamed");
    CHECK_EQ_STR("a hostile destination is refused before the store is read",
                 ERR(&st, "{\"command\":\"rename\",\"old_path\":\"/memories/b.md\",\"new_path\":\"/memories/../b.md\"}"),
                 "Error: The path /memories/../b.md is not allowed: it has a name made only of dots, like . or ... "
                 "Memory paths look like /memories/notes.md.");
    outcome o = run(&st, "{\"command\":\"rename\",\"old_path\":\"/memories/b.md\",\"new_path\":\"/memories/c.md\"}");
    CHECK_EQ_STR("rename locks both paths", o.first_locks, "/memories/b.md /memories/c.md");
    release(&o);

    /* a move that would push a path past the depth limit is refused whole */
    char deep[200] = "/memories";
    for (int k = 0; k < 30; k++) strcat(deep, "/d");
    strcat(deep, "/f.md");
    seed(&st, deep, "deep");
    char input[400];
    snprintf(input, sizeof input, "{\"command\":\"rename\",\"old_path\":\"/memories/d\",\"new_path\":\"/memories/x/y/z\"}");
    size_t before = st.n;
    o = run(&st, input);
    CHECK("a directory move that would make a path too deep is refused, moving nothing",
          o.is_error && o.content && strstr(o.content, "which is not allowed (it is nested more than 32 levels deep)") &&
              st.n == before && text_at(&st, deep));
    release(&o);
    clear(&st);
}

static void input_errors(void)
{
    store st = {{0}, {0}, 0, 0};
    CHECK_EQ_STR("an unknown command", ERR(&st, "{\"command\":\"format\",\"path\":\"/memories\"}"),
                 "Error: Unknown command `format`. The memory tool's commands are view, create, str_replace, insert, delete and rename.");
    CHECK_EQ_STR("no command", ERR(&st, "{\"path\":\"/memories\"}"),
                 "Error: Parameter `command` is required: one of view, create, str_replace, insert, delete, rename.");
    CHECK_EQ_STR("an input that is no object", ERR(&st, "[1,2]"),
                 "Error: The tool input must be an object with a `command` and its parameters.");
    CHECK_EQ_STR("no path", ERR(&st, "{\"command\":\"view\"}"), "Error: Parameter `path` is required for command view.");
    CHECK_EQ_STR("an empty path", ERR(&st, "{\"command\":\"view\",\"path\":\"\"}"),
                 "Error: Parameter `path` is empty. Memory paths look like /memories/notes.md.");
    CHECK_EQ_STR("a path outside the root",
                 ERR(&st, "{\"command\":\"create\",\"path\":\"/etc/cron.d/x\",\"file_text\":\"x\"}"),
                 "Error: The path /etc/cron.d/x is not allowed: every memory path starts with /memories. "
                 "Memory paths look like /memories/notes.md.");
    CHECK_EQ_STR("control characters are shown escaped in the error",
                 ERR(&st, "{\"command\":\"view\",\"path\":\"/memories/a\\u001b[2Jb\"}"),
                 "Error: The path /memories/a\\u001b[2Jb is not allowed: it has a control or invisible character. "
                 "Memory paths look like /memories/notes.md.");
    CHECK("none of it wrote anything", st.writes == 0 && st.n == 0);

    mf_memory_step *step = (mf_memory_step *)1;
    mf_error err;
    CHECK("a NULL request is an invalid argument",
          mf_memory_run(NULL, NULL, &step, &err) == MF_ERR_INVALID_ARG && step == NULL && err.code == MF_ERR_INVALID_ARG);
    mf_doc *doc = NULL;
    mf_doc_parse_json("[]", 2, &doc, NULL);
    CHECK("a request that is no object is an invalid argument", mf_memory_run(doc, NULL, &step, NULL) == MF_ERR_INVALID_ARG);
    CHECK("a NULL output pointer is an invalid argument", mf_memory_run(doc, NULL, NULL, NULL) == MF_ERR_INVALID_ARG);
    mf_doc_free(doc);
    mf_memory_step_free(NULL);
}

/* Every allocation of a finishing str_replace step failing in turn: MF_ERR_NOMEM each
 * time, nothing left allocated, and the same step works afterwards. */
static void allocation_failures(void)
{
    const char *json = "{\"input\":{\"command\":\"str_replace\",\"path\":\"/memories/a.md\",\"old_str\":\"two\","
                       "\"new_str\":\"2\"},\"files\":{\"/memories/a.md\":\"one\\ntwo\\nthree\\n\"},\"lists\":{},\"sizes\":{}}";
    const char *listing = "{\"input\":{\"command\":\"view\",\"path\":\"/memories\"},\"files\":{},"
                          "\"lists\":{\"/memories/\":[\"/memories/a.md\",\"/memories/d/b.md\"]},"
                          "\"sizes\":{\"/memories/a.md\":10,\"/memories/d/b.md\":2048}}";
    const char *requests[] = {json, listing};
    for (int r = 0; r < 2; r++) {
        mf_doc *doc = NULL;
        mf_doc_parse_json(requests[r], strlen(requests[r]), &doc, NULL);
        size_t live = fa_live();
        fa_reset();
        mf_memory_step *step = NULL;
        mf_status st = mf_memory_run(doc, NULL, &step, NULL);
        size_t total = fa_allocations();
        CHECK("the step succeeds and allocates", st == MF_OK && step && step->done && total > 0);
        mf_memory_step_free(step);
        size_t wrong = 0, leaked = 0;
        for (size_t n = 1; n <= total; n++) {
            mf_error err;
            step = NULL;
            fa_fail_nth(n, false);
            st = mf_memory_run(doc, NULL, &step, &err);
            fa_reset();
            if (st != MF_ERR_NOMEM || step || err.code != MF_ERR_NOMEM) wrong++;
            mf_memory_step_free(step);
            if (fa_live() != live) { leaked++; live = fa_live(); }
        }
        CHECK("each allocation failing gives MF_ERR_NOMEM and no step", wrong == 0);
        CHECK("... and leaves nothing allocated", leaked == 0);
        mf_doc_free(doc);
    }
}

void test_memory(void)
{
    paths_allowed();
    paths_refused();
    path_limits();
    view_command();
    view_limits();
    sizes();
    create_command();
    size_cap();
    str_replace_command();
    insert_command();
    delete_command();
    rename_command();
    input_errors();
    raw_nul_refused();
    allocation_failures();
    free(last_text);
    last_text = NULL;
}
