/*
 * A Decaf codec in C speaking the testee protocol of Specs/conform-testee.md on stdin/stdout, as
 * tools/reference/testee.py does in Python: a decode request is answered with the frame or the
 * brief's first error, an encode request with the frame's bytes (the rules are codec.c's). Built
 * with a C compiler and zlib:
 *
 *     cc -O2 -o .build/testee-c tools/reference/testee.c tools/reference/codec.c -lz
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

#include "codec.h"

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

static void write_hex(const unsigned char *bytes, size_t count) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < count; i++) {
        putchar(digits[bytes[i] >> 4]);
        putchar(digits[bytes[i] & 15]);
    }
}

/* Decodes one frame's stream as a receiver with `o` would, then ends it, and answers. */
static void decode(const unsigned char *data, size_t n, const struct codec_options *o) {
    struct codec_frame frame;
    struct codec_refusal refusal;
    switch (codec_decode(data, n, o, &frame, &refusal)) {
    case CODEC_PARTIAL:
        refusal = codec_truncated();
        /* fall through */
    case CODEC_REFUSED:
        printf("{\"result\":\"error\",\"error\":\"%s\",\"offset\":%lld}\n", refusal.error, refusal.offset);
        return;
    case CODEC_FRAME:
        break;
    }
    const struct codec_header *h = &frame.header;
    printf("{\"result\":\"frame\",\"header\":{\"magic\":%u,\"versionMajor\":%u,\"versionMinor\":%u,\"msgType\":%u,\"sequence\":%u,"
           "\"sequenceCategory\":%u,\"sequenceCounter\":%u,\"timestamp\":%u,\"encryptType\":%u,\"compressType\":%u,\"sessionId\":%u,"
           "\"bodyLength\":%u,\"checksum\":%u},\"payload\":\"",
           codec_be32(data), h->version_major, h->version_minor, h->msg_type, h->sequence, h->sequence >> 24, h->sequence & 0xFFFFFF, h->timestamp,
           h->encrypt, h->compress, h->session, h->body_length, h->checksum);
    write_hex(frame.payload, frame.payload_length);
    printf("\"}\n");
    codec_frame_free(&frame);
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
    struct codec_header h = {
        .version_major = (unsigned)number(header, "versionMajor", 1), .version_minor = (unsigned)number(header, "versionMinor", 0),
        .msg_type = (unsigned)number(header, "msgType", 0), .sequence = (uint32_t)number(header, "sequence", 0),
        .timestamp = (uint32_t)number(header, "timestamp", 0), .encrypt = (unsigned)number(header, "encryptType", 0),
        .compress = (unsigned)number(header, "compressType", 0), .session = (unsigned)number(header, "sessionId", 0),
    };
    size_t length = 0;
    unsigned char *frame = codec_encode(&h, payload, payload_length, &length);
    if (frame) {
        printf("{\"result\":\"bytes\",\"hex\":\"");
        write_hex(frame, length);
        printf("\"}\n");
    } else {
        printf("{\"result\":\"skipped\",\"reason\":\"zlib could not compress the payload\"}\n");
    }
    free(frame);
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
    struct codec_options o = codec_default_options();
    decode(bytes, count, &o);
    free(bytes);
    return 0;
}

int main(int argc, char **argv) {
    codec_program = "testee-c";
    int raw = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--plant") == 0) {
            codec_planted = 1;
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
            struct codec_options o = {
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
