/* The C reference codec's frame rules: see codec.h. */
#include "codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { CONTAINER = 0xFFFF, TEXT = 0x1001 };
#define MAGIC 0xDECAFBADu

int codec_planted;
const char *codec_program = "decaf-c";

struct codec_options codec_default_options(void) {
    return (struct codec_options){.body_limit = 10485760, .depth_limit = 4, .version_major = 1};
}

uint32_t codec_be32(const unsigned char *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
uint16_t codec_be16(const unsigned char *p) { return (uint16_t)(p[0] << 8 | p[1]); }

void codec_put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16), p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

void codec_put16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)(v >> 8), p[1] = (unsigned char)v; }

/* The refusal `error` (section 8's name) at `offset`, with its code. */
static struct codec_refusal refused(const char *error, long long offset) {
    static const char *names[] = {"BAD_MAGIC", "VERSION_UNSUPPORTED", "BODY_TOO_LARGE", "CHECKSUM_MISMATCH", "UNSUPPORTED_ENCRYPTION",
                                  "UNSUPPORTED_COMPRESSION", "DECOMPRESSION_FAILED", "TLV_TRUNCATED", "TLV_LENGTH_OVERFLOW", "TLV_TOO_DEEP",
                                  "TLV_DUPLICATE_TAG", "TIMESTAMP_OUT_OF_WINDOW", "TRUNCATED_FRAME"};
    unsigned code = 0;
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(names[i], error) == 0) code = i + 1;
    }
    return (struct codec_refusal){error, code, offset};
}

struct codec_refusal codec_truncated(void) { return refused("TRUNCATED_FRAME", 0); }

/* A planted mistake's crash, as an assertion's: its last words on standard error, then SIGABRT. */
static void planted_abort(const char *what) {
    fprintf(stderr, "%s: check_tlv: %s\n", codec_program, what);
    abort();
}

/* Whether `s` is UTF-8: no overlong form, no surrogate, nothing past U+10FFFF. */
static int is_utf8(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t extra;
        uint32_t point;
        if ((c & 0xE0) == 0xC0) extra = 1, point = c & 0x1F;
        else if ((c & 0xF0) == 0xE0) extra = 2, point = c & 0x0F;
        else if ((c & 0xF8) == 0xF0) extra = 3, point = c & 0x07;
        else return 0;
        if (n - i <= extra) return 0;
        for (size_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            point = point << 6 | (s[i + k] & 0x3F);
        }
        uint32_t least = extra == 1 ? 0x80 : extra == 2 ? 0x800 : 0x10000;
        if (point < least || point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF)) return 0;
        i += extra + 1;
    }
    return 1;
}

/*
 * Checks the TLV sequence `body` at `depth` (TLV-1 to TLV-3), offsets counted from `base`; 0 when
 * it holds, else the refusal is in `out`. `compressed` says the sequence came out of a zlib body.
 */
static int check_tlv(const unsigned char *body, size_t length, unsigned long long depth, size_t base, const struct codec_options *o,
                     int compressed, struct codec_refusal *out) {
    /* The tags seen in this sequence, a bit each. */
    unsigned char *seen = o->allow_duplicate_tags ? NULL : calloc(65536 / 8, 1);
    size_t at = 0;
    int refusal = 0;
    while (at < length && !refusal) {
        if (length - at < 6) {
            *out = refused("TLV_TRUNCATED", (long long)(base + at));
            refusal = 1;
            break;
        }
        uint16_t tag = codec_be16(body + at);
        uint32_t value_length = codec_be32(body + at + 2);
        if (value_length > length - at - 6) {
            *out = refused("TLV_LENGTH_OVERFLOW", (long long)(base + at));
            refusal = 1;
            break;
        }
        if (seen) {
            if (seen[tag >> 3] & (1 << (tag & 7))) {
                *out = refused("TLV_DUPLICATE_TAG", (long long)(base + at));
                refusal = 1;
                break;
            }
            seen[tag >> 3] |= (unsigned char)(1 << (tag & 7));
        }
        const unsigned char *value = body + at + 6;
        if (tag == CONTAINER) {
            if (depth + 1 > o->depth_limit) {
                *out = refused("TLV_TOO_DEEP", (long long)(base + at));
                refusal = 1;
                break;
            }
            refusal = check_tlv(value, value_length, depth + 1, base + at + 6, o, compressed, out);
        } else if (tag == TEXT && codec_planted) {
            if (!compressed && depth == 4 && value_length == 0) planted_abort("an empty TEXT four containers deep");
            if (compressed && !is_utf8(value, value_length)) planted_abort("a TEXT in a zlib body that is not UTF-8");
        }
        at += 6 + (size_t)value_length;
    }
    free(seen);
    return refusal;
}

/* Inflates `body` as one zlib stream within `limit` bytes; NULL (DECOMPRESSION_FAILED) otherwise. */
static unsigned char *inflate_body(const unsigned char *body, size_t length, unsigned long long limit, size_t *inflated) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) return NULL;
    size_t capacity = 4096, size = 0;
    unsigned char *out = malloc(capacity);
    stream.next_in = (unsigned char *)body;
    stream.avail_in = (uInt)length;
    int status = Z_OK;
    while (out && status == Z_OK) {
        if (size == capacity) {
            if (size > limit) break;
            capacity *= 2;
            unsigned char *grown = realloc(out, capacity);
            if (!grown) {
                free(out);
                out = NULL;
                break;
            }
            out = grown;
        }
        stream.next_out = out + size;
        stream.avail_out = (uInt)(capacity - size);
        status = inflate(&stream, Z_NO_FLUSH);
        size = capacity - stream.avail_out;
        if (status == Z_BUF_ERROR && stream.avail_in == 0) break;
    }
    int whole = status == Z_STREAM_END && stream.avail_in == 0 && size <= limit;
    inflateEnd(&stream);
    if (!whole) {
        free(out);
        return NULL;
    }
    *inflated = size;
    return out;
}

enum codec_result codec_decode(const unsigned char *data, size_t n, const struct codec_options *o, struct codec_frame *frame,
                               struct codec_refusal *refusal) {
    if (n >= 4 && codec_be32(data) != MAGIC) return *refusal = refused("BAD_MAGIC", 0), CODEC_REFUSED;
    if (n >= 6 && (data[4] != o->version_major || data[5] > o->highest_minor)) return *refusal = refused("VERSION_UNSUPPORTED", 4), CODEC_REFUSED;
    if (n < CODEC_HEADER_SIZE) return CODEC_PARTIAL;
    struct codec_header h = {
        .version_major = data[4], .version_minor = data[5], .msg_type = codec_be16(data + 6),
        .sequence = codec_be32(data + 8), .timestamp = codec_be32(data + 12), .encrypt = data[16], .compress = data[17],
        .session = codec_be16(data + 18), .body_length = codec_be32(data + 20), .checksum = codec_be32(data + 24),
    };
    if (h.body_length > o->body_limit) return *refusal = refused("BODY_TOO_LARGE", 20), CODEC_REFUSED;
    if (h.encrypt > 2 || (h.encrypt == 2 && !o->accepts_encrypted_bodies)) return *refusal = refused("UNSUPPORTED_ENCRYPTION", 16), CODEC_REFUSED;
    if (h.compress > 1) return *refusal = refused("UNSUPPORTED_COMPRESSION", 17), CODEC_REFUSED;
    if (o->has_window) {
        long long distance = (long long)h.timestamp - o->window_now;
        if (distance < 0) distance = -distance;
        if (distance > o->window_seconds) return *refusal = refused("TIMESTAMP_OUT_OF_WINDOW", 12), CODEC_REFUSED;
    }
    if (n - CODEC_HEADER_SIZE < h.body_length) return CODEC_PARTIAL;
    const unsigned char *body = data + CODEC_HEADER_SIZE;
    uint32_t computed = h.body_length ? (uint32_t)crc32(0L, body, (uInt)h.body_length) : 0;
    if (computed != h.checksum) return *refusal = refused("CHECKSUM_MISMATCH", 24), CODEC_REFUSED;
    *frame = (struct codec_frame){.header = h, .payload = body, .payload_length = h.body_length, .length = CODEC_HEADER_SIZE + h.body_length};
    int compressed = h.compress == 1 && h.body_length > 0 && h.encrypt != 2;
    if (compressed) {
        frame->inflated = inflate_body(body, h.body_length, o->body_limit, &frame->payload_length);
        if (!frame->inflated) return *refusal = refused("DECOMPRESSION_FAILED", 28), CODEC_REFUSED;
        frame->payload = frame->inflated;
    }
    if (h.encrypt != 2 && check_tlv(frame->payload, frame->payload_length, 0, 0, o, compressed, refusal)) {
        codec_frame_free(frame);
        return CODEC_REFUSED;
    }
    return CODEC_FRAME;
}

void codec_frame_free(struct codec_frame *frame) {
    free(frame->inflated);
    frame->inflated = NULL;
}

unsigned char *codec_encode(const struct codec_header *header, const unsigned char *payload, size_t payload_length, size_t *length) {
    const unsigned char *body = payload;
    size_t body_length = payload_length;
    unsigned char *deflated = NULL;
    if (header->compress == 1 && payload_length > 0 && header->encrypt != 2) {
        uLongf bound = compressBound((uLong)payload_length);
        deflated = malloc(bound);
        if (!deflated || compress2(deflated, &bound, payload, (uLong)payload_length, Z_DEFAULT_COMPRESSION) != Z_OK) {
            free(deflated);
            return NULL;
        }
        body = deflated;
        body_length = bound;
    }
    unsigned char *frame = malloc(CODEC_HEADER_SIZE + body_length);
    if (frame) {
        codec_put32(frame, MAGIC);
        frame[4] = (unsigned char)header->version_major;
        frame[5] = (unsigned char)header->version_minor;
        codec_put16(frame + 6, (uint16_t)header->msg_type);
        codec_put32(frame + 8, header->sequence);
        codec_put32(frame + 12, header->timestamp);
        frame[16] = (unsigned char)header->encrypt, frame[17] = (unsigned char)header->compress;
        codec_put16(frame + 18, (uint16_t)header->session);
        codec_put32(frame + 20, (uint32_t)body_length);
        codec_put32(frame + 24, body_length ? (uint32_t)crc32(0L, body, (uInt)body_length) : 0);
        if (body_length) memcpy(frame + CODEC_HEADER_SIZE, body, body_length);
        *length = CODEC_HEADER_SIZE + body_length;
    }
    free(deflated);
    return frame;
}

unsigned char *codec_encode_field(const struct codec_header *header, unsigned tag, const unsigned char *value, size_t value_length, size_t *length) {
    unsigned char payload[6 + 64];
    size_t payload_length = 0;
    if (tag) {
        if (value_length > 64) value_length = 64;
        codec_put16(payload, (uint16_t)tag);
        codec_put32(payload + 2, (uint32_t)value_length);
        memcpy(payload + 6, value, value_length);
        payload_length = 6 + value_length;
    }
    return codec_encode(header, payload, payload_length, length);
}

int codec_next_field(const unsigned char *payload, size_t length, size_t *at, unsigned *tag, const unsigned char **value, uint32_t *value_length) {
    if (*at > length || length - *at < 6) return 0;
    *tag = codec_be16(payload + *at);
    *value_length = codec_be32(payload + *at + 2);
    /* A value past the payload's end is never handed on, whatever checked the payload before. */
    if (*value_length > length - *at - 6) return 0;
    *value = payload + *at + 6;
    *at += 6 + (size_t)*value_length;
    return 1;
}
