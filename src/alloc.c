/* alloc.c — the one place midfold allocates, so tests can make the Nth allocation fail. */
#include "base.h"

#include <stdarg.h>
#include <stdlib.h>

#include "cJSON.h"

static mf_allocator current = {malloc, realloc, free};
/* Counts failed allocations, so that a caller can tell "cJSON ran out of memory" from
 * "the JSON is invalid" (cJSON returns NULL for both). */
static size_t failures;

static void *counted_malloc(size_t size)
{
    void *p = current.malloc_fn(size ? size : 1);
    if (!p) failures++;
    return p;
}

static void counted_free(void *p) { if (p) current.free_fn(p); }

size_t mf_alloc_failures(void) { return failures; }

void mf_set_allocator(const mf_allocator *allocator)
{
    if (allocator && allocator->malloc_fn && allocator->realloc_fn && allocator->free_fn)
        current = *allocator;
    else
        current = (mf_allocator){malloc, realloc, free};
    /* cJSON allocates through its own global hooks: keep them on the same allocator. */
    cJSON_Hooks hooks = {counted_malloc, counted_free};
    cJSON_InitHooks(&hooks);
}

void *mf_alloc(size_t size) { return counted_malloc(size); }

void *mf_realloc(void *ptr, size_t size)
{
    void *p = current.realloc_fn(ptr, size ? size : 1);
    if (!p) failures++;
    return p;
}

void mf_dealloc(void *ptr) { if (ptr) current.free_fn(ptr); }
void mf_free(void *ptr) { mf_dealloc(ptr); }

const char *mf_strerror(mf_status status)
{
    switch (status) {
    case MF_OK: return "ok";
    case MF_ERR_NOMEM: return "out of memory";
    case MF_ERR_PARSE: return "invalid JSON";
    case MF_ERR_INVALID_ARG: return "invalid argument";
    case MF_ERR_SHAPE: return "not a conversation";
    case MF_ERR_DEPTH: return "nesting too deep";
    case MF_ERR_TOO_LARGE: return "input too large";
    case MF_ERR_FORMAT: return "unknown or mixed message format";
    }
    return "unknown status";
}

/* A tiny formatter for error messages: %s, %.*s, %zu and %%. midfold avoids printf so
 * that the wasm module carries no libc formatting code. Output is truncated to fit. */
static void format_message(char *out, size_t cap, const char *fmt, va_list ap)
{
    size_t n = 0;
#define PUT(ch) do { if (n + 1 < cap) out[n++] = (ch); } while (0)
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') { PUT(*f); continue; }
        f++;
        if (*f == 's') {
            for (const char *s = va_arg(ap, const char *); s && *s; s++) PUT(*s);
        } else if (f[0] == '.' && f[1] == '*' && f[2] == 's') {
            int len = va_arg(ap, int);
            const char *s = va_arg(ap, const char *);
            for (int i = 0; s && i < len; i++) PUT(s[i]);
            f += 2;
        } else if (f[0] == 'z' && f[1] == 'u') {
            size_t v = va_arg(ap, size_t);
            char digits[24];
            int k = 0;
            do { digits[k++] = (char)('0' + v % 10); v /= 10; } while (v);
            while (k) PUT(digits[--k]);
            f++;
        } else if (*f == '%') {
            PUT('%');
        } else {
            break; /* an unsupported directive: stop rather than misread the arguments */
        }
    }
#undef PUT
    out[n < cap ? n : cap - 1] = 0;
}

mf_status mf_fail(mf_error *err, mf_status code, size_t position, const char *fmt, ...)
{
    if (err) {
        err->code = code;
        err->position = position;
        va_list ap;
        va_start(ap, fmt);
        format_message(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}
