/* test_digest_calls.c — what the digest reads of a call and of the user's turn
 * (src/digest_command.c, src/harness.c): the files a tool's name and arguments, an apply_patch
 * body or a shell command touch, the command runs are compared by, and the harness's text told
 * from the user's, on the shapes Claude Code and Codex CLI really write. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "digest_command.h"
#include "harness.h"
#include "suites.h"

static mf_span span_of(const char *s) { return (mf_span){s, strlen(s)}; }
static bool span_is(mf_span s, const char *text) { return s.n == strlen(text) && memcmp(s.s, text, s.n) == 0; }

typedef struct seen {
    char text[512];          /* "op path[>to];" for each file told */
} seen;

static void record(void *ctx, mf_span path, unsigned op, mf_span to)
{
    seen *s = ctx;
    size_t n = strlen(s->text);
    const char *word = op == MF_FILE_READ ? "read" : op == MF_FILE_CREATED ? "created" : op == MF_FILE_EDITED ? "edited"
                     : op == MF_FILE_DELETED ? "deleted" : "moved";
    n += (size_t)snprintf(s->text + n, sizeof s->text - n, "%s %.*s", word, (int)path.n, path.s);
    if (to.n) n += (size_t)snprintf(s->text + n, sizeof s->text - n, ">%.*s", (int)to.n, to.s);
    snprintf(s->text + n, sizeof s->text - n, ";");
}

static const char *files_of(const char *command)
{
    static seen s;
    s.text[0] = 0;
    mf_command_files(span_of(command), record, &s);
    return s.text;
}

static const char *patch_files(const char *patch)
{
    static seen s;
    s.text[0] = 0;
    mf_patch_files(span_of(patch), record, &s);
    return s.text;
}

static void tools(void)
{
    CHECK("Claude Code's Read reads", mf_tool_file_op(span_of("Read")) == MF_FILE_READ);
    CHECK("Write creates (a rewrite of a known file is an edit, decided by the reader)", mf_tool_file_op(span_of("Write")) == MF_FILE_CREATED);
    CHECK("Edit, MultiEdit and edit_file edit", mf_tool_file_op(span_of("Edit")) == MF_FILE_EDITED &&
          mf_tool_file_op(span_of("MultiEdit")) == MF_FILE_EDITED && mf_tool_file_op(span_of("edit_file")) == MF_FILE_EDITED);
    CHECK("delete_file deletes", mf_tool_file_op(span_of("delete_file")) == MF_FILE_DELETED);
    CHECK("Grep's and Glob's paths are where they look, not files they touch",
          mf_tool_file_op(span_of("Grep")) == 0 && mf_tool_file_op(span_of("Glob")) == 0);
    CHECK("TodoWrite writes no file", mf_tool_file_op(span_of("TodoWrite")) == 0);
    CHECK("the text editor's sub-commands", mf_editor_command_op(span_of("view")) == MF_FILE_READ &&
          mf_editor_command_op(span_of("create")) == MF_FILE_CREATED && mf_editor_command_op(span_of("str_replace")) == MF_FILE_EDITED &&
          mf_editor_command_op(span_of("npm test")) == 0);
}

static void patches(void)
{
    const char *p = "*** Begin Patch\n*** Add File: tests/import_bom.rs\n+#[test]\n*** Update File: src/import.rs\n@@ fn x\n-a\n+b\n"
                    "*** Delete File: src/split.rs\n*** Update File: src/utils/retry.ts\n*** Move to: src/net/retry.ts\n@@\n a\n*** End Patch\n";
    CHECK_EQ_STR("apply_patch headers: added, updated, deleted, moved", patch_files(p),
                 "created tests/import_bom.rs;edited src/import.rs;deleted src/split.rs;moved src/utils/retry.ts>src/net/retry.ts;");
    const char *diff = "diff --git a/src/a.c b/src/a.c\n--- a/src/a.c\n+++ b/src/a.c\n@@ -1 +1 @@\n-x\n+y\n"
                       "--- /dev/null\n+++ b/src/new.c\n@@ -0,0 +1 @@\n+z\n--- a/old.txt\n+++ /dev/null\n";
    CHECK_EQ_STR("a unified diff: edited, created from /dev/null, deleted to it", patch_files(diff),
                 "edited src/a.c;created src/new.c;deleted old.txt;");
}

static void commands(void)
{
    CHECK("`sleep 3 && npm run db:migrate` runs npm run db:migrate", span_is(mf_command_key(span_of("sleep 3 && npm run db:migrate")), "npm run db:migrate"));
    CHECK("`cd /repo && cargo build` runs cargo build", span_is(mf_command_key(span_of("cd /repo && cargo build")), "cargo build"));
    CHECK("output trimming is no part of the command", span_is(mf_command_key(span_of("npm test 2>&1 | tail -120")), "npm test"));
    CHECK("a shell wrapper's script is the command", span_is(mf_command_key(span_of("bash -lc 'cargo test --release'")), "cargo test --release"));
    CHECK("a chain of real steps stays whole", span_is(mf_command_key(span_of("cargo build --release && ls -l target/release/tally")),
                                                       "cargo build --release && ls -l target/release/tally"));
    CHECK("sed -n, nl, cat and Get-Content print what they read", mf_command_reads(span_of("sed -n '1,80p' src/import.rs")) == 1 &&
          mf_command_reads(span_of("nl -ba src/a.rs | sed -n '1,9p'")) == 1 &&
          mf_command_reads(span_of("Get-Content -Path src\\api\\client.ts")) == 1 && mf_command_reads(span_of("git diff --stat")) == 1);
    CHECK("rg, grep and Select-String search", mf_command_reads(span_of("rg -n \"Ledger\" src")) == 2 &&
          mf_command_reads(span_of("Select-String -Path src\\* -Pattern x")) == 2);
    CHECK("a build, a test run and sed -i print their own output", mf_command_reads(span_of("cargo build")) == 0 &&
          mf_command_reads(span_of("npm test")) == 0 && mf_command_reads(span_of("sed -i 's/a/b/' x.txt")) == 0);

    CHECK_EQ_STR("sed -n and cat read", files_of("sed -n '1,80p' src/import.rs && cat README.md"), "read src/import.rs;read README.md;");
    CHECK_EQ_STR("rm deletes, git rm too; git status names nothing", files_of("rm src/mock/orders.json && git rm -q old.txt && git status --short"),
                 "deleted src/mock/orders.json;deleted old.txt;");
    CHECK_EQ_STR("mv and git mv move", files_of("git mv src/utils/Date.ts src/utils/date.ts"), "moved src/utils/Date.ts>src/utils/date.ts;");
    CHECK_EQ_STR("a redirection writes its file, >> appends, 2>&1 writes none",
                 files_of("printf 'a' > /tmp/bom.csv && echo b >> notes/log.md 2>&1"), "created /tmp/bom.csv;edited notes/log.md;");
    CHECK_EQ_STR("sed -i edits", files_of("sed -i 's/free: 100/free: 60/' src/middleware/rateLimit.ts"), "edited src/middleware/rateLimit.ts;");
    CHECK_EQ_STR("a search's pattern is no file, its paths are read", files_of("rg -n \"navigator.onLine\" src/store/notes.ts"), "read src/store/notes.ts;");
    CHECK_EQ_STR("PowerShell: Get-Content -Path reads, Remove-Item deletes, Windows separators kept for the reader",
                 files_of("Get-Content -Path src\\api\\client.ts; Remove-Item src\\legacy\\sw-cache.js"),
                 "read src\\api\\client.ts;deleted src\\legacy\\sw-cache.js;");
    CHECK_EQ_STR("a here-document fed to apply_patch is read as a patch, its lines never as commands",
                 files_of("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/a.py\n@@\n-rm -rf /\n+x = 1\n*** End Patch\nEOF\ncat src/b.py"),
                 "edited src/a.py;read src/b.py;");
    CHECK_EQ_STR("cat > file <<EOF writes the file", files_of("cat > config/app.yaml <<'EOF'\nport: 8080\nEOF"), "created config/app.yaml;");
    CHECK_EQ_STR("builds, tests and URLs name no file", files_of("npm test -- tests/a.test.ts && curl https://example.com/x.json"), "");
    CHECK_EQ_STR("unbalanced quotes and a lone operator end without harm", files_of("cat 'a.txt && rm \"b.txt | ; &&"), "");
}

static mf_user_text kind_of(const char *text, mf_span *own)
{
    return mf_user_text_kind(text, strlen(text), &own->s, &own->n);
}

static void harness(void)
{
    mf_span own;
    CHECK("Codex's <environment_context> is the harness's", kind_of("<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n</environment_context>", &own) == MF_USER_HARNESS);
    CHECK("Codex's <turn_aborted>", kind_of("<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>", &own) == MF_USER_HARNESS);
    CHECK("Codex's AGENTS.md", kind_of("# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\n## Build (yet: 3)\n</INSTRUCTIONS>", &own) == MF_USER_HARNESS);
    CHECK("Claude Code's interruption line", kind_of("[Request interrupted by user for tool use]", &own) == MF_USER_HARNESS);
    CHECK("Claude Code's slash command and its output", kind_of("<command-name>/cost</command-name>\n  <command-message>cost</command-message>\n  <command-args></command-args>", &own) == MF_USER_HARNESS &&
          kind_of("<local-command-stdout>Total cost: $3.41</local-command-stdout>", &own) == MF_USER_HARNESS);
    CHECK("Claude Code's caveat before local commands", kind_of("Caveat: The messages below were generated by the user while running local commands. DO NOT respond.", &own) == MF_USER_HARNESS);
    CHECK("a reminder before the user's words is stripped, the words stay",
          kind_of("<system-reminder>\nThe TodoWrite tool hasn't been used recently.\n</system-reminder>\nAlso log every 429.", &own) == MF_USER_OWN &&
          span_is(own, "Also log every 429."));
    CHECK("a task notification after the user's words is stripped",
          kind_of("run the suite again\n<task-notification>\n<task-id>b3</task-id>\n</task-notification>", &own) == MF_USER_OWN && span_is(own, "run the suite again"));
    CHECK("Codex's <skill> and a closing tag in another case", kind_of("<skill>\n<name>pdf</name>\n</skill>", &own) == MF_USER_HARNESS &&
          kind_of("<SUBAGENT_NOTIFICATION>{\"id\":1}</subagent_notification>", &own) == MF_USER_HARNESS);
    CHECK("HTML the user pastes is the user's", kind_of("<b>bold</b> is shown as text, why?", &own) == MF_USER_OWN);
    CHECK("an envelope without its closing tag is the user's", kind_of("<system-reminder> is a tag we use", &own) == MF_USER_OWN);
    CHECK("Claude Code's summary after /compact: its body, without the framing",
          kind_of("This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n"
                  "1. Primary Request: server-side paging.\n\nPlease continue the conversation from where we left it off without asking the user any further questions.", &own) == MF_USER_SUMMARY &&
          span_is(own, "1. Primary Request: server-side paging."));
    CHECK("Codex's compaction summary", kind_of("Another language model started to solve this problem and produced a summary of its thinking process. …:\n- Done: extract.py", &own) == MF_USER_SUMMARY &&
          span_is(own, "- Done: extract.py"));
    CHECK("midfold's own summary", kind_of(MF_SUMMARY_MARK "\nEarlier: the ledger export.", &own) == MF_USER_SUMMARY && span_is(own, "Earlier: the ledger export."));
    CHECK("plain words are the user's, trimmed", kind_of("  继续  ", &own) == MF_USER_OWN && span_is(own, "继续"));
    CHECK("an empty turn is nobody's", kind_of("", &own) == MF_USER_HARNESS && mf_user_text_kind(NULL, 0, NULL, NULL) == MF_USER_HARNESS);
}

void test_digest_calls(void)
{
    tools();
    patches();
    commands();
    harness();
}
