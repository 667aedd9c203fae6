/* seedgen.c — builds the seed corpora from JSON conversations (the test fixtures and
 * tests/fuzz/seeds/):
 *
 *   seedgen OUTDIR FILE.json...
 *
 * writes, for each file, OUTDIR/json/NAME (the text), OUTDIR/tree/NAME (its tree
 * encoding), OUTDIR/text/NAME.K (pieces of the text, as raw bytes) and, for the document
 * targets, the document behind a flag byte and option bytes (common.h), in both
 * encodings and with a few option sets that reach the rarer paths (keep nothing,
 * tiny tail budgets, transcript caps, Chinese, instructions). Each document seed is
 * written under AUTO and, when the file is named NAME.FORMAT.json with FORMAT a name
 * mf_format_parse knows ("anthropic", "openai-responses", "ai-sdk-ui", ...), under that
 * explicit format too (suffix ".fN"): a new adapter's fixtures seed its format.
 *
 *   seedgen --memory OUTDIR hostile-paths.json
 *
 * writes OUTDIR/memory/hostile-K: a view and a create of each path the memory tool's
 * path tests list (tests/fixtures/memory/hostile-paths.json), over a small store. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"

static void die(const char *what, const char *path)
{
    fprintf(stderr, "seedgen: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

static void write_file(const char *dir, const char *sub, const char *name, const char *suffix, const void *head,
                       size_t head_len, const void *body, size_t body_len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/%s/%s%s", dir, sub, name, suffix);
    FILE *f = fopen(path, "wb");
    if (!f) die("cannot write", path);
    if ((head_len && fwrite(head, 1, head_len, f) != head_len) || (body_len && fwrite(body, 1, body_len, f) != body_len))
        die("cannot write", path);
    fclose(f);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot read", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) die("cannot read", path);
    fclose(f);
    *len = (size_t)n;
    return data;
}

static int memory_seeds(const char *out, const char *path)
{
    size_t n;
    char *json = read_all(path, &n);
    /* midfold's JSON reader refuses escaped NULs and unpaired surrogates, which this file
     * holds on purpose: U+0001 and U+FFFD stand in for them (refused by the check too). */
    for (char *at = json; (at = strstr(at, "\\u")) != NULL; at += 2) {
        if (strncmp(at + 2, "0000", 4) == 0) at[5] = '1';
        else if ((at[2] == 'd' || at[2] == 'D') && strchr("89abcdefABCDEF", at[3]) && at[3]) memcpy(at + 2, "fffd", 4);
    }
    mf_doc *doc = NULL;
    mf_error err;
    if (mf_doc_parse_json(json, n, &doc, &err)) { fprintf(stderr, "seedgen: %s: %s\n", path, err.message); return 1; }
    const mf_node *paths = mf_get(doc->root, "paths");
    for (uint32_t i = 0; paths && paths->kind == MF_ARRAY && i < paths->count; i++) {
        const mf_node *p = mf_get_str(&paths->items[i], "path");
        if (!p) continue;
        for (int create = 0; create < 2; create++) {
            mf_buf b;
            mf_buf_init(&b);
            mf_buf_puts(&b, create ? "{\"input\": {\"command\": \"create\", \"file_text\": \"x\", \"path\": "
                                   : "{\"input\": {\"command\": \"view\", \"path\": ");
            mf_buf_put_json_string(&b, p->str, p->len);
            mf_buf_puts(&b, "}, \"store\": {\"/memories/a.md\": \"one\\ntwo\", \"/etc/passwd\": \"root\"}}");
            char name[64];
            snprintf(name, sizeof name, "hostile-%u-%s", i, create ? "create" : "view");
            write_file(out, "memory", name, "", NULL, 0, b.data, b.len);
            mf_buf_free(&b);
        }
    }
    mf_doc_free(doc);
    free(json);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--memory") == 0) {
        mkdir(argv[2], 0777);
        return memory_seeds(argv[2], argv[3]);
    }
    if (argc < 3) { fprintf(stderr, "usage: seedgen OUTDIR FILE.json... | seedgen --memory OUTDIR hostile-paths.json\n"); return 2; }
    const char *out = argv[1];
    mkdir(out, 0777);
    static const uint8_t MICRO[][FUZZ_MICRO_OPTION_BYTES] = {{3, 0, 0, 0}, {0, 0, 0, 0}, {1, 1, 4, 0}, {6, 0, 0, 40}, {39, 0, 0, 0}};
    static const uint8_t COMPACT[][FUZZ_COMPACT_OPTION_BYTES] = {
        {70, 250, 125, 0, 0, 250}, {16, 0, 125, 0, 1, 40}, {3, 40, 60, 2, 2, 10}, {0, 12, 10, 3, 0, 1}, {16, 0, 125, 25, 0, 40}};
    for (int i = 2; i < argc; i++) {
        const char *path = argv[i];
        size_t n;
        char *json = read_all(path, &n);
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        char name[512];
        snprintf(name, sizeof name, "%s", base);
        char *dot = strstr(name, ".json");
        if (dot) *dot = 0;
        /* The format the file's name says (NAME.FORMAT), AUTO when it names none. */
        mf_format named = MF_FORMAT_AUTO;
        const char *fdot = strrchr(name, '.');
        if (fdot && mf_format_parse(fdot + 1, strlen(fdot + 1), &named) != MF_OK) named = MF_FORMAT_AUTO;

        mf_doc *doc = NULL;
        mf_error err;
        if (mf_doc_parse_json(json, n, &doc, &err)) {
            fprintf(stderr, "seedgen: %s: %s\n", path, err.message);
            return 1;
        }
        mf_buf tree;
        mf_buf_init(&tree);
        fuzz_encode_tree(&tree, doc->root);
        if (tree.failed) return 1;

        write_file(out, "json", name, "", NULL, 0, json, n);
        write_file(out, "tree", name, "", NULL, 0, tree.data, tree.len);
        /* Raw text: pieces of up to 1 KB cut at arbitrary bytes (so some end inside a
         * multi-byte sequence), the first four of each file. */
        for (size_t at = 0, k = 0; at < n && k < 4; at += 1024, k++) {
            char s[32];
            snprintf(s, sizeof s, ".%zu", k);
            size_t piece = n - at < 1024 ? n - at : 1024;
            write_file(out, "text", name, s, NULL, 0, json + at + (k ? 7 : 0), piece - (k ? 7 : 0));
        }
        for (int run = 0; run < 4; run++) {
            int enc = run & 1;
            mf_format fmt = run < 2 ? MF_FORMAT_AUTO : named;
            if (run >= 2 && named == MF_FORMAT_AUTO) break;
            const void *body = enc ? (const void *)tree.data : (const void *)json;
            size_t body_len = enc ? tree.len : n;
            uint8_t head[1 + 8];
            head[0] = (uint8_t)((enc ? FUZZ_FLAG_TREE : 0) | ((unsigned)fmt & FUZZ_FORMAT_MASK));
            char sfx[16];
            snprintf(sfx, sizeof sfx, "%s%s", enc ? ".tree" : ".json", run < 2 ? "" : ".f");
            if (run >= 2) snprintf(sfx + strlen(sfx), sizeof sfx - strlen(sfx), "%d", (int)fmt);
            write_file(out, "serialize", name, sfx, head, 1, body, body_len);
            write_file(out, "validate", name, sfx, head, 1, body, body_len);
            for (size_t k = 0; k < sizeof MICRO / sizeof *MICRO; k++) {
                char s[32];
                snprintf(s, sizeof s, "%s.%zu", sfx, k);
                memcpy(head + 1, MICRO[k], FUZZ_MICRO_OPTION_BYTES);
                write_file(out, "micro", name, s, head, 1 + FUZZ_MICRO_OPTION_BYTES, body, body_len);
            }
            for (size_t k = 0; k < sizeof COMPACT / sizeof *COMPACT; k++) {
                char s[32];
                snprintf(s, sizeof s, "%s.%zu", sfx, k);
                memcpy(head + 1, COMPACT[k], FUZZ_COMPACT_OPTION_BYTES);
                write_file(out, "compact", name, s, head, 1 + FUZZ_COMPACT_OPTION_BYTES, body, body_len);
            }
        }
        mf_buf_free(&tree);
        mf_doc_free(doc);
        free(json);
    }
    return 0;
}
