/*
 * fixtures.h — realistic conversations shared by the native tests, as JSON text.
 *
 * The session fixtures are one coding-agent session written in each of the three wire
 * formats; the facts the tests state about them (transcripts, estimates, plans) were
 * worked out from the rules in DESIGN.md and issue 2, not by running midfold.
 */
#ifndef MIDFOLD_FIXTURES_H
#define MIDFOLD_FIXTURES_H

/* DESIGN.md's seed example (read config.toml), in each format, and its transcript. */
extern const char FX_SEED_ANTHROPIC[];
extern const char FX_SEED_OPENAI[];
extern const char FX_SEED_AISDK[];
extern const char FX_SEED_TRANSCRIPT[];

/* A debugging session stopped mid tool loop: 11 messages in Anthropic and AI SDK form
 * (results in messages 2, 4, 6 (two parallel results), 8 and 10), 12 in OpenAI form
 * (tool messages 2, 4, 6+7, 9 and 11). */
extern const char FX_SESSION_ANTHROPIC[];
extern const char FX_SESSION_OPENAI[];
extern const char FX_SESSION_AISDK[];
extern const char FX_SESSION_TRANSCRIPT[];

/* Chinese conversation about a config file with Chinese keys (Anthropic). */
extern const char FX_CHINESE_ANTHROPIC[];
extern const char FX_CHINESE_TRANSCRIPT[];
/* Anthropic server tools (web search, code execution), the MCP connector and a two-page
 * PDF in one research turn; the last user question is pending. */
extern const char FX_SERVER_TOOLS_ANTHROPIC[];

/* AI SDK (fixtures_aisdk.c, written by ai 6): an approval flow ending in a denial, the
 * same flow awaiting its approval, a chat UI's UIMessages, and that chat mid-stream. */
extern const char FX_APPROVAL_AISDK[];
extern const char FX_AWAITING_AISDK[];
extern const char FX_CHAT_AISDK_UI[];
extern const char FX_STREAMING_AISDK_UI[];

#endif
