/* digest_command.h — what a tool call did, read from its name and arguments
 * (digest_command.c): the files it read, created, edited, deleted or moved (a tool's path
 * arguments, apply_patch headers, the paths of a shell command), and the command a shell call
 * runs, as the digest compares it across runs. Not installed. */
#ifndef MIDFOLD_DIGEST_COMMAND_H
#define MIDFOLD_DIGEST_COMMAND_H

#include "digest_text.h"

enum {
    MF_FILE_READ = 1, MF_FILE_CREATED = 2, MF_FILE_EDITED = 4, MF_FILE_DELETED = 8, MF_FILE_MOVED = 16
};

/* Told each file a call names, with what the call does to it (MF_FILE_*); for a move, `to`
 * is where the file goes. Spans borrow the text read; a path may use '\' (Windows). */
typedef void (*mf_file_sink)(void *ctx, mf_span path, unsigned op, mf_span to);

/* What a tool named `name` does to the files its path arguments name (MF_FILE_*), from the
 * name's words ("Read", "write_file", "MultiEdit", "delete_file"); 0 for a search or listing
 * (Grep's path is where it looks) and for a name that says nothing. */
unsigned mf_tool_file_op(mf_span name);
/* The same for an editor tool's sub-command ("view", "create", "str_replace", "insert"). */
unsigned mf_editor_command_op(mf_span command);

/* The command a shell call runs, as runs of it are compared: without the steps around it
 * (`cd DIR &&`, `sleep 5 &&`, `export X=1;`), a shell wrapper (`bash -lc '…'`), output
 * trimming (`2>&1`, `| tail -n 50`, `| Select-Object -First 20`). Borrows `command`. */
mf_span mf_command_key(mf_span command);
/* What the output of `command` is: 1 what it read or listed (cat, sed -n, nl, Get-Content,
 * git diff, ls), 2 what a search found (rg, grep, Select-String: exit status 1 with nothing
 * printed means "no match"), 0 the command's own output, whose error lines are its errors. */
int mf_command_reads(mf_span command);
/* Tells `sink` the files a shell command reads, creates, edits, deletes or moves (cat, sed -i,
 * `> file`, rm, mv, git mv, Remove-Item, a here-document to apply_patch…). */
void mf_command_files(mf_span command, mf_file_sink sink, void *ctx);
/* Tells `sink` the files an apply_patch body ("*** Add File: p", "*** Update File: p",
 * "*** Delete File: p", "*** Move to: q") or a unified diff ("--- a/p", "+++ b/p") names. */
void mf_patch_files(mf_span patch, mf_file_sink sink, void *ctx);

#endif
