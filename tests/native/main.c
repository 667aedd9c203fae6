/* main.c — runs every native test file with midfold on the counting allocator, then
 * checks that the whole run left nothing allocated. */
#include <stdio.h>

#include "check.h"
#include "failing_alloc.h"
#include "suites.h"

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* failures interleave with sanitizer reports */
    fa_install();
    test_utf8();
    test_estimate();
    test_parse();
    test_format();
    test_serialize();
    test_forgery();
    test_micro();
    test_validate();
    test_mutations();
    test_alloc_failure();
    test_known_bugs();
    test_profiles();
    test_features_ascii();
    test_memory();
    test_responses();
    test_anthropic_blocks();
    test_aisdk();
    test_json_scan();
    test_digest();
    test_digest_calls();
    test_json_reprint();
    test_langchain();
    test_compact_tail();
    test_result();
    test_signed();
    test_compact_edits();
    test_search();
    test_recall();
    CHECK("every block midfold allocated during the run was freed", fa_live() == 0);
    return check_summary();
}
