/*
 * A Decaf server in C, as `decaf peer` is one in Swift: section 7 of the brief over TCP, with the
 * frame rules of codec.c. It answers a VERSION_REQUEST (version 1.0; BASIC, COMPRESSION,
 * READ_RECEIPT and GROUP_CHAT, since it cannot decrypt), acknowledges DATA, CONTROL, READ_RECEIPT
 * and HEARTBEAT frames once, a repeat again without delivering it (REPLAY-1), sends a read receipt
 * for each DATA frame delivered once they are agreed, and on a fatal error sends an ERROR and
 * closes. Built with a C compiler and zlib:
 *
 *     cc -O2 -o .build/server-c tools/reference/server.c tools/reference/codec.c -lz
 *     .build/server-c --listen 127.0.0.1:7300 &
 *     decaf conform server 127.0.0.1:7300
 *
 * or with afl-clang-fast instead of cc, for a server that reports its coverage to AFL++: started by
 * `decaf fuzz server --coverage --restart '.build/server-c --listen 127.0.0.1:7300' 127.0.0.1:7300`.
 * Its first line is the address it listens on; port 0 picks a free one.
 *
 * With --plant the codec makes its two planted mistakes (codec.h): a frame that sets one off kills
 * the server, for the fuzzers to find.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "codec.h"

enum {
    DATA = 0, HEARTBEAT = 1, ACK = 2, CONTROL = 3, READ_RECEIPT = 4,
    VERSION_REQUEST = 0x0001, VERSION_RESPONSE = 0x0002, READ_RECEIPT_TAG = 0x0010, ERROR_TAG = 0x00E0,
    FEATURE_READ_RECEIPT = 0x0008, FEATURES = 0x0001 | 0x0004 | 0x0008 | 0x0010,
    CONNECTIONS = 256, CONTROL_KEYS = 64, DATA_KEYS = 4096, READ_SIZE = 65536, IDLE_SECONDS = 90,
};

/* A frame's identity for REPLAY-1. */
struct key {
    unsigned session;
    uint32_t sequence, timestamp;
};

/* The last `count` keys seen, oldest overwritten first. */
struct memory {
    struct key *keys;
    size_t count, next, capacity;
};

struct connection {
    int fd;
    unsigned char *buffer;
    size_t used, capacity;
    int agreed;
    unsigned minor;
    unsigned features;
    unsigned last_session;
    time_t active;
    /* CONTROL frames are remembered per connection: a handshake on a new one is answered. */
    struct key control_keys[CONTROL_KEYS];
    struct memory controls;
};

static struct codec_options options;
/* DATA and READ_RECEIPT frames are remembered across connections: a resend is not delivered twice. */
static struct key data_keys[DATA_KEYS];
static struct memory data_memory = {data_keys, 0, 0, DATA_KEYS};
static uint32_t control_counter, normal_counter;

/* Whether `key` is new to `memory`, which remembers it from now on. */
static int remember(struct memory *memory, struct key key) {
    for (size_t i = 0; i < memory->count; i++) {
        const struct key *seen = &memory->keys[i];
        if (seen->session == key.session && seen->sequence == key.sequence && seen->timestamp == key.timestamp) return 0;
    }
    memory->keys[memory->next] = key;
    memory->next = (memory->next + 1) % memory->capacity;
    if (memory->count < memory->capacity) memory->count++;
    return 1;
}

/* Writes all of `bytes`, or closes the connection (a peer that reads nothing for 2 s is dropped). */
static void put(struct connection *c, const unsigned char *bytes, size_t length) {
    while (c->fd >= 0 && length > 0) {
        ssize_t sent = send(c->fd, bytes, length, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) {
            close(c->fd);
            c->fd = -1;
            return;
        }
        bytes += sent;
        length -= (size_t)sent;
    }
}

/* Sends a frame of `type` with `sequence` and one TLV field (none when `tag` is 0), in the
 * version agreed (1.0 before a handshake, VER-3). */
static void send_frame(struct connection *c, unsigned type, uint32_t sequence, unsigned session, unsigned tag, const unsigned char *value,
                       size_t value_length) {
    struct codec_header header = {.version_major = 1, .version_minor = c->agreed ? c->minor : 0, .msg_type = type, .sequence = sequence,
                                  .timestamp = (uint32_t)time(NULL), .session = session};
    size_t length = 0;
    unsigned char *frame = codec_encode_field(&header, tag, value, value_length, &length);
    if (frame) put(c, frame, length);
    free(frame);
}

/* An ACK: the frame's sequence and session, an empty body (EX-1, EX-2). */
static void acknowledge(struct connection *c, const struct codec_header *h) { send_frame(c, ACK, h->sequence, h->session, 0, NULL, 0); }

static uint32_t next_control(void) { return 2u << 24 | (control_counter = (control_counter + 1) & 0xFFFFFF); }

/* An ERROR in a CONTROL frame, then the close (EX-5). */
static void fail(struct connection *c, struct codec_refusal refusal) {
    unsigned char value[64];
    size_t reason = strlen(refusal.error);
    codec_put16(value, (uint16_t)refusal.code);
    memcpy(value + 2, refusal.error, reason);
    send_frame(c, CONTROL, next_control(), c->last_session, ERROR_TAG, value, 2 + reason);
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
}

/* Answers a VERSION_REQUEST among the top-level fields of `frame` (HS-2), if it holds one. */
static void handshake(struct connection *c, const struct codec_frame *frame) {
    size_t at = 0;
    unsigned tag;
    const unsigned char *value;
    uint32_t length;
    while (codec_next_field(frame->payload, frame->payload_length, &at, &tag, &value, &length)) {
        if (tag == VERSION_REQUEST) {
            if (length != 4) return;
            unsigned char response[4];
            int same_major = value[0] == 1;
            unsigned minor = 0, features = same_major ? (codec_be16(value + 2) & FEATURES) : 0;
            codec_put16(response, (uint16_t)(1 << 8 | minor));
            codec_put16(response + 2, (uint16_t)features);
            if (same_major) c->agreed = 1, c->minor = minor, c->features = features;
            send_frame(c, CONTROL, next_control(), frame->header.session, VERSION_RESPONSE, response, 4);
            if (!same_major && c->fd >= 0) {
                close(c->fd);
                c->fd = -1;
            }
            return;
        }
    }
}

/* What a frame taken asks of the server (section 7). */
static void serve(struct connection *c, const struct codec_frame *frame) {
    const struct codec_header *h = &frame->header;
    c->last_session = h->session;
    switch (h->msg_type) {
    case ACK:
        return;
    case HEARTBEAT:
        acknowledge(c, h);
        return;
    case DATA:
    case CONTROL:
    case READ_RECEIPT: {
        struct key key = {h->session, h->sequence, h->timestamp};
        int fresh = remember(h->msg_type == CONTROL ? &c->controls : &data_memory, key);
        acknowledge(c, h);
        if (!fresh || c->fd < 0) return;
        if (h->msg_type == CONTROL) handshake(c, frame);
        if (h->msg_type == DATA && c->agreed && (c->features & FEATURE_READ_RECEIPT)) {
            unsigned char read[4];
            codec_put32(read, h->sequence);
            normal_counter = (normal_counter + 1) & 0xFFFFFF;
            send_frame(c, READ_RECEIPT, normal_counter, h->session, READ_RECEIPT_TAG, read, 4);
        }
        return;
    }
    default:
        return; /* FRAME-4, EX-3: checked, skipped, not acknowledged. */
    }
}

/* Reads what arrived and serves every whole frame; at the stream's end, a frame cut short is refused. */
static void receive(struct connection *c) {
    if (c->capacity - c->used < READ_SIZE) {
        unsigned char *grown = realloc(c->buffer, c->used + READ_SIZE);
        if (!grown) {
            close(c->fd);
            c->fd = -1;
            return;
        }
        c->buffer = grown;
        c->capacity = c->used + READ_SIZE;
    }
    ssize_t got = recv(c->fd, c->buffer + c->used, READ_SIZE, 0);
    if (got < 0 && errno == EINTR) return;
    if (got <= 0) {
        if (got == 0 && c->used > 0) {
            fail(c, codec_truncated());
        } else {
            close(c->fd);
            c->fd = -1;
        }
        return;
    }
    c->used += (size_t)got;
    c->active = time(NULL);
    size_t taken = 0;
    while (c->fd >= 0) {
        struct codec_frame frame;
        struct codec_refusal refusal;
        enum codec_result result = codec_decode(c->buffer + taken, c->used - taken, &options, &frame, &refusal);
        if (result == CODEC_PARTIAL) break;
        if (result == CODEC_REFUSED) {
            fail(c, refusal);
            break;
        }
        serve(c, &frame);
        taken += frame.length;
        codec_frame_free(&frame);
    }
    if (c->fd >= 0) {
        memmove(c->buffer, c->buffer + taken, c->used - taken);
        c->used -= taken;
    }
}

/* The listening socket on `address` (HOST:PORT), its address printed as the first line. */
static int listen_on(const char *address) {
    char host[64];
    const char *colon = strrchr(address, ':');
    if (!colon || (size_t)(colon - address) >= sizeof host) return -1;
    memcpy(host, address, (size_t)(colon - address));
    host[colon - address] = 0;
    struct sockaddr_in where = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(colon + 1))};
    if (inet_pton(AF_INET, host, &where.sin_addr) != 1) return -1;
    int fd = socket(AF_INET, SOCK_STREAM, 0), yes = 1;
    if (fd < 0) return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    socklen_t size = sizeof where;
    if (bind(fd, (struct sockaddr *)&where, sizeof where) != 0 || listen(fd, 128) != 0 || getsockname(fd, (struct sockaddr *)&where, &size) != 0) {
        close(fd);
        return -1;
    }
    printf("listening on %s:%u\n", host, ntohs(where.sin_port));
    fflush(stdout);
    return fd;
}

int main(int argc, char **argv) {
    codec_program = "server-c";
    const char *address = "127.0.0.1:0";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--plant") == 0) {
            codec_planted = 1;
        } else if (strcmp(argv[i], "--listen") == 0 && i + 1 < argc) {
            address = argv[++i];
        } else {
            fprintf(stderr, "server-c: unknown option %s; the options are --listen HOST:PORT and --plant\n", argv[i]);
            return 2;
        }
    }
    options = codec_default_options();
    int listener = listen_on(address);
    if (listener < 0) {
        fprintf(stderr, "server-c: cannot listen on %s: %s\n", address, strerror(errno));
        return 1;
    }
    static struct connection connections[CONNECTIONS];
    struct pollfd polled[CONNECTIONS + 1];
    for (;;) {
        size_t count = 0;
        polled[count++] = (struct pollfd){.fd = listener, .events = POLLIN};
        for (size_t i = 0; i < CONNECTIONS; i++) polled[count++] = (struct pollfd){.fd = connections[i].fd > 0 ? connections[i].fd : -1, .events = POLLIN};
        if (poll(polled, count, 1000) < 0 && errno != EINTR) return 1;
        time_t now = time(NULL);
        for (size_t i = 0; i < CONNECTIONS; i++) {
            struct connection *c = &connections[i];
            if (c->fd <= 0) continue;
            if (polled[i + 1].revents) receive(c);
            else if (now - c->active > IDLE_SECONDS) close(c->fd), c->fd = -1; /* EX-6 */
            if (c->fd < 0) {
                free(c->buffer);
                *c = (struct connection){0};
            }
        }
        if (polled[0].revents & POLLIN) {
            int fd = accept(listener, NULL, NULL);
            if (fd < 0) continue;
            struct connection *free_slot = NULL;
            for (size_t i = 0; i < CONNECTIONS && !free_slot; i++) {
                if (connections[i].fd <= 0) free_slot = &connections[i];
            }
            if (!free_slot) {
                close(fd);
                continue;
            }
            struct timeval patience = {.tv_sec = 2};
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &patience, sizeof patience);
            *free_slot = (struct connection){.fd = fd, .active = time(NULL)};
            free_slot->controls = (struct memory){free_slot->control_keys, 0, 0, CONTROL_KEYS};
        }
    }
}
