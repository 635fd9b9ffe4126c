/*
 * A Decaf codec in C speaking the testee protocol of Specs/conform-testee.md on stdin/stdout, as
 * tools/reference/testee.py does in Python: a decode request is answered with the frame or the
 * brief's first error, an encode request with the frame's bytes. Built with a C compiler and zlib:
 *
 *     cc -O2 -o .build/testee-c tools/reference/testee.c -lz
 *     decaf conform decoder -- .build/testee-c
 *
 * or with afl-clang-fast instead of cc, for a testee that reports its coverage to AFL++.
 *
 * With --plant it makes two rare mistakes on purpose, for the fuzzers to find (no golden vector
 * holds either): it aborts on a body in clear whose container nested four deep holds an empty
 * TEXT (behind the checksum: only a frame whose CRC-32 holds gets there), and on a zlib body that
 * inflates to a TEXT field that is not UTF-8 (inside a compressed body).
 *
 * With --raw it reads one stream of bytes (not the testee protocol) from stdin, decodes it with
 * the brief's default options, answers once and exits: the harness afl-fuzz runs, so AFL++ and
 * decaf fuzz decoder --coverage fuzz the same instrumented code (make bench-fuzz).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { HEADER_SIZE = 28, CONTAINER = 0xFFFF, TEXT = 0x1001 };
#define MAGIC 0xDECAFBADu

struct options {
    unsigned long long body_limit;
    unsigned long long depth_limit;
    int allow_duplicate_tags;
    unsigned long long version_major;
    unsigned long long highest_minor;
    int accepts_encrypted_bodies;
    int has_window;
    long long window_seconds;
    long long window_now;
};

/* The brief's refusal: an error's name and offset. */
struct refusal {
    const char *error;
    long long offset;
};

static int planted;

/* A planted mistake's crash, as an assertion's: its last words on standard error, then SIGABRT. */
static void planted_abort(const char *what) {
    fprintf(stderr, "testee-c: check_tlv: %s\n", what);
    abort();
}

/* The value after "key": in `line` (the requests are Decaf's: each key appears once), or NULL. */
static const char *value_of(const char *line, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(line, pattern);
    return at ? at + strlen(pattern) : NULL;
}

static unsigned long long number(const char *line, const char *key, unsigned long long fallback) {
    const char *at = value_of(line, key);
    return at ? strtoull(at, NULL, 10) : fallback;
}

static long long signed_number(const char *line, const char *key, long long fallback) {
    const char *at = value_of(line, key);
    return at ? strtoll(at, NULL, 10) : fallback;
}

static int flag(const char *line, const char *key) {
    const char *at = value_of(line, key);
    return at && strncmp(at, "true", 4) == 0;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The bytes of the hex string after "key":", in a buffer the caller frees; NULL when malformed. */
static unsigned char *hex_bytes(const char *line, const char *key, size_t *count) {
    const char *at = value_of(line, key);
    if (!at || *at != '"') return NULL;
    at++;
    const char *end = strchr(at, '"');
    if (!end || (end - at) % 2) return NULL;
    *count = (size_t)(end - at) / 2;
    unsigned char *bytes = malloc(*count ? *count : 1);
    if (!bytes) return NULL;
    for (size_t i = 0; i < *count; i++) {
        int high = hex_digit(at[2 * i]), low = hex_digit(at[2 * i + 1]);
        if (high < 0 || low < 0) {
            free(bytes);
            return NULL;
        }
        bytes[i] = (unsigned char)(high << 4 | low);
    }
    return bytes;
}

static uint32_t be32(const unsigned char *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint16_t be16(const unsigned char *p) { return (uint16_t)(p[0] << 8 | p[1]); }

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
static int check_tlv(const unsigned char *body, size_t length, unsigned long long depth, size_t base, const struct options *o,
                     int compressed, struct refusal *out) {
    /* The tags seen in this sequence, a bit each. */
    unsigned char *seen = o->allow_duplicate_tags ? NULL : calloc(65536 / 8, 1);
    size_t at = 0;
    int refused = 0;
    while (at < length && !refused) {
        if (length - at < 6) {
            *out = (struct refusal){"TLV_TRUNCATED", (long long)(base + at)};
            refused = 1;
            break;
        }
        uint16_t tag = be16(body + at);
        uint32_t value_length = be32(body + at + 2);
        if (value_length > length - at - 6) {
            *out = (struct refusal){"TLV_LENGTH_OVERFLOW", (long long)(base + at)};
            refused = 1;
            break;
        }
        if (seen) {
            if (seen[tag >> 3] & (1 << (tag & 7))) {
                *out = (struct refusal){"TLV_DUPLICATE_TAG", (long long)(base + at)};
                refused = 1;
                break;
            }
            seen[tag >> 3] |= (unsigned char)(1 << (tag & 7));
        }
        const unsigned char *value = body + at + 6;
        if (tag == CONTAINER) {
            if (depth + 1 > o->depth_limit) {
                *out = (struct refusal){"TLV_TOO_DEEP", (long long)(base + at)};
                refused = 1;
                break;
            }
            refused = check_tlv(value, value_length, depth + 1, base + at + 6, o, compressed, out);
        } else if (tag == TEXT && planted) {
            if (!compressed && depth == 4 && value_length == 0) planted_abort("an empty TEXT four containers deep");
            if (compressed && !is_utf8(value, value_length)) planted_abort("a TEXT in a zlib body that is not UTF-8");
        }
        at += 6 + (size_t)value_length;
    }
    free(seen);
    return refused;
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

static void write_hex(const unsigned char *bytes, size_t count) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < count; i++) {
        putchar(digits[bytes[i] >> 4]);
        putchar(digits[bytes[i] & 15]);
    }
}

static int answer_refusal(struct refusal refusal) {
    printf("{\"result\":\"error\",\"error\":\"%s\",\"offset\":%lld}\n", refusal.error, refusal.offset);
    return 0;
}

/* Decodes one frame's stream as a receiver with `o` would, then ends it, and answers. */
static int decode(const unsigned char *data, size_t n, const struct options *o) {
    struct refusal refusal;
    if (n >= 4 && be32(data) != MAGIC) return answer_refusal((struct refusal){"BAD_MAGIC", 0});
    if (n >= 6 && (data[4] != o->version_major || data[5] > o->highest_minor)) return answer_refusal((struct refusal){"VERSION_UNSUPPORTED", 4});
    if (n < HEADER_SIZE) return answer_refusal((struct refusal){"TRUNCATED_FRAME", 0});
    uint32_t sequence = be32(data + 8), timestamp = be32(data + 12), body_length = be32(data + 20), checksum = be32(data + 24);
    unsigned encrypt = data[16], compress = data[17];
    if (body_length > o->body_limit) return answer_refusal((struct refusal){"BODY_TOO_LARGE", 20});
    if (encrypt > 2 || (encrypt == 2 && !o->accepts_encrypted_bodies)) return answer_refusal((struct refusal){"UNSUPPORTED_ENCRYPTION", 16});
    if (compress > 1) return answer_refusal((struct refusal){"UNSUPPORTED_COMPRESSION", 17});
    if (o->has_window) {
        long long distance = (long long)timestamp - o->window_now;
        if (distance < 0) distance = -distance;
        if (distance > o->window_seconds) return answer_refusal((struct refusal){"TIMESTAMP_OUT_OF_WINDOW", 12});
    }
    if (n - HEADER_SIZE < body_length) return answer_refusal((struct refusal){"TRUNCATED_FRAME", 0});
    const unsigned char *body = data + HEADER_SIZE;
    uint32_t computed = body_length ? (uint32_t)crc32(0L, body, (uInt)body_length) : 0;
    if (computed != checksum) return answer_refusal((struct refusal){"CHECKSUM_MISMATCH", 24});
    const unsigned char *payload = body;
    size_t payload_length = body_length;
    unsigned char *inflated = NULL;
    int compressed = compress == 1 && body_length > 0 && encrypt != 2;
    if (compressed) {
        inflated = inflate_body(body, body_length, o->body_limit, &payload_length);
        if (!inflated) return answer_refusal((struct refusal){"DECOMPRESSION_FAILED", 28});
        payload = inflated;
    }
    if (encrypt != 2 && check_tlv(payload, payload_length, 0, 0, o, compressed, &refusal)) {
        free(inflated);
        return answer_refusal(refusal);
    }
    printf("{\"result\":\"frame\",\"header\":{\"magic\":%u,\"versionMajor\":%u,\"versionMinor\":%u,\"msgType\":%u,\"sequence\":%u,"
           "\"sequenceCategory\":%u,\"sequenceCounter\":%u,\"timestamp\":%u,\"encryptType\":%u,\"compressType\":%u,\"sessionId\":%u,"
           "\"bodyLength\":%u,\"checksum\":%u},\"payload\":\"",
           be32(data), data[4], data[5], be16(data + 6), sequence, sequence >> 24, sequence & 0xFFFFFF, timestamp, encrypt, compress,
           be16(data + 18), body_length, checksum);
    write_hex(payload, payload_length);
    printf("\"}\n");
    free(inflated);
    return 0;
}

static void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16), p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* Encodes the header fields and payload of an encode request into a frame, and answers. */
static void encode(const char *line) {
    size_t payload_length = 0;
    unsigned char *payload = hex_bytes(line, "payload", &payload_length);
    if (!payload) {
        printf("{\"result\":\"skipped\",\"reason\":\"the payload is not hex\"}\n");
        return;
    }
    const char *header = value_of(line, "header");
    unsigned encrypt = (unsigned)number(header, "encryptType", 0), compress = (unsigned)number(header, "compressType", 0);
    unsigned char *body = payload;
    size_t body_length = payload_length;
    unsigned char *deflated = NULL;
    if (compress == 1 && payload_length > 0 && encrypt != 2) {
        uLongf bound = compressBound((uLong)payload_length);
        deflated = malloc(bound);
        if (!deflated || compress2(deflated, &bound, payload, (uLong)payload_length, Z_DEFAULT_COMPRESSION) != Z_OK) {
            printf("{\"result\":\"skipped\",\"reason\":\"zlib could not compress the payload\"}\n");
            free(deflated);
            free(payload);
            return;
        }
        body = deflated;
        body_length = bound;
    }
    unsigned char head[HEADER_SIZE];
    put32(head, MAGIC);
    head[4] = (unsigned char)number(header, "versionMajor", 1);
    head[5] = (unsigned char)number(header, "versionMinor", 0);
    unsigned type = (unsigned)number(header, "msgType", 0);
    head[6] = (unsigned char)(type >> 8), head[7] = (unsigned char)type;
    put32(head + 8, (uint32_t)number(header, "sequence", 0));
    put32(head + 12, (uint32_t)number(header, "timestamp", 0));
    head[16] = (unsigned char)encrypt, head[17] = (unsigned char)compress;
    unsigned session = (unsigned)number(header, "sessionId", 0);
    head[18] = (unsigned char)(session >> 8), head[19] = (unsigned char)session;
    put32(head + 20, (uint32_t)body_length);
    put32(head + 24, body_length ? (uint32_t)crc32(0L, body, (uInt)body_length) : 0);
    printf("{\"result\":\"bytes\",\"hex\":\"");
    write_hex(head, HEADER_SIZE);
    write_hex(body, body_length);
    printf("\"}\n");
    free(deflated);
    free(payload);
}

/* --raw: one stream from stdin, decoded with the brief's defaults. */
static int decode_raw(void) {
    size_t count = 0, capacity = 1 << 16;
    unsigned char *bytes = malloc(capacity);
    size_t got;
    while (bytes && (got = fread(bytes + count, 1, capacity - count, stdin)) > 0) {
        count += got;
        if (count == capacity) {
            unsigned char *grown = capacity < (64u << 20) ? realloc(bytes, capacity *= 2) : NULL;
            if (!grown) break;
            bytes = grown;
        }
    }
    if (!bytes) return 1;
    struct options o = {.body_limit = 10485760, .depth_limit = 4, .version_major = 1};
    decode(bytes, count, &o);
    free(bytes);
    return 0;
}

int main(int argc, char **argv) {
    int raw = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--plant") == 0) {
            planted = 1;
        } else if (strcmp(argv[i], "--raw") == 0) {
            raw = 1;
        } else {
            fprintf(stderr, "testee-c: unknown option %s; the options are --plant and --raw\n", argv[i]);
            return 2;
        }
    }
    if (raw) return decode_raw();
    char *line = NULL;
    size_t capacity = 0;
    while (getline(&line, &capacity, stdin) > 0) {
        if (strstr(line, "\"op\":\"encode\"")) {
            encode(line);
        } else {
            struct options o = {
                .body_limit = number(line, "bodyLimit", 10485760),
                .depth_limit = number(line, "depthLimit", 4),
                .allow_duplicate_tags = flag(line, "allowDuplicateTags"),
                .version_major = number(line, "versionMajor", 1),
                .highest_minor = number(line, "highestMinor", 0),
                .accepts_encrypted_bodies = flag(line, "acceptsEncryptedBodies"),
                .has_window = value_of(line, "timestampWindow") != NULL,
                .window_seconds = signed_number(line, "seconds", 0),
                .window_now = signed_number(line, "now", 0),
            };
            size_t count = 0;
            unsigned char *bytes = hex_bytes(line, "hex", &count);
            if (bytes) {
                decode(bytes, count, &o);
                free(bytes);
            } else {
                printf("{\"result\":\"skipped\",\"reason\":\"the request holds no hex stream\"}\n");
            }
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
