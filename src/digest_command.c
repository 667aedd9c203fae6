/* digest_command.c — what a tool call did to files, and the command a shell call runs
 * (digest_command.h). A shell command is read as a shell reads it, roughly: steps split at
 * `&&`, `||`, `;`, `|` and line breaks, words at blanks, quotes kept together, here-documents
 * skipped (or read, when they feed apply_patch), redirections taken as writes. Only the verbs
 * whose effect is plain are read (cat, sed, rm, mv, touch, cp, tee, Get-Content,
 * Remove-Item, Move-Item, git rm / git mv); any other command names no file. */
#include "digest_command.h"

#include <string.h>

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }

static bool word_is(mf_span w, const char *s)
{
    size_t n = strlen(s);
    if (w.n != n) return false;
    for (size_t i = 0; i < n; i++) if (lower(w.s[i]) != s[i]) return false;
    return true;
}

static bool word_in(mf_span w, const char *const *list)
{
    for (int k = 0; list[k]; k++) if (word_is(w, list[k])) return true;
    return false;
}

/* ---- tools ---------------------------------------------------------------------------- */

unsigned mf_tool_file_op(mf_span name)
{
    static const struct { const char *word; unsigned op; } WORDS[] = {
        {"grep", 0}, {"glob", 0}, {"search", 0}, {"find", 0}, {"list", 0}, {"todo", 0}, {"notebookread", MF_FILE_READ},
        {"delete", MF_FILE_DELETED}, {"remove", MF_FILE_DELETED}, {"move", MF_FILE_MOVED}, {"rename", MF_FILE_MOVED},
        {"edit", MF_FILE_EDITED}, {"replace", MF_FILE_EDITED}, {"patch", MF_FILE_EDITED}, {"insert", MF_FILE_EDITED},
        {"update", MF_FILE_EDITED}, {"modify", MF_FILE_EDITED}, {"write", MF_FILE_CREATED}, {"create", MF_FILE_CREATED},
        {"read", MF_FILE_READ}, {"view", MF_FILE_READ}, {"open", MF_FILE_READ}, {"cat", MF_FILE_READ},
    };
    for (size_t k = 0; k < sizeof WORDS / sizeof *WORDS; k++)
        if (mf_span_has(name, WORDS[k].word)) return WORDS[k].op;
    return 0;
}

unsigned mf_editor_command_op(mf_span command)
{
    if (word_is(command, "view")) return MF_FILE_READ;
    if (word_is(command, "create")) return MF_FILE_CREATED;
    if (word_is(command, "str_replace") || word_is(command, "insert") || word_is(command, "undo_edit")) return MF_FILE_EDITED;
    return 0;
}

/* ---- shell words ------------------------------------------------------------------------ */

typedef struct shell {
    mf_span s;
    size_t i;
} shell;

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The next step of the command from sh->i: [start, end) and what ended it ('&' for &&, '|'
 * for | and ||, ';', '\n', or 0 at the end). Quotes are stepped over whole. */
static bool next_step(shell *sh, mf_span *step, char *sep)
{
    mf_span s = sh->s;
    while (sh->i < s.n && (blank(s.s[sh->i]) || s.s[sh->i] == '\n')) sh->i++;
    if (sh->i >= s.n) return false;
    size_t start = sh->i, i = start;
    char quote = 0;
    *sep = 0;
    for (; i < s.n; i++) {
        char c = s.s[i];
        if (quote) { if (c == quote) quote = 0; continue; }
        if (c == '\'' || c == '"') { quote = c; continue; }
        if (c == '\n' || c == ';') { *sep = c; break; }
        if (c == '&' && i + 1 < s.n && s.s[i + 1] == '&') { *sep = '&'; break; }
        if (c == '|') { *sep = '|'; break; }
    }
    *step = mf_span_trim((mf_span){s.s + start, i - start});
    sh->i = i + (*sep == '&' || (*sep == '|' && i + 1 < s.n && s.s[i + 1] == '|') ? 2 : *sep ? 1 : 0);
    return true;
}

/* The next word of a step from *at, quotes removed when they wrap it whole. */
static bool next_word(mf_span step, size_t *at, mf_span *word)
{
    size_t i = *at;
    while (i < step.n && blank(step.s[i])) i++;
    if (i >= step.n) return false;
    size_t start = i;
    char quote = 0;
    for (; i < step.n; i++) {
        char c = step.s[i];
        if (quote) { if (c == quote) quote = 0; continue; }
        if (c == '\'' || c == '"') { quote = c; continue; }
        if (blank(c)) break;
    }
    *at = i;
    mf_span w = {step.s + start, i - start};
    if (w.n >= 2 && (w.s[0] == '\'' || w.s[0] == '"') && w.s[w.n - 1] == w.s[0]) w = (mf_span){w.s + 1, w.n - 2};
    *word = w;
    return true;
}

/* The command word of a step: past `VAR=x` assignments and sudo / time / nice / command. */
static mf_span verb_of(mf_span step, size_t *at)
{
    static const char *const PREFIXES[] = {"sudo", "time", "nice", "command", "exec", "env", NULL};
    mf_span w = {0};
    while (next_word(step, at, &w)) {
        if (memchr(w.s, '=', w.n) && w.s[0] != '-' && w.s[0] != '=') continue;
        if (word_in(w, PREFIXES)) continue;
        return w;
    }
    return (mf_span){0};
}

static const char *const AROUND[] = {"cd", "sleep", "export", "set", "source", ".", "pushd", "popd", "true", "set-location", NULL};
static const char *const TRIMMERS[] = {"tail", "head", "tee", "cat", "less", "more", "select-object", "out-string", "sort", "uniq", "wc", NULL};
static const char *const READERS[] = {"cat", "head", "tail", "less", "more", "nl", "wc", "bat", "type", "get-content", "gc",
                                      "sed", "awk", "jq", "ls", "dir", "tree", "get-childitem", "gci", "pwd", "echo", "printf",
                                      "stat", "file", "du", "diff", "git", NULL};
static const char *const FILE_READERS[] = {"cat", "head", "tail", "less", "more", "nl", "wc", "bat", "type", "get-content", "gc",
                                           "sed", "awk", "jq", "diff", NULL};
static const char *const SEARCHERS[] = {"rg", "grep", "egrep", "ag", "ack", "select-string", "findstr", "find", "fd", NULL};

/* A shell wrapper's script: `bash -lc 'cargo test'` → cargo test. */
static mf_span unwrap(mf_span command)
{
    static const char *const SHELLS[] = {"bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh", "pwsh", "powershell", "powershell.exe", "cmd", NULL};
    static const char *const FLAGS[] = {"-c", "-lc", "-ic", "-command", "/c", NULL};
    for (int depth = 0; depth < 3; depth++) {
        size_t at = 0;
        mf_span shell_word, flag, rest;
        if (!next_word(command, &at, &shell_word) || !word_in(shell_word, SHELLS)) break;
        if (!next_word(command, &at, &flag) || !word_in(flag, FLAGS)) break;
        if (!next_word(command, &at, &rest)) break;
        command = mf_span_trim(rest);
    }
    return command;
}

mf_span mf_command_key(mf_span command)
{
    command = unwrap(mf_span_trim(command));
    shell sh = {command, 0};
    mf_span step;
    char sep, before = 0;
    const char *from = NULL, *to = NULL;
    while (next_step(&sh, &step, &sep)) {
        size_t at = 0;
        mf_span verb = verb_of(step, &at);
        bool around = word_in(verb, AROUND) || (before == '|' && word_in(verb, TRIMMERS));
        if (!around && step.n) {
            if (!from) from = step.s;
            to = step.s + step.n;
        }
        before = sep;
        if (sep == '\n') break; /* a script's first line says what it runs */
    }
    if (!from) return command;
    mf_span key = {from, (size_t)(to - from)};
    static const char *const TAILS[] = {" 2>&1", " 2>/dev/null", " >/dev/null", NULL};
    for (bool cut = true; cut;) {
        cut = false;
        for (int k = 0; TAILS[k]; k++) {
            size_t n = strlen(TAILS[k]);
            if (key.n > n && memcmp(key.s + key.n - n, TAILS[k], n) == 0) { key.n -= n; cut = true; }
        }
        key = mf_span_trim(key);
    }
    return key;
}

int mf_command_reads(mf_span command)
{
    mf_span key = mf_command_key(command);
    size_t at = 0;
    mf_span verb = verb_of(key, &at);
    if (word_in(verb, SEARCHERS)) return 2;
    if (!word_in(verb, READERS)) return 0;
    if (word_is(verb, "sed")) { /* sed -i edits; sed -n prints */
        mf_span w;
        while (next_word(key, &at, &w)) if (w.n >= 2 && w.s[0] == '-' && memchr(w.s, 'i', w.n)) return 0;
    }
    if (word_is(verb, "git")) { /* git diff / log / show / status print what is there */
        static const char *const LOOK[] = {"diff", "log", "show", "status", "blame", "ls-files", "grep", NULL};
        mf_span sub;
        return next_word(key, &at, &sub) && word_in(sub, LOOK) ? 1 : 0;
    }
    return 1;
}

/* ---- files of a shell command --------------------------------------------------------------- */

/* A word that names a file: a path with '/' or '\', or a name with an extension; never a flag,
 * a URL, a glob, a variable, a number or a redirection. */
static bool names_file(mf_span w)
{
    if (w.n < 3 || w.n > 200 || w.s[0] == '-' || w.s[0] == '$' || w.s[0] == '@' || w.s[0] == '<' || w.s[0] == '>') return false;
    bool sep = false, letter = false;
    size_t dot = SIZE_MAX;
    for (size_t i = 0; i < w.n; i++) {
        char c = w.s[i];
        if (strchr("*?[]{}$`'\"|<>()=,:", c) && !(c == ':' && i == 1)) return false; /* C:\… keeps its colon */
        if (c == '/' || c == '\\') sep = true;
        if (c == '.' && i > 0) dot = i;
        letter |= (c | 32) >= 'a' && (c | 32) <= 'z';
    }
    if (!letter || mf_span_has(w, "://")) return false;
    if (sep) return !(w.n == 1);
    return dot != SIZE_MAX && dot + 1 < w.n && w.n - dot - 1 <= 8;
}

/* The here-document a step opens ("<<'EOF'", "<<-EOF"): its delimiter, or an empty span. */
static mf_span heredoc(mf_span step)
{
    size_t at = mf_span_find(step, MF_SPAN("<<"));
    if (at == SIZE_MAX) return (mf_span){0};
    size_t i = at + 2;
    if (i < step.n && step.s[i] == '-') i++;
    while (i < step.n && blank(step.s[i])) i++;
    size_t k = i;
    while (k < step.n && !blank(step.s[k])) k++;
    mf_span d = {step.s + i, k - i};
    if (d.n >= 2 && (d.s[0] == '\'' || d.s[0] == '"') && d.s[d.n - 1] == d.s[0]) d = (mf_span){d.s + 1, d.n - 2};
    return d;
}

/* The lines of a here-document from sh->i up to its delimiter, which it steps past. */
static mf_span heredoc_body(shell *sh, mf_span delim)
{
    mf_span s = sh->s;
    while (sh->i < s.n && s.s[sh->i] != '\n') sh->i++; /* the rest of the opening line */
    size_t start = sh->i < s.n ? sh->i + 1 : s.n, at = start;
    mf_span line;
    while (mf_next_line(s, &at, &line)) {
        if (mf_span_eq(mf_span_trim(line), delim)) {
            sh->i = at;
            return (mf_span){s.s + start, (size_t)(line.s - (s.s + start))};
        }
    }
    sh->i = s.n;
    return (mf_span){s.s + start, s.n - start};
}

static void step_files(mf_span step, mf_file_sink sink, void *ctx)
{
    static const char *const DELETERS[] = {"rm", "del", "erase", "unlink", "remove-item", "ri", NULL};
    static const char *const MOVERS[] = {"mv", "move", "move-item", "rename-item", "ren", NULL};
    static const char *const CREATORS[] = {"touch", "new-item", "ni", NULL};
    static const char *const COPIERS[] = {"cp", "copy", "copy-item", NULL};
    size_t at = 0;
    mf_span verb = verb_of(step, &at);
    if (!verb.n) return;
    unsigned op = 0;
    if (word_is(verb, "git")) {
        mf_span sub;
        if (!next_word(step, &at, &sub)) return;
        verb = sub;
        if (!word_is(sub, "rm") && !word_is(sub, "mv")) return;
    }
    if (word_in(verb, DELETERS)) op = MF_FILE_DELETED;
    else if (word_in(verb, MOVERS) || word_in(verb, COPIERS)) op = MF_FILE_MOVED;
    else if (word_in(verb, CREATORS)) op = MF_FILE_CREATED;
    else if (word_is(verb, "tee")) op = MF_FILE_CREATED;
    else if (word_in(verb, FILE_READERS) || word_in(verb, SEARCHERS)) op = MF_FILE_READ;
    mf_span files[8], w;
    size_t n = 0;
    bool in_place = false, redirect = false, append = false;
    /* A search's pattern is no file: the word after -e / -Pattern, else its first operand. */
    bool search = word_in(verb, SEARCHERS) && !word_is(verb, "find") && !word_is(verb, "fd"), pattern_next = false, pattern_seen = false;
    bool path_next = false;
    while (next_word(step, &at, &w)) {
        if (word_is(w, "-path") || word_is(w, "-literalpath")) { path_next = true; continue; } /* PowerShell's -Path FILE */
        if (path_next) {
            path_next = false;
            if (op && names_file(w) && n < 8) files[n++] = w;
            continue;
        }
        if (search && (pattern_next || (!pattern_seen && w.n && w.s[0] != '-'))) {
            pattern_next = false;
            pattern_seen = true;
            continue;
        }
        if (search && (word_is(w, "-e") || word_is(w, "--regexp") || word_is(w, "-pattern"))) { pattern_next = true; continue; }
        if (w.n >= 2 && w.s[0] == '-' && word_is(verb, "sed") && memchr(w.s, 'i', w.n)) in_place = true;
        if (w.n && (w.s[0] == '>' || (w.n > 1 && w.s[1] == '>' && (w.s[0] == '1' || w.s[0] == '2' || w.s[0] == '&')))) {
            /* a redirection: "> out.txt" or ">out.txt"; 2>&1 writes no file */
            size_t k = 0;
            while (k < w.n && strchr("12&>", w.s[k])) k++;
            append = w.n >= 2 && mf_span_find(w, MF_SPAN(">>")) != SIZE_MAX;
            if (k < w.n) { mf_span target = {w.s + k, w.n - k}; if (names_file(target)) sink(ctx, target, append ? MF_FILE_EDITED : MF_FILE_CREATED, (mf_span){0}); }
            else redirect = true;
            continue;
        }
        if (redirect) {
            redirect = false;
            if (names_file(w) && !word_is(w, "/dev/null")) sink(ctx, w, append ? MF_FILE_EDITED : MF_FILE_CREATED, (mf_span){0});
            continue;
        }
        if (w.n && w.s[0] == '<') break; /* input redirection or a here-document */
        if (op && names_file(w) && n < 8) files[n++] = w;
    }
    if (word_is(verb, "sed") && !in_place) op = MF_FILE_READ;
    if (word_is(verb, "sed") && in_place) op = MF_FILE_EDITED;
    if (!op || !n) return;
    if (op == MF_FILE_MOVED) { /* the last word is where the files go */
        bool copy = word_in(verb, COPIERS);
        for (size_t k = 0; k + 1 < n; k++) {
            if (copy) sink(ctx, files[n - 1], MF_FILE_CREATED, (mf_span){0});
            else sink(ctx, files[k], MF_FILE_MOVED, files[n - 1]);
        }
        return;
    }
    for (size_t k = 0; k < n; k++) sink(ctx, files[k], op, (mf_span){0});
}

void mf_command_files(mf_span command, mf_file_sink sink, void *ctx)
{
    shell sh = {unwrap(mf_span_trim(command)), 0};
    mf_span step;
    char sep;
    while (next_step(&sh, &step, &sep)) {
        mf_span delim = heredoc(step);
        if (delim.n) {
            /* next_step stopped at the line break (or earlier): the body follows it. */
            sh.i = (size_t)(step.s - sh.s.s) + step.n;
            mf_span body = heredoc_body(&sh, delim);
            size_t at = 0;
            mf_span verb = verb_of(step, &at);
            if (word_is(verb, "apply_patch") || word_is(verb, "patch") || (word_is(verb, "git") && mf_span_has(step, "apply")))
                mf_patch_files(body, sink, ctx);
            else
                step_files(step, sink, ctx); /* cat > file <<'EOF' writes the file */
            continue;
        }
        step_files(step, sink, ctx);
    }
}

/* ---- patches ------------------------------------------------------------------------------ */

void mf_patch_files(mf_span patch, mf_file_sink sink, void *ctx)
{
    size_t at = 0;
    mf_span line, updated = {0}, minus = {0};
    while (mf_next_line(patch, &at, &line)) {
        static const struct { const char *head; unsigned op; } HEADS[] = {
            {"*** Add File: ", MF_FILE_CREATED}, {"*** Update File: ", MF_FILE_EDITED}, {"*** Delete File: ", MF_FILE_DELETED}};
        bool head = false;
        for (size_t k = 0; k < 3 && !head; k++) {
            size_t n = strlen(HEADS[k].head);
            if (line.n > n && memcmp(line.s, HEADS[k].head, n) == 0) {
                mf_span path = mf_span_trim(mf_span_from(line, n));
                updated = HEADS[k].op == MF_FILE_EDITED ? path : (mf_span){0};
                /* an update may move the file: its "*** Move to:" line comes next */
                if (!(HEADS[k].op == MF_FILE_EDITED && mf_span_starts(mf_span_from(patch, at), "*** move to: ")))
                    sink(ctx, path, HEADS[k].op, (mf_span){0});
                head = true;
            }
        }
        if (head) continue;
        if (line.n > 13 && memcmp(line.s, "*** Move to: ", 13) == 0 && updated.n) {
            sink(ctx, updated, MF_FILE_MOVED, mf_span_trim(mf_span_from(line, 13)));
            updated = (mf_span){0};
        } else if (line.n > 4 && memcmp(line.s, "--- ", 4) == 0) {
            minus = mf_span_trim(mf_span_from(line, 4));
        } else if (line.n > 4 && memcmp(line.s, "+++ ", 4) == 0 && minus.n) {
            mf_span plus = mf_span_trim(mf_span_from(line, 4));
            bool from_null = mf_span_starts(minus, "/dev/null"), to_null = mf_span_starts(plus, "/dev/null");
            mf_span path = to_null ? minus : plus;
            if (path.n > 2 && (path.s[0] == 'a' || path.s[0] == 'b') && path.s[1] == '/') path = mf_span_from(path, 2);
            size_t tab = mf_span_find(path, MF_SPAN("\t"));
            if (tab != SIZE_MAX) path.n = tab;
            sink(ctx, path, to_null ? MF_FILE_DELETED : from_null ? MF_FILE_CREATED : MF_FILE_EDITED, (mf_span){0});
            minus = (mf_span){0};
        }
    }
}
