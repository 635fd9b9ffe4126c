#ifndef DECAF_BASELINE_H
#define DECAF_BASELINE_H

#include <stddef.h>
#include <stdint.h>

/* What the baseline decoder made of a buffer of frames. */
typedef struct {
    uint64_t frames;   /* frames decoded */
    uint64_t fields;   /* TLV fields walked, nested ones included */
    uint64_t checksum; /* sum of the frames' sequences, so nothing can be optimised away */
    int error;         /* 0, or the brief's error code of the first bad frame */
} decaf_baseline_result;

/* Decodes every complete uncompressed frame in p[0..n) with the receiver rules of wire-v1
 * (header checks in the brief's order, CRC-32 with libdeflate, TLV walk with depth limit 4 and
 * duplicate tags rejected): the C yardstick for DecafWire's streaming decoder. */
decaf_baseline_result decaf_baseline_decode(const uint8_t *p, size_t n, uint32_t body_limit);

/* libdeflate's CRC-32 of p[0..n), for calling it from Swift without DecafWire in between. */
uint32_t decaf_baseline_crc32(const void *p, size_t n);

#endif
