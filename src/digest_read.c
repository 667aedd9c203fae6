/* digest_read.c — the conversation read into the digest's facts (digest_read.h): each call
 * paired with its result by id (digest_calls.c), each text read for what was said
 * (digest_texts.c). */
#include "digest_read.h"
#include "digest_calls.h"
#include "digest_texts.h"
#include "view.h"

void mf_digest_read(mf_digest_facts *d, const mf_view *view)
{
    d->messages = view->count;
    size_t calls = 0;
    for (size_t m = 0; m < view->count; m++)
        for (size_t p = 0; p < view->msgs[m].count; p++) calls += view->msgs[m].parts[p].kind == MF_PART_TOOL_CALL;
    mf_idmap map = {0};
    if (calls && !mf_idmap_init(&map, &d->arena, calls)) { d->failed = true; return; }
    mf_buf scratch;
    mf_buf_init(&scratch);
    for (size_t m = 0; m < view->count && !d->failed; m++) {
        const mf_msg *msg = &view->msgs[m];
        for (size_t p = 0; p < msg->count && !d->failed; p++) {
            const mf_part *part = &msg->parts[p];
            if (part->kind == MF_PART_TOOL_CALL) {
                dg_call *call = mf_digest_note_call(d, part, m);
                if (call && part->id && calls) {
                    mf_idslot *s = mf_idmap_slot(&map, part->id, part->id_len);
                    s->id = part->id;
                    s->len = part->id_len;
                    s->value = call; /* a repeated id: the latest call wins */
                }
            } else if (part->kind == MF_PART_TOOL_RESULT) {
                const dg_call *call = NULL;
                if (part->id && calls) {
                    mf_idslot *s = mf_idmap_slot(&map, part->id, part->id_len);
                    if (s->id) call = s->value;
                }
                mf_digest_note_result(d, part, call, &scratch);
            } else if ((part->kind == MF_PART_TEXT || mf_part_is_compaction(part)) && part->text_len) {
                mf_digest_note_text(d, msg, part, m);
            }
        }
    }
    mf_buf_free(&scratch);
    mf_digest_mark_boilerplate(d);
}
