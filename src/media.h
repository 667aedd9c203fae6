/* media.h — images and files in any format: what they are, their size, their
 * placeholder. Not installed. */
#ifndef MIDFOLD_MEDIA_H
#define MIDFOLD_MEDIA_H

#include "tree.h"

/* ---- media (media.c): images and files wherever a format puts them ----------------- */
/* A media item as the provider bills it (media.c): an image at the profile's image
 * cost; a document by its decoded size when known (bytes > 0), else one document cost. */
typedef struct mf_media {
    bool file;               /* shown as "[file: NAME]" rather than "[document: TITLE]" */
    uint64_t bytes;          /* decoded size; 0 when unknown (a URL, a provider reference) */
} mf_media;
typedef enum mf_media_kind { MF_MEDIA_NONE = 0, MF_MEDIA_IMAGE, MF_MEDIA_DOCUMENT } mf_media_kind;
/* Classifies a block of tool-result content (any format's media item types); fills *media
 * and *name (the filename, else the media type; may stay NULL) for the transcript. */
mf_media_kind mf_media_of_block(const mf_node *block, mf_media *media, const mf_node **name);
/* The decoded size of inline data: a base64 string or data: URL (its payload), a blob, an
 * AI SDK v7 {type:"data", data}; 0 for a URL, a reference or anything else. */
uint64_t mf_media_bytes(const mf_node *data);
/* True when a media type names an image ("image/..."). */
bool mf_media_type_is_image(const mf_node *media_type);
/* Writes "[image]", "[file: NAME]", "[document: NAME]", "[document]" (media.c). */
void mf_write_media(mf_buf *b, mf_media_kind kind, const mf_media *media, const char *name, size_t name_len);

#endif /* MIDFOLD_MEDIA_H */
