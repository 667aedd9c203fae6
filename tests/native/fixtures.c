/* fixtures.c — the conversations of fixtures.h. Tool outputs are what the commands print. */
#include "fixtures.h"

/* DESIGN.md's example, as an Anthropic client sends it. */
const char FX_SEED_ANTHROPIC[] =
    "[\n"
    "  {\"role\": \"user\", \"content\": \"Please read the config file\"},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"toolu_01\", \"name\": \"read_file\", "
    "\"input\": {\"file_path\": \"config.toml\"}}]},\n"
    "  {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_01\", "
    "\"content\": \"1: [provider]\\n2: name = \\\"anthropic\\\"\"}]}\n"
    "]\n";

/* The same in OpenAI Chat Completions, compact as the API returns it. */
const char FX_SEED_OPENAI[] =
    "[{\"role\":\"user\",\"content\":\"Please read the config file\"},"
    "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
    "\"function\":{\"name\":\"read_file\",\"arguments\":\"{\\\"file_path\\\":\\\"config.toml\\\"}\"}}]},"
    "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"1: [provider]\\n2: name = \\\"anthropic\\\"\"}]";

/* The same as AI SDK v5 ModelMessages. */
const char FX_SEED_AISDK[] =
    "[{\"role\":\"user\",\"content\":\"Please read the config file\"},"
    "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool-call\",\"toolCallId\":\"call_1\",\"toolName\":\"read_file\","
    "\"input\":{\"file_path\":\"config.toml\"}}]},"
    "{\"role\":\"tool\",\"content\":[{\"type\":\"tool-result\",\"toolCallId\":\"call_1\",\"toolName\":\"read_file\","
    "\"output\":{\"type\":\"text\",\"value\":\"1: [provider]\\n2: name = \\\"anthropic\\\"\"}}]}]";

/* DESIGN.md's transcript, byte for byte. */
const char FX_SEED_TRANSCRIPT[] =
    "[user]\n"
    "Please read the config file\n"
    "\n"
    "[assistant]\n"
    "[tool_use:read_file] {\"file_path\": \"config.toml\"}\n"
    "\n"
    "[user]\n"
    "[tool_result:read_file] 1: [provider]\n"
    "2: name = \"anthropic\"";

/* A coding agent in the middle of its tool loop (Anthropic Messages): ls -la, git diff, a Python
 * traceback and grep -rn from two parallel calls, a file read returned as blocks, a JSON test
 * report; it ends on tool results, waiting for the assistant. */
const char FX_SESSION_ANTHROPIC[] =
    "[\n"
    "  {\"role\": \"user\", \"content\": \"The tests fail on main since yesterday's merge. Can you find out why?\"},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Let me look at the repository first.\"}, {\"type\": \"tool_use\", \"id\": \"toolu_01\", \"name\": \"bash\", \"input\": {\"command\": \"ls -la\"}}]},\n"
    "  {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_01\", \"content\": \"total 56\\ndrwxr-xr-x  7 dev dev 4096 Mar  4 09:12 .\\ndrwxr-xr-x 24 dev dev 4096 Mar  1 17:40 ..\\ndrwxr-xr-x  8 dev dev 4096 Mar  4 09:15 .git\\n-rw-r--r--  1 dev dev  412 Feb 27 11:03 .gitignore\\n-rw-r--r--  1 dev dev 1089 Feb 27 11:03 LICENSE\\n-rw-r--r--  1 dev dev 2245 Mar  3 18:22 README.md\\n-rw-r--r--  1 dev dev  688 Mar  2 10:47 pyproject.toml\\ndrwxr-xr-x  3 dev dev 4096 Mar  3 18:20 src\\ndrwxr-xr-x  2 dev dev 4096 Mar  3 18:20 tests\\n\"}]},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"toolu_02\", \"name\": \"bash\", \"input\": {\"command\": \"git diff HEAD~1 -- src/parser.py\"}}]},\n"
    "  {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_02\", \"content\": \"diff --git a/src/parser.py b/src/parser.py\\nindex 3b18e51..a7c09f2 100644\\n--- a/src/parser.py\\n+++ b/src/parser.py\\n@@ -36,9 +36,8 @@ def parse_config(text):\\n     return entries\\n \\n def parse_line(line, lineno):\\n-    line = line.strip()\\n-    if not line or line.startswith(\\\"#\\\"):\\n-        return None\\n+    if line.startswith(\\\"#\\\"):\\n+        return None\\n     key, sep, value = line.partition(\\\"=\\\")\\n     if not sep:\\n         raise ConfigError(f\\\"line {lineno}: expected key = value\\\")\\n\"}]},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"The merge stopped stripping lines, so blank lines reach parse_line. I'll run the CLI and look for other callers.\"}, {\"type\": \"tool_use\", \"id\": \"toolu_03\", \"name\": \"bash\", \"input\": {\"command\": \"python3 src/cli.py config.toml\"}}, {\"type\": \"tool_use\", \"id\": \"toolu_04\", \"name\": \"grep\", \"input\": {\"pattern\": \"parse_line\", \"path\": \".\", \"recursive\": true}}]},\n"
    "  {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_03\", \"content\": \"Traceback (most recent call last):\\n  File \\\"/home/dev/confparse/src/cli.py\\\", line 88, in <module>\\n    main()\\n  File \\\"/home/dev/confparse/src/cli.py\\\", line 61, in main\\n    cfg = parse_config(path.read_text())\\n          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\\n  File \\\"/home/dev/confparse/src/parser.py\\\", line 24, in parse_config\\n    entry = parse_line(raw, lineno)\\n            ^^^^^^^^^^^^^^^^^^^^^^^\\n  File \\\"/home/dev/confparse/src/parser.py\\\", line 45, in parse_line\\n    raise ConfigError(f\\\"line {lineno}: expected key = value\\\")\\nparser.ConfigError: line 2: expected key = value\\n\"}, {\"type\": \"tool_result\", \"tool_use_id\": \"toolu_04\", \"content\": \"src/parser.py:24:        entry = parse_line(raw, lineno)\\nsrc/parser.py:39:def parse_line(line, lineno):\\nsrc/loader.py:17:from .parser import parse_config, parse_line\\nsrc/loader.py:52:            item = parse_line(row, n)\\ntests/test_parser.py:8:from src.parser import parse_line\\n\"}]},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"toolu_05\", \"name\": \"read_file\", \"input\": {\"file_path\": \"src/parser.py\", \"offset\": 39, \"limit\": 6}}]},\n"
    "  {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_05\", \"content\": [{\"type\": \"text\", \"text\": \"    39\\tdef parse_line(line, lineno):\\n    40\\t    if line.startswith(\\\"#\\\"):\\n    41\\t        return None\\n    42\\t    key, sep, value = line.partition(\\\"=\\\")\\n    43\\t    if not sep:\\n    44\\t        raise ConfigError(f\\\"line {lineno}: expected key = value\\\")\"}]}]},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Blank lines now fall through to partition(). Let me confirm with the test suite.\"}, {\"type\": \"tool_use\", \"id\": \"toolu_06\", \"name\": \"run_tests\", \"input\": {\"path\": \"tests/test_parser.py\"}}]},\n"
    "  {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_06\", \"content\": \"{\\\"passed\\\": 41, \\\"failed\\\": 1, \\\"failures\\\": [\\\"tests/test_parser.py::test_blank_lines\\\"]}\"}]}\n"
    "]\n";

/* The same session in OpenAI Chat Completions: arguments as JSON strings, one tool message per
 * result. */
const char FX_SESSION_OPENAI[] =
    "[\n"
    "  {\"role\": \"user\", \"content\": \"The tests fail on main since yesterday's merge. Can you find out why?\"},\n"
    "  {\"role\": \"assistant\", \"content\": \"Let me look at the repository first.\", \"tool_calls\": [{\"id\": \"call_01\", \"type\": \"function\", \"function\": {\"name\": \"bash\", \"arguments\": \"{\\\"command\\\":\\\"ls -la\\\"}\"}}]},\n"
    "  {\"role\": \"tool\", \"tool_call_id\": \"call_01\", \"content\": \"total 56\\ndrwxr-xr-x  7 dev dev 4096 Mar  4 09:12 .\\ndrwxr-xr-x 24 dev dev 4096 Mar  1 17:40 ..\\ndrwxr-xr-x  8 dev dev 4096 Mar  4 09:15 .git\\n-rw-r--r--  1 dev dev  412 Feb 27 11:03 .gitignore\\n-rw-r--r--  1 dev dev 1089 Feb 27 11:03 LICENSE\\n-rw-r--r--  1 dev dev 2245 Mar  3 18:22 README.md\\n-rw-r--r--  1 dev dev  688 Mar  2 10:47 pyproject.toml\\ndrwxr-xr-x  3 dev dev 4096 Mar  3 18:20 src\\ndrwxr-xr-x  2 dev dev 4096 Mar  3 18:20 tests\\n\"},\n"
    "  {\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"call_02\", \"type\": \"function\", \"function\": {\"name\": \"bash\", \"arguments\": \"{\\\"command\\\":\\\"git diff HEAD~1 -- src/parser.py\\\"}\"}}]},\n"
    "  {\"role\": \"tool\", \"tool_call_id\": \"call_02\", \"content\": \"diff --git a/src/parser.py b/src/parser.py\\nindex 3b18e51..a7c09f2 100644\\n--- a/src/parser.py\\n+++ b/src/parser.py\\n@@ -36,9 +36,8 @@ def parse_config(text):\\n     return entries\\n \\n def parse_line(line, lineno):\\n-    line = line.strip()\\n-    if not line or line.startswith(\\\"#\\\"):\\n-        return None\\n+    if line.startswith(\\\"#\\\"):\\n+        return None\\n     key, sep, value = line.partition(\\\"=\\\")\\n     if not sep:\\n         raise ConfigError(f\\\"line {lineno}: expected key = value\\\")\\n\"},\n"
    "  {\"role\": \"assistant\", \"content\": \"The merge stopped stripping lines, so blank lines reach parse_line. I'll run the CLI and look for other callers.\", \"tool_calls\": [{\"id\": \"call_03\", \"type\": \"function\", \"function\": {\"name\": \"bash\", \"arguments\": \"{\\\"command\\\":\\\"python3 src/cli.py config.toml\\\"}\"}}, {\"id\": \"call_04\", \"type\": \"function\", \"function\": {\"name\": \"grep\", \"arguments\": \"{\\\"pattern\\\":\\\"parse_line\\\",\\\"path\\\":\\\".\\\",\\\"recursive\\\":true}\"}}]},\n"
    "  {\"role\": \"tool\", \"tool_call_id\": \"call_03\", \"content\": \"Traceback (most recent call last):\\n  File \\\"/home/dev/confparse/src/cli.py\\\", line 88, in <module>\\n    main()\\n  File \\\"/home/dev/confparse/src/cli.py\\\", line 61, in main\\n    cfg = parse_config(path.read_text())\\n          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\\n  File \\\"/home/dev/confparse/src/parser.py\\\", line 24, in parse_config\\n    entry = parse_line(raw, lineno)\\n            ^^^^^^^^^^^^^^^^^^^^^^^\\n  File \\\"/home/dev/confparse/src/parser.py\\\", line 45, in parse_line\\n    raise ConfigError(f\\\"line {lineno}: expected key = value\\\")\\nparser.ConfigError: line 2: expected key = value\\n\"},\n"
    "  {\"role\": \"tool\", \"tool_call_id\": \"call_04\", \"content\": \"src/parser.py:24:        entry = parse_line(raw, lineno)\\nsrc/parser.py:39:def parse_line(line, lineno):\\nsrc/loader.py:17:from .parser import parse_config, parse_line\\nsrc/loader.py:52:            item = parse_line(row, n)\\ntests/test_parser.py:8:from src.parser import parse_line\\n\"},\n"
    "  {\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"call_05\", \"type\": \"function\", \"function\": {\"name\": \"read_file\", \"arguments\": \"{\\\"file_path\\\":\\\"src/parser.py\\\",\\\"offset\\\":39,\\\"limit\\\":6}\"}}]},\n"
    "  {\"role\": \"tool\", \"tool_call_id\": \"call_05\", \"content\": [{\"type\": \"text\", \"text\": \"    39\\tdef parse_line(line, lineno):\\n    40\\t    if line.startswith(\\\"#\\\"):\\n    41\\t        return None\\n    42\\t    key, sep, value = line.partition(\\\"=\\\")\\n    43\\t    if not sep:\\n    44\\t        raise ConfigError(f\\\"line {lineno}: expected key = value\\\")\"}]},\n"
    "  {\"role\": \"assistant\", \"content\": \"Blank lines now fall through to partition(). Let me confirm with the test suite.\", \"tool_calls\": [{\"id\": \"call_06\", \"type\": \"function\", \"function\": {\"name\": \"run_tests\", \"arguments\": \"{\\\"path\\\":\\\"tests/test_parser.py\\\"}\"}}]},\n"
    "  {\"role\": \"tool\", \"tool_call_id\": \"call_06\", \"content\": \"{\\\"passed\\\": 41, \\\"failed\\\": 1, \\\"failures\\\": [\\\"tests/test_parser.py::test_blank_lines\\\"]}\"}\n"
    "]\n";

/* The same session as Vercel AI SDK v5 ModelMessages: tool-call/tool-result parts, outputs typed
 * text, content and json. */
const char FX_SESSION_AISDK[] =
    "[\n"
    "  {\"role\": \"user\", \"content\": \"The tests fail on main since yesterday's merge. Can you find out why?\"},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Let me look at the repository first.\"}, {\"type\": \"tool-call\", \"toolCallId\": \"call_01\", \"toolName\": \"bash\", \"input\": {\"command\": \"ls -la\"}}]},\n"
    "  {\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"call_01\", \"toolName\": \"bash\", \"output\": {\"type\": \"text\", \"value\": \"total 56\\ndrwxr-xr-x  7 dev dev 4096 Mar  4 09:12 .\\ndrwxr-xr-x 24 dev dev 4096 Mar  1 17:40 ..\\ndrwxr-xr-x  8 dev dev 4096 Mar  4 09:15 .git\\n-rw-r--r--  1 dev dev  412 Feb 27 11:03 .gitignore\\n-rw-r--r--  1 dev dev 1089 Feb 27 11:03 LICENSE\\n-rw-r--r--  1 dev dev 2245 Mar  3 18:22 README.md\\n-rw-r--r--  1 dev dev  688 Mar  2 10:47 pyproject.toml\\ndrwxr-xr-x  3 dev dev 4096 Mar  3 18:20 src\\ndrwxr-xr-x  2 dev dev 4096 Mar  3 18:20 tests\\n\"}}]},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"tool-call\", \"toolCallId\": \"call_02\", \"toolName\": \"bash\", \"input\": {\"command\": \"git diff HEAD~1 -- src/parser.py\"}}]},\n"
    "  {\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"call_02\", \"toolName\": \"bash\", \"output\": {\"type\": \"text\", \"value\": \"diff --git a/src/parser.py b/src/parser.py\\nindex 3b18e51..a7c09f2 100644\\n--- a/src/parser.py\\n+++ b/src/parser.py\\n@@ -36,9 +36,8 @@ def parse_config(text):\\n     return entries\\n \\n def parse_line(line, lineno):\\n-    line = line.strip()\\n-    if not line or line.startswith(\\\"#\\\"):\\n-        return None\\n+    if line.startswith(\\\"#\\\"):\\n+        return None\\n     key, sep, value = line.partition(\\\"=\\\")\\n     if not sep:\\n         raise ConfigError(f\\\"line {lineno}: expected key = value\\\")\\n\"}}]},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"The merge stopped stripping lines, so blank lines reach parse_line. I'll run the CLI and look for other callers.\"}, {\"type\": \"tool-call\", \"toolCallId\": \"call_03\", \"toolName\": \"bash\", \"input\": {\"command\": \"python3 src/cli.py config.toml\"}}, {\"type\": \"tool-call\", \"toolCallId\": \"call_04\", \"toolName\": \"grep\", \"input\": {\"pattern\": \"parse_line\", \"path\": \".\", \"recursive\": true}}]},\n"
    "  {\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"call_03\", \"toolName\": \"bash\", \"output\": {\"type\": \"text\", \"value\": \"Traceback (most recent call last):\\n  File \\\"/home/dev/confparse/src/cli.py\\\", line 88, in <module>\\n    main()\\n  File \\\"/home/dev/confparse/src/cli.py\\\", line 61, in main\\n    cfg = parse_config(path.read_text())\\n          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\\n  File \\\"/home/dev/confparse/src/parser.py\\\", line 24, in parse_config\\n    entry = parse_line(raw, lineno)\\n            ^^^^^^^^^^^^^^^^^^^^^^^\\n  File \\\"/home/dev/confparse/src/parser.py\\\", line 45, in parse_line\\n    raise ConfigError(f\\\"line {lineno}: expected key = value\\\")\\nparser.ConfigError: line 2: expected key = value\\n\"}}, {\"type\": \"tool-result\", \"toolCallId\": \"call_04\", \"toolName\": \"grep\", \"output\": {\"type\": \"text\", \"value\": \"src/parser.py:24:        entry = parse_line(raw, lineno)\\nsrc/parser.py:39:def parse_line(line, lineno):\\nsrc/loader.py:17:from .parser import parse_config, parse_line\\nsrc/loader.py:52:            item = parse_line(row, n)\\ntests/test_parser.py:8:from src.parser import parse_line\\n\"}}]},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"tool-call\", \"toolCallId\": \"call_05\", \"toolName\": \"read_file\", \"input\": {\"file_path\": \"src/parser.py\", \"offset\": 39, \"limit\": 6}}]},\n"
    "  {\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"call_05\", \"toolName\": \"read_file\", \"output\": {\"type\": \"content\", \"value\": [{\"type\": \"text\", \"text\": \"    39\\tdef parse_line(line, lineno):\\n    40\\t    if line.startswith(\\\"#\\\"):\\n    41\\t        return None\\n    42\\t    key, sep, value = line.partition(\\\"=\\\")\\n    43\\t    if not sep:\\n    44\\t        raise ConfigError(f\\\"line {lineno}: expected key = value\\\")\"}]}}]},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Blank lines now fall through to partition(). Let me confirm with the test suite.\"}, {\"type\": \"tool-call\", \"toolCallId\": \"call_06\", \"toolName\": \"run_tests\", \"input\": {\"path\": \"tests/test_parser.py\"}}]},\n"
    "  {\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"call_06\", \"toolName\": \"run_tests\", \"output\": {\"type\": \"json\", \"value\": {\"passed\": 41, \"failed\": 1, \"failures\": [\"tests/test_parser.py::test_blank_lines\"]}}}]}\n"
    "]\n";

/* The transcript of the session, the same in all three formats. */
const char FX_SESSION_TRANSCRIPT[] =
    "[user]\n"
    "The tests fail on main since yesterday's merge. Can you find out why?\n"
    "\n"
    "[assistant]\n"
    "Let me look at the repository first.\n"
    "[tool_use:bash] {\"command\": \"ls -la\"}\n"
    "\n"
    "[user]\n"
    "[tool_result:bash] total 56\n"
    "drwxr-xr-x  7 dev dev 4096 Mar  4 09:12 .\n"
    "drwxr-xr-x 24 dev dev 4096 Mar  1 17:40 ..\n"
    "drwxr-xr-x  8 dev dev 4096 Mar  4 09:15 .git\n"
    "-rw-r--r--  1 dev dev  412 Feb 27 11:03 .gitignore\n"
    "-rw-r--r--  1 dev dev 1089 Feb 27 11:03 LICENSE\n"
    "-rw-r--r--  1 dev dev 2245 Mar  3 18:22 README.md\n"
    "-rw-r--r--  1 dev dev  688 Mar  2 10:47 pyproject.toml\n"
    "drwxr-xr-x  3 dev dev 4096 Mar  3 18:20 src\n"
    "drwxr-xr-x  2 dev dev 4096 Mar  3 18:20 tests\n"
    "\n"
    "\n"
    "[assistant]\n"
    "[tool_use:bash] {\"command\": \"git diff HEAD~1 -- src/parser.py\"}\n"
    "\n"
    "[user]\n"
    "[tool_result:bash] diff --git a/src/parser.py b/src/parser.py\n"
    "index 3b18e51..a7c09f2 100644\n"
    "--- a/src/parser.py\n"
    "+++ b/src/parser.py\n"
    "@@ -36,9 +36,8 @@ def parse_config(text):\n"
    "     return entries\n"
    " \n"
    " def parse_line(line, lineno):\n"
    "-    line = line.strip()\n"
    "-    if not line or line.startswith(\"#\"):\n"
    "-        return None\n"
    "+    if line.startswith(\"#\"):\n"
    "+        return None\n"
    "     key, sep, value = line.partition(\"=\")\n"
    "     if not sep:\n"
    "         raise ConfigError(f\"line {lineno}: expected key = value\")\n"
    "\n"
    "\n"
    "[assistant]\n"
    "The merge stopped stripping lines, so blank lines reach parse_line. I'll run the CLI and look for other callers.\n"
    "[tool_use:bash] {\"command\": \"python3 src/cli.py config.toml\"}\n"
    "[tool_use:grep] {\"pattern\": \"parse_line\", \"path\": \".\", \"recursive\": true}\n"
    "\n"
    "[user]\n"
    "[tool_result:bash] Traceback (most recent call last):\n"
    "  File \"/home/dev/confparse/src/cli.py\", line 88, in <module>\n"
    "    main()\n"
    "  File \"/home/dev/confparse/src/cli.py\", line 61, in main\n"
    "    cfg = parse_config(path.read_text())\n"
    "          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    "  File \"/home/dev/confparse/src/parser.py\", line 24, in parse_config\n"
    "    entry = parse_line(raw, lineno)\n"
    "            ^^^^^^^^^^^^^^^^^^^^^^^\n"
    "  File \"/home/dev/confparse/src/parser.py\", line 45, in parse_line\n"
    "    raise ConfigError(f\"line {lineno}: expected key = value\")\n"
    "parser.ConfigError: line 2: expected key = value\n"
    "\n"
    "[tool_result:grep] src/parser.py:24:        entry = parse_line(raw, lineno)\n"
    "src/parser.py:39:def parse_line(line, lineno):\n"
    "src/loader.py:17:from .parser import parse_config, parse_line\n"
    "src/loader.py:52:            item = parse_line(row, n)\n"
    "tests/test_parser.py:8:from src.parser import parse_line\n"
    "\n"
    "\n"
    "[assistant]\n"
    "[tool_use:read_file] {\"file_path\": \"src/parser.py\", \"offset\": 39, \"limit\": 6}\n"
    "\n"
    "[user]\n"
    "[tool_result:read_file]     39\tdef parse_line(line, lineno):\n"
    "    40\t    if line.startswith(\"#\"):\n"
    "    41\t        return None\n"
    "    42\t    key, sep, value = line.partition(\"=\")\n"
    "    43\t    if not sep:\n"
    "    44\t        raise ConfigError(f\"line {lineno}: expected key = value\")\n"
    "\n"
    "[assistant]\n"
    "Blank lines now fall through to partition(). Let me confirm with the test suite.\n"
    "[tool_use:run_tests] {\"path\": \"tests/test_parser.py\"}\n"
    "\n"
    "[user]\n"
    "[tool_result:run_tests] {\"passed\": 41, \"failed\": 1, \"failures\": [\"tests/test_parser.py::test_blank_lines\"]}";

/* A user writing Chinese about a config file that mixes Chinese and TOML (Anthropic Messages). */
const char FX_CHINESE_ANTHROPIC[] =
    "[\n"
    "  {\"role\": \"user\", \"content\": \"帮我看看为什么 config.toml 读不出来？报错是“找不到配置项 name”。\"},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"好的，我先读取配置文件。\"}, {\"type\": \"tool_use\", \"id\": \"toolu_11\", \"name\": \"read_file\", \"input\": {\"file_path\": \"config.toml\"}}]},\n"
    "  {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_11\", \"content\": \"1: [provider]\\n2: # 模型提供方\\n3: 名称 = \\\"anthropic\\\"\\n4: model = \\\"claude-sonnet-4-5\\\"\"}]},\n"
    "  {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"问题在第 3 行：键名写成了中文“名称”，而解析器只认识 `name`。把它改成 `name = \\\"anthropic\\\"` 就可以了。\"}]},\n"
    "  {\"role\": \"user\", \"content\": \"谢谢！顺便把注释也翻译成英文。\"}\n"
    "]\n";

/* Its transcript. */
const char FX_CHINESE_TRANSCRIPT[] =
    "[user]\n"
    "帮我看看为什么 config.toml 读不出来？报错是“找不到配置项 name”。\n"
    "\n"
    "[assistant]\n"
    "好的，我先读取配置文件。\n"
    "[tool_use:read_file] {\"file_path\": \"config.toml\"}\n"
    "\n"
    "[user]\n"
    "[tool_result:read_file] 1: [provider]\n"
    "2: # 模型提供方\n"
    "3: 名称 = \"anthropic\"\n"
    "4: model = \"claude-sonnet-4-5\"\n"
    "\n"
    "[assistant]\n"
    "问题在第 3 行：键名写成了中文“名称”，而解析器只认识 `name`。把它改成 `name = \"anthropic\"` 就可以了。\n"
    "\n"
    "[user]\n"
    "谢谢！顺便把注释也翻译成英文。";

/* An Anthropic research turn with server tools (web search with its encrypted pages, code
 * execution), the MCP connector, and a two-page PDF; the user's question is pending. */
const char FX_SERVER_TOOLS_ANTHROPIC[] =
    "[{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"Is cJSON's nesting limit configurable? Spec attached.\"},"
    " {\"type\": \"document\", \"title\": \"Parser spec\", \"source\": {\"type\": \"base64\", \"media_type\": \"application/pdf\", \"data\": "
    "\"JVBERi0xLjQKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4KZW5kb2JqCjIgMCBvYmoKPDwgL1R5cGUgL1BhZ2VzIC9LaWRzIFszIDAgUiA0IDAgUl0gL0NvdW50IDIgPj4KZW5kb2JqCjMgMCBvYmoKPDwgL1R5cGUgL1BhZ2UgL1BhcmVudCAyIDAgUiA+PgplbmRvYmoKNCAwIG9iago8PC9UeXBlL1BhZ2UvUGFyZW50IDIgMCBSPj4KZW5kb2JqCnRyYWlsZXIKPDwgL1Jvb3QgMSAwIFIgPj4KJSVFT0YK\"}}]},"
    " {\"role\": \"assistant\", \"content\": ["
    "{\"type\": \"server_tool_use\", \"id\": \"srvtoolu_01\", \"name\": \"web_search\", \"input\": {\"query\": \"cJSON CJSON_NESTING_LIMIT\"}},"
    " {\"type\": \"web_search_tool_result\", \"tool_use_id\": \"srvtoolu_01\", \"content\": [{\"type\": \"web_search_result\", "
    "\"title\": \"cJSON README\", \"url\": \"https://github.com/DaveGamble/cJSON\", \"encrypted_content\": "
    "\"EqgfCioIAxgCIiQ4ODk4YTFkYy0yMTNkLTQ1NzItOTY5Ni1hODEyNmU2ZGFkNTQSDH3wZ0pLrT6uHZqYBxoMhIbEu0wB8Y9Jd1o7IjA5\"}]},"
    " {\"type\": \"server_tool_use\", \"id\": \"srvtoolu_02\", \"name\": \"code_execution\", \"input\": {\"code\": \"print(open('cJSON.h').read().count('NESTING'))\"}},"
    " {\"type\": \"code_execution_tool_result\", \"tool_use_id\": \"srvtoolu_02\", \"content\": {\"type\": \"code_execution_result\", "
    "\"stdout\": \"#ifndef CJSON_NESTING_LIMIT\\n#define CJSON_NESTING_LIMIT 1000\\n#endif\\n3 occurrences in cJSON.h, 2 in cJSON.c\\n\", "
    "\"stderr\": \"\", \"return_code\": 0, \"content\": []}},"
    " {\"type\": \"mcp_tool_use\", \"id\": \"mcptoolu_01\", \"name\": \"search_code\", \"server_name\": \"github\", \"input\": {\"q\": \"CJSON_NESTING_LIMIT\"}},"
    " {\"type\": \"mcp_tool_result\", \"tool_use_id\": \"mcptoolu_01\", \"is_error\": false, \"content\": [{\"type\": \"text\", "
    "\"text\": \"cJSON.h:137: #define CJSON_NESTING_LIMIT 1000\\ncJSON.c:1101: if (input_buffer->depth >= CJSON_NESTING_LIMIT)\"}]},"
    " {\"type\": \"text\", \"text\": \"Yes: define CJSON_NESTING_LIMIT when compiling cJSON.c (the default is 1000).\"}]},"
    " {\"role\": \"user\", \"content\": \"And the string length limit?\"}]";
