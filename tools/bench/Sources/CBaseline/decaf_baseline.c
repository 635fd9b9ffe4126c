#include "decaf_baseline.h"

#include <libdeflate.h>
#include <string.h>

static inline uint16_t be16(const uint8_t *p) { return (uint16_t)((uint16_t)p[0] << 8 | p[1]); }

static inline uint32_t be32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return __builtin_bswap32(v);
}

enum { DEPTH_LIMIT = 4, INLINE_TAGS = 8 };

/* Walks one TLV sequence; returns 0 or an error code. Up to 8 tags are kept in a small array,
 * beyond that in a 65,536-bit set, as a careful C implementation would. */
static int walk(const uint8_t *p, size_t pos, size_t end, int depth, uint64_t *fields) {
    uint16_t recent[INLINE_TAGS];
    uint64_t set[1024];
    int count = 0;
    while (pos < end) {
        if (end - pos < 6) return 8;                        /* TLV_TRUNCATED */
        uint16_t tag = be16(p + pos);
        uint32_t length = be32(p + pos + 2);
        if (length > end - pos - 6) return 9;               /* TLV_LENGTH_OVERFLOW */
        if (count < INLINE_TAGS) {
            for (int i = 0; i < count; i++)
                if (recent[i] == tag) return 11;            /* TLV_DUPLICATE_TAG */
            recent[count] = tag;
        } else {
            if (count == INLINE_TAGS) {
                memset(set, 0, sizeof set);
                for (int i = 0; i < INLINE_TAGS; i++) set[recent[i] >> 6] |= 1ull << (recent[i] & 63);
            }
            uint64_t bit = 1ull << (tag & 63);
            if (set[tag >> 6] & bit) return 11;
            set[tag >> 6] |= bit;
        }
        count++;
        if (tag == 0xFFFF) {
            if (depth >= DEPTH_LIMIT) return 10;            /* TLV_TOO_DEEP */
            int error = walk(p, pos + 6, pos + 6 + length, depth + 1, fields);
            if (error) return error;
        }
        (*fields)++;
        pos += 6 + (size_t)length;
    }
    return 0;
}

decaf_baseline_result decaf_baseline_decode(const uint8_t *p, size_t n, uint32_t body_limit) {
    decaf_baseline_result result = {0, 0, 0, 0};
    size_t pos = 0;
    while (n - pos >= 28) {
        const uint8_t *h = p + pos;
        if (be32(h) != 0xDECAFBADu) { result.error = 1; break; }
        if (h[4] != 1 || h[5] != 0) { result.error = 2; break; }
        uint32_t length = be32(h + 20);
        if (length > body_limit) { result.error = 3; break; }
        if (h[16] > 1) { result.error = 5; break; }         /* 2 (AES256) cannot be decrypted here */
        if (h[17] > 1) { result.error = 6; break; }
        if (n - pos - 28 < length) break;                   /* the rest has not arrived */
        if (libdeflate_crc32(0, h + 28, length) != be32(h + 24)) { result.error = 4; break; }
        if (h[17] == 1 && length > 0) { result.error = 7; break; } /* no inflating in the baseline */
        int error = walk(h, 28, 28 + (size_t)length, 0, &result.fields);
        if (error) { result.error = error; break; }
        result.frames++;
        result.checksum += be32(h + 8);
        pos += 28 + (size_t)length;
    }
    return result;
}

uint32_t decaf_baseline_crc32(const void *p, size_t n) { return libdeflate_crc32(0, p, n); }
