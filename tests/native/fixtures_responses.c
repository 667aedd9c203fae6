/* fixtures_responses.c — an OpenAI Responses input list (see fixtures_responses.h). */
#include "fixtures_responses.h"

const char FX_RESPONSES_RUN[] =
    "["
    "{\"role\": \"developer\", \"content\": \"You are the on-call SRE assistant.\"},"                          /* 0 */
    "{\"type\": \"message\", \"role\": \"user\", \"content\": [{\"type\": \"input_text\", \"text\": "
    "\"Checkout is slow since the deploy. Find out why.\"}]},"                                                  /* 1 */
    "{\"type\": \"reasoning\", \"id\": \"rs_1\", \"summary\": [{\"type\": \"summary_text\", \"text\": "
    "\"Pull the logs and read the cart loader.\"}], \"encrypted_content\": \"gAAAAABpZm9vYmFyYmF6cXV4\"},"    /* 2 */
    "{\"type\": \"function_call\", \"call_id\": \"call_logs\", \"name\": \"search_logs\", "
    "\"arguments\": \"{\\\"service\\\":\\\"checkout-api\\\"}\"},"                                               /* 3 */
    "{\"type\": \"function_call\", \"call_id\": \"call_cart\", \"name\": \"read_file\", "
    "\"arguments\": \"{\\\"path\\\":\\\"src/cart.ts\\\"}\"},"                                                    /* 4 */
    "{\"type\": \"function_call_output\", \"call_id\": \"call_logs\", \"output\": "
    "\"14:20:01 POST /v1/checkout 200 duration_ms=2950 db_ms=2710\\n14:20:04 POST /v1/checkout 200 duration_ms=3120 "
    "db_ms=2880\\n14:20:09 POST /v1/checkout 200 duration_ms=3004 db_ms=2790\\n14:20:13 POST /v1/checkout 200 "
    "duration_ms=2876 db_ms=2655\"},"                                                                            /* 5 */
    "{\"type\": \"function_call_output\", \"call_id\": \"call_cart\", \"output\": [{\"type\": \"input_text\", "
    "\"text\": \"for (const line of cart.lines) {\\n  line.promotions = await db.promotion.findMany({ where: "
    "{ sku: line.sku } });\\n}\"}]},"                                                                            /* 6 */
    "{\"type\": \"web_search_call\", \"id\": \"ws_1\", \"status\": \"completed\", \"action\": {\"type\": \"search\", "
    "\"query\": \"prisma N+1 findMany in loop\"}},"                                                              /* 7 */
    "{\"type\": \"message\", \"id\": \"msg_1\", \"role\": \"assistant\", \"status\": \"completed\", \"content\": "
    "[{\"type\": \"output_text\", \"text\": \"An N+1 query in loadCart.\", \"annotations\": []}]},"             /* 8 */
    "{\"role\": \"user\", \"content\": \"Check the dashboard.\"},"                                              /* 9 */
    "{\"type\": \"computer_call\", \"id\": \"cu_1\", \"call_id\": \"call_shot\", \"action\": {\"type\": "
    "\"screenshot\"}, \"pending_safety_checks\": [], \"status\": \"completed\"},"                               /* 10 */
    "{\"type\": \"computer_call_output\", \"call_id\": \"call_shot\", \"output\": {\"type\": "
    "\"computer_screenshot\", \"image_url\": \"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"
    "AAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==\"}},"                                                 /* 11 */
    "{\"type\": \"mcp_approval_request\", \"id\": \"mcpr_1\", \"server_label\": \"linear\", \"name\": "
    "\"create_issue\", \"arguments\": \"{\\\"title\\\":\\\"N+1 in loadCart\\\"}\"},"                             /* 12 */
    "{\"type\": \"mcp_approval_response\", \"approval_request_id\": \"mcpr_1\", \"approve\": true},"           /* 13 */
    "{\"type\": \"mcp_call\", \"id\": \"mcp_1\", \"server_label\": \"linear\", \"name\": \"create_issue\", "
    "\"arguments\": \"{\\\"title\\\":\\\"N+1 in loadCart\\\"}\", \"output\": \"{\\\"id\\\":\\\"CHK-1187\\\"}\"},"  /* 14 */
    "{\"type\": \"message\", \"role\": \"user\", \"content\": [{\"type\": \"input_text\", \"text\": "
    "\"Draft the postmortem.\"}]}"                                                                               /* 15 */
    "]";
