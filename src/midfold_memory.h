/*
 * midfold_memory.h — the public C API of midfold's memory tool, a module of its own
 * (wasm/bridge_memory.c, midfold-memory.wasm): nothing in midfold.h needs it, and a build
 * that only estimates and compacts links none of it. The conventions are midfold.h's.
 */
#ifndef MIDFOLD_MEMORY_API_H
#define MIDFOLD_MEMORY_API_H

#include "midfold.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The client side of Anthropic's memory tool (memory_20250818): path checks and the
 * commands view, create, str_replace, insert, delete and rename, over files kept in a
 * store the host owns. Paths live under /memories; directories are implicit (a path
 * is a directory when files lie under it). The engine never calls the store: a command
 * runs in steps, each a pure function of a request document
 *     {"input": {the tool input}, "files": {path: text | null},
 *      "lists": {prefix: [path, ...]}, "sizes": {path: bytes}}
 * that either asks for more of the store (the text of some paths, the paths that start
 * with some prefixes, the byte sizes of some paths) or is done: a result text, whether
 * it is an error, and the store changes to make. Tool-level errors (a bad path, a
 * missing file, an old_str that is not unique) are results, never an mf_status. */

#define MF_MEMORY_MAX_PATH 1024u  /* bytes in a whole path */
#define MF_MEMORY_MAX_NAME 255u   /* bytes in one name between slashes */
#define MF_MEMORY_MAX_DEPTH 32u   /* names below /memories */

/* Why a path is refused (see src/memory_path.c for the rules). */
typedef enum mf_path_problem {
    MF_PATH_OK = 0,
    MF_PATH_EMPTY = 1,          /* "" */
    MF_PATH_OUTSIDE_ROOT = 2,   /* not /memories nor under /memories/ */
    MF_PATH_TOO_LONG = 3,       /* over MF_MEMORY_MAX_PATH bytes */
    MF_PATH_NAME_TOO_LONG = 4,  /* a name over MF_MEMORY_MAX_NAME bytes */
    MF_PATH_TOO_DEEP = 5,       /* more than MF_MEMORY_MAX_DEPTH names */
    MF_PATH_EMPTY_NAME = 6,     /* "//" */
    MF_PATH_DOT_NAME = 7,       /* ".", "..", "..." */
    MF_PATH_ENCODED = 8,        /* a percent escape such as %2e, %2f, %5c, %25 */
    MF_PATH_BACKSLASH = 9,
    MF_PATH_CONTROL = 10,       /* control or invisible format characters, NUL included */
    MF_PATH_BAD_UTF8 = 11,      /* invalid UTF-8, or U+FFFD */
    MF_PATH_RESERVED = 12,      /* : * ? " < > | */
    MF_PATH_LOOKALIKE = 13,     /* characters that fold to . / \ or % (fullwidth, leaders) */
    MF_PATH_EDGE = 14           /* a name that begins or ends with a space or ends with a dot */
} mf_path_problem;

/* Checks a memory path. On MF_PATH_OK, *key_len (when given) receives the length of
 * the path the store uses: `path` without its one trailing slash, if any. Nothing is
 * decoded or resolved, so the key is always a prefix of `path`. */
mf_path_problem mf_memory_check_path(const char *path, size_t len, size_t *key_len);
/* A static English reason ("backslashes are not allowed"). */
const char *mf_path_problem_text(mf_path_problem problem);

typedef struct mf_memory_limits {
    uint64_t max_file_bytes;  /* a file's UTF-8 size after create/str_replace/insert (1 MiB) */
    uint64_t max_files;       /* files create may bring the store to (1000) */
    uint64_t max_view_bytes;  /* numbered lines or listing lines in one view (32 KiB, at least 256) */
} mf_memory_limits;

/* Fills the defaults above. */
void mf_memory_limits_init(mf_memory_limits *limits);

/* A borrowed string (not NUL-terminated). */
typedef struct mf_memory_str {
    const char *ptr;
    size_t len;
} mf_memory_str;

typedef enum mf_memory_op_kind {
    MF_MEMORY_PUT = 1,     /* store `text` at `path` */
    MF_MEMORY_DELETE = 2,  /* remove the file at `path` */
    MF_MEMORY_RENAME = 3   /* move the file at `path` to `to` (never over an existing one) */
} mf_memory_op_kind;

typedef struct mf_memory_op {
    mf_memory_op_kind kind;
    mf_memory_str path;
    mf_memory_str text;    /* PUT: the file's full new text */
    mf_memory_str to;      /* RENAME: the new path */
} mf_memory_op;

typedef struct mf_memory_step {
    int done;                  /* 1: the fields below "done" hold the outcome; 0: store data is needed */
    mf_memory_str *locks;      /* the paths the command reads or writes (":files" for create): */
    size_t lock_count;         /*   commands whose locks overlap must run one after the other */
    mf_memory_str *get;        /* needed: the text of each path, or null when it is no file */
    size_t get_count;
    mf_memory_str *list;       /* needed: every path in the store that starts with each prefix */
    size_t list_count;
    mf_memory_str *size;       /* needed: the UTF-8 byte size of each path */
    size_t size_count;
    /* done */
    const char *content;       /* the tool result text, NUL-terminated */
    size_t content_len;
    int is_error;
    mf_memory_op *ops;         /* store changes, to make in order (none on error) */
    size_t op_count;
} mf_memory_step;

/* Runs one step of the command in `request` (shape above). On success *out receives a
 * step to release with mf_memory_step_free; its strings are borrowed from the step and
 * from `request`, so keep the request until the step is freed. `limits` may be NULL for
 * the defaults. Fails only with MF_ERR_INVALID_ARG (NULL pointers, a request that is not
 * an object) or MF_ERR_NOMEM. */
mf_status mf_memory_run(const mf_doc *request, const mf_memory_limits *limits, mf_memory_step **out,
                        mf_error *err);
void mf_memory_step_free(mf_memory_step *step);

#ifdef __cplusplus
}
#endif
#endif /* MIDFOLD_MEMORY_API_H */
