/*
 * The C reference codec's frame rules (the brief, sections 1, 2, 5, 6 and 8), shared by the codec
 * testee (testee.c) and the server (server.c): a frame decoded from a stream, or the brief's first
 * error, and a frame's bytes from its header fields and payload. Plain C11 and zlib.
 */
#ifndef DECAF_REFERENCE_CODEC_H
#define DECAF_REFERENCE_CODEC_H

#include <stddef.h>
#include <stdint.h>

enum { CODEC_HEADER_SIZE = 28 };

/* What a receiver allows: the brief's defaults unless a request says otherwise. */
struct codec_options {
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

/* The brief's defaults: 10 MiB bodies, depth 4, no repeated tags, version 1.0, no window. */
struct codec_options codec_default_options(void);

/* The brief's refusal: an error's name, its code (section 8) and its offset. */
struct codec_refusal {
    const char *error;
    unsigned code;
    long long offset;
};

/* A frame's header fields as sent. */
struct codec_header {
    unsigned version_major, version_minor, msg_type;
    uint32_t sequence, timestamp;
    unsigned encrypt, compress, session;
    uint32_t body_length, checksum;
};

/* A frame taken: its header, its (inflated) payload, and the bytes of the stream it took. */
struct codec_frame {
    struct codec_header header;
    const unsigned char *payload;
    size_t payload_length;
    size_t length;
    unsigned char *inflated;
};

enum codec_result { CODEC_FRAME, CODEC_REFUSED, CODEC_PARTIAL };

/*
 * The first frame of the stream `data` as a receiver with `o` takes it: CODEC_FRAME (free it with
 * codec_frame_free), CODEC_REFUSED with the brief's first error in `refusal`, or CODEC_PARTIAL
 * when more bytes are needed to tell (a header judged as soon as its fields are in).
 */
enum codec_result codec_decode(const unsigned char *data, size_t n, const struct codec_options *o, struct codec_frame *frame,
                               struct codec_refusal *refusal);
void codec_frame_free(struct codec_frame *frame);

/* The refusal a stream that ends within a frame gets (FRAME-3). */
struct codec_refusal codec_truncated(void);

/*
 * A frame's bytes (malloc'd, *length set): `header`'s fields, the body `payload` zlib-compressed
 * when compress is 1 (and the body in clear), body_length and the CRC-32 computed. NULL when zlib
 * fails or memory runs out.
 */
unsigned char *codec_encode(const struct codec_header *header, const unsigned char *payload, size_t payload_length, size_t *length);

/*
 * The bytes (malloc'd, *length set) of a frame in clear whose body is one TLV field `tag` with
 * `value` (at most 64 bytes of it), or empty when `tag` is 0: the replies a peer sends (an ACK,
 * a VERSION_RESPONSE, an ERROR, a READ_RECEIPT).
 */
unsigned char *codec_encode_field(const struct codec_header *header, unsigned tag, const unsigned char *value, size_t value_length, size_t *length);

/*
 * The next top-level TLV field of a payload from `*at`: its tag, value and value's length; 0 when
 * there is none, or when its length runs past the payload (the codec took the payload, so every
 * length holds, but a length is never trusted twice). `*at` moves past it.
 */
int codec_next_field(const unsigned char *payload, size_t length, size_t *at, unsigned *tag, const unsigned char **value, uint32_t *value_length);

uint32_t codec_be32(const unsigned char *p);
uint16_t codec_be16(const unsigned char *p);
void codec_put32(unsigned char *p, uint32_t v);
void codec_put16(unsigned char *p, uint16_t v);

/*
 * With this set, the codec makes two rare mistakes on purpose, for the fuzzers to find: it aborts
 * on a body in clear whose container nested four deep holds an empty TEXT (behind the checksum),
 * and on a zlib body that inflates to a TEXT field that is not UTF-8 (inside a compressed body).
 * The program's name heads the abort's last words.
 */
extern int codec_planted;
extern const char *codec_program;

#endif
