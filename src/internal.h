/* internal.h — every header of the core at once, for a file that uses most of them (a
 * bridge, a test). The core's own files include the header of each concern they use:
 * base.h (allocation, arena, buffer, UTF-8, text classes), tree.h (values, documents, JSON
 * out), media.h, view.h (the normalized view, the adapters, their block readers),
 * measure.h (estimates), result.h (a tool result's content read once; the marker),
 * content.h (the door content goes through into a transcript), transcript.h (the
 * serializer). Not installed. */
#ifndef MIDFOLD_INTERNAL_H
#define MIDFOLD_INTERNAL_H

#include "base.h"
#include "content.h"
#include "measure.h"
#include "media.h"
#include "result.h"
#include "transcript.h"
#include "tree.h"
#include "view.h"

#endif /* MIDFOLD_INTERNAL_H */
