/* media.c — images and files, wherever a format puts them: what the provider bills for
 * them and how big their data is, so base64 is never priced (or shown) as text.
 *
 * Sizes come from the data itself: a base64 string (or a data: URL's payload) decodes
 * to 3 bytes per 4 characters, a blob (a Uint8Array crossing from JS) carries its byte
 * length. A URL or a provider reference (file id) has no size we can see: it is billed
 * at the flat cost of its kind. */
#include "media.h"
#include "content.h"

#include <string.h>

static bool has_prefix(const mf_node *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s && s->kind == MF_STRING && s->len >= n && memcmp(s->str, prefix, n) == 0;
}

bool mf_media_type_is_image(const mf_node *media_type) { return has_prefix(media_type, "image/"); }

/* Bytes a base64 text decodes to (padding and whitespace aside: an upper bound). */
static uint64_t base64_bytes(const char *s, size_t len)
{
    while (len && (s[len - 1] == '=' || s[len - 1] == '\n' || s[len - 1] == '\r')) len--;
    return (uint64_t)len * 3 / 4;
}

static bool looks_like_url(const mf_node *s)
{
    return has_prefix(s, "http://") || has_prefix(s, "https://") || has_prefix(s, "gs://") || has_prefix(s, "s3://");
}

uint64_t mf_media_bytes(const mf_node *data)
{
    if (!data) return 0;
    if (data->kind == MF_BLOB) return data->len;
    if (data->kind == MF_OBJECT) {
        /* AI SDK v7 file data: {type: "data", data} holds bytes; url, reference and text do not. */
        const mf_node *type = mf_get_str(data, "type");
        if (mf_str_eq(type, "data")) return mf_media_bytes(mf_get(data, "data"));
        return 0;
    }
    if (data->kind != MF_STRING || looks_like_url(data)) return 0;
    if (has_prefix(data, "data:")) {
        const char *comma = memchr(data->str, ',', data->len);
        if (!comma) return 0;
        size_t head = (size_t)(comma - data->str), rest = data->len - head - 1;
        bool b64 = head >= 7 && memcmp(comma - 7, ";base64", 7) == 0;
        return b64 ? base64_bytes(comma + 1, rest) : rest;
    }
    return base64_bytes(data->str, data->len);
}

/* The data member of a media block, under the names the formats use. */
static const mf_node *block_data(const mf_node *block)
{
    static const char *const keys[] = {"data", "image", "url", "image_url", "file_data", NULL};
    for (int i = 0; keys[i]; i++) {
        const mf_node *d = mf_get(block, keys[i]);
        if (d) return d;
    }
    return NULL;
}

mf_media_kind mf_media_of_block(const mf_node *block, mf_media *media, const mf_node **name)
{
    memset(media, 0, sizeof *media);
    *name = NULL;
    const mf_node *type = mf_get_str(block, "type");
    if (!type) return MF_MEDIA_NONE;
    const mf_node *media_type = mf_get_str(block, "mediaType");
    /* Anthropic and OpenAI media blocks, and the AI SDK's image items. */
    if (mf_str_eq(type, "image") || mf_str_eq(type, "image_url") || mf_str_eq(type, "image-data") ||
        mf_str_eq(type, "image-url") || mf_str_eq(type, "image-file-id") || mf_str_eq(type, "image-file-reference"))
        return MF_MEDIA_IMAGE;
    if (mf_str_eq(type, "document")) return MF_MEDIA_DOCUMENT;
    /* AI SDK file items: an image when their media type says so. "media" is v5's item. */
    if (mf_str_eq(type, "file") || mf_str_eq(type, "file-data") || mf_str_eq(type, "file-url") ||
        mf_str_eq(type, "file-id") || mf_str_eq(type, "file-reference") || mf_str_eq(type, "media")) {
        if (mf_media_type_is_image(media_type)) return MF_MEDIA_IMAGE;
        media->file = true;
        const mf_node *data = block_data(block);
        media->bytes = mf_media_bytes(data);
        const mf_node *file = mf_get(block, "file"); /* OpenAI {type: "file", file: {filename}} */
        *name = mf_get_str(block, "filename");
        if (!*name) *name = mf_get_str(file, "filename");
        if (!*name) *name = media_type;
        if (!media->bytes && file) media->bytes = mf_media_bytes(mf_get(file, "file_data"));
        return MF_MEDIA_DOCUMENT;
    }
    return MF_MEDIA_NONE;
}

/* "[image]", "[file: NAME]", "[document: NAME]", "[document]": the placeholders are
 * midfold's words, a title or file name is content (through the door). */
void mf_write_media(mf_buf *b, mf_media_kind kind, const mf_media *media, const char *name, size_t name_len)
{
    if (kind == MF_MEDIA_IMAGE) { mf_buf_puts(b, "[image]"); return; }
    mf_buf_puts(b, media && media->file ? "[file" : "[document");
    if (name && name_len) {
        mf_buf_puts(b, ": ");
        mf_put_content(b, name, name_len);
    }
    mf_buf_putc(b, ']');
}
