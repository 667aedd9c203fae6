/* fixtures_responses.h — an OpenAI Responses API input list for the native tests: a
 * developer message (0), the user's request (1), a reasoning item (2) before two parallel
 * function calls (3, 4) and their outputs (5: a string, 6: input_text parts), a web search
 * (7), the answer (8), a user turn (9), a computer call (10) with its screenshot (11), an
 * MCP approval request (12) and response (13), the MCP call (14), the pending turn (15). */
#ifndef MIDFOLD_FIXTURES_RESPONSES_H
#define MIDFOLD_FIXTURES_RESPONSES_H

extern const char FX_RESPONSES_RUN[];

#endif
