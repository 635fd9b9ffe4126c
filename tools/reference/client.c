/*
 * The receiving half of a Decaf client in C, speaking the client testee protocol of
 * Specs/conform-client.md, with the frame rules of codec.c: it connects where it is told, sends
 * its VERSION_REQUEST (1.0; BASIC and COMPRESSION), takes the answer in either order (HS-2),
 * acknowledges every DATA, CONTROL, READ_RECEIPT and HEARTBEAT frame once (EX-1, EX-2), delivers a
 * DATA frame once per sequence and timestamp (REPLAY-1), reports an ERROR it is sent, and on bytes
 * that break the protocol reports the error, sends an ERROR and closes (EX-5); after any close it
 * connects again with a capped exponential backoff that carries jitter. It sends no messages of
 * its own: a case that asks it to is unsupported (exit 89), as are heartbeats. It is the client
 * `decaf fuzz client --coverage` is shown on. Built with a C compiler and zlib:
 *
 *     cc -O2 -o .build/client-c tools/reference/client.c tools/reference/codec.c -lz
 *     decaf conform client -- .build/client-c
 *
 * or with afl-clang-fast instead of cc, for a client that reports its coverage to AFL++. With
 * --plant the codec makes its two planted mistakes (codec.h), which kill the client.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "codec.h"

enum {
    DATA = 0, HEARTBEAT = 1, ACK = 2, CONTROL = 3, READ_RECEIPT = 4,
    VERSION_REQUEST = 0x0001, VERSION_RESPONSE = 0x0002, ERROR_TAG = 0x00E0,
    OFFERED = 0x0001 | 0x0004, SESSION = 1, REPLAY_KEYS = 4096, READ_SIZE = 65536,
};

enum link { DOWN, OPEN, READY };

static struct {
    struct sockaddr_in server;
    long long ack_timeout_ms, retries, backoff_base_ms, backoff_max_ms;
    int fd;
    enum link link;
    unsigned char *buffer;
    size_t used, capacity;
    unsigned minor, features;
    uint32_t control_counter, request;
    long long request_sent, reconnect_at, ready_since;
    long long request_sends;
    int attempt;
    struct { uint32_t sequence, timestamp; } replay[REPLAY_KEYS];
    size_t replay_count, replay_next;
} client;

static struct codec_options options;

/* Milliseconds of a clock that only goes forward. */
static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static long long setting(const char *name, long long fallback) {
    const char *value = getenv(name);
    return value && *value ? strtoll(value, NULL, 10) : fallback;
}

/* The features in `flags` as a JSON list of names. */
static void print_features(unsigned flags) {
    static const char *names[] = {"BASIC", "ENCRYPTION", "COMPRESSION", "READ_RECEIPT", "GROUP_CHAT"};
    printf("[");
    const char *comma = "";
    for (unsigned bit = 0; bit < 5; bit++) {
        if (flags & (1u << bit)) printf("%s\"%s\"", comma, names[bit]), comma = ",";
    }
    printf("]");
}

static void reconnect_later(void) {
    long long wait = client.backoff_base_ms << (client.attempt < 30 ? client.attempt : 30);
    if (wait > client.backoff_max_ms || wait < 0) wait = client.backoff_max_ms;
    client.attempt++;
    client.reconnect_at = now_ms() + wait / 2 + (wait > 1 ? rand() % (wait / 2 + 1) : 0);
}

/* The connection closed or broke: the next one comes after the backoff. */
static void lost(void) {
    if (client.fd >= 0) close(client.fd);
    client.fd = -1;
    client.link = DOWN;
    client.used = 0;
    if (client.ready_since && now_ms() - client.ready_since >= 10000) client.attempt = 0;
    client.ready_since = 0;
    reconnect_later();
}

static void put(const unsigned char *bytes, size_t length) {
    while (client.fd >= 0 && length > 0) {
        ssize_t sent = send(client.fd, bytes, length, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) {
            lost();
            return;
        }
        bytes += sent;
        length -= (size_t)sent;
    }
}

/* Sends a frame of `type` with `sequence` and at most one TLV field (none when `tag` is 0). */
static void send_frame(unsigned type, uint32_t sequence, unsigned session, unsigned tag, const unsigned char *value, size_t value_length) {
    struct codec_header header = {.version_major = 1, .version_minor = client.link == READY ? client.minor : 0, .msg_type = type,
                                  .sequence = sequence, .timestamp = (uint32_t)time(NULL), .session = session};
    size_t length = 0;
    unsigned char *frame = codec_encode_field(&header, tag, value, value_length, &length);
    if (frame) put(frame, length);
    free(frame);
}

static uint32_t next_control(void) { return 2u << 24 | (client.control_counter = (client.control_counter + 1) & 0xFFFFFF); }

static void send_request(void) {
    unsigned char offer[4];
    codec_put16(offer, 1 << 8);
    codec_put16(offer + 2, OFFERED);
    client.request_sent = now_ms();
    client.request_sends++;
    send_frame(CONTROL, client.request, SESSION, VERSION_REQUEST, offer, 4);
}

static void connect_now(void) {
    client.fd = socket(AF_INET, SOCK_STREAM, 0);
    if (client.fd < 0 || connect(client.fd, (struct sockaddr *)&client.server, sizeof client.server) != 0) {
        fprintf(stderr, "client-c: cannot connect: %s\n", strerror(errno));
        client.link = OPEN;
        lost();
        return;
    }
    int yes = 1;
    setsockopt(client.fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    client.link = OPEN;
    client.used = 0;
    client.request = next_control();
    client.request_sends = 0;
    send_request();
}

/* The server's bytes broke the protocol: tell the application, send an ERROR, close (EX-5). */
static void fatal(struct codec_refusal refusal) {
    printf("{\"event\":\"error\",\"error\":\"%s\"}\n", refusal.error);
    fflush(stdout);
    unsigned char value[64];
    size_t reason = strlen(refusal.error);
    codec_put16(value, (uint16_t)refusal.code);
    memcpy(value + 2, refusal.error, reason);
    send_frame(CONTROL, next_control(), SESSION, ERROR_TAG, value, 2 + reason);
    lost();
}

/* Delivers a DATA frame once per (sequence, timestamp) (REPLAY-1). */
static void deliver(const struct codec_frame *frame) {
    for (size_t i = 0; i < client.replay_count; i++) {
        if (client.replay[i].sequence == frame->header.sequence && client.replay[i].timestamp == frame->header.timestamp) return;
    }
    client.replay[client.replay_next].sequence = frame->header.sequence;
    client.replay[client.replay_next].timestamp = frame->header.timestamp;
    client.replay_next = (client.replay_next + 1) % REPLAY_KEYS;
    if (client.replay_count < REPLAY_KEYS) client.replay_count++;
    static const char digits[] = "0123456789abcdef";
    printf("{\"event\":\"delivered\",\"payload\":\"");
    for (size_t i = 0; i < frame->payload_length; i++) putchar(digits[frame->payload[i] >> 4]), putchar(digits[frame->payload[i] & 15]);
    printf("\"}\n");
    fflush(stdout);
}

/* A VERSION_RESPONSE (HS-2) or an ERROR (EX-5) among a CONTROL frame's top-level fields. */
static void control(const struct codec_frame *frame) {
    size_t at = 0;
    unsigned tag;
    const unsigned char *value;
    uint32_t length;
    while (codec_next_field(frame->payload, frame->payload_length, &at, &tag, &value, &length)) {
        if (tag == VERSION_RESPONSE && length == 4 && client.link == OPEN) {
            if (value[0] != 1) {
                fprintf(stderr, "client-c: the server speaks major %u: giving up\n", value[0]);
                exit(0);
            }
            client.minor = value[1];
            client.features = codec_be16(value + 2) & OFFERED;
            client.link = READY;
            client.ready_since = now_ms();
            printf("{\"event\":\"handshake\",\"version\":\"1.%u\",\"features\":", client.minor);
            print_features(client.features);
            printf("}\n");
            fflush(stdout);
        } else if (tag == ERROR_TAG && length >= 2) {
            printf("{\"event\":\"serverError\",\"code\":%u,\"reason\":\"", codec_be16(value));
            for (uint32_t i = 2; i < length; i++) {
                unsigned char c = value[i];
                if (c == '"' || c == '\\') printf("\\%c", c);
                else putchar(c >= 0x20 && c < 0x7F ? c : '?');
            }
            printf("\"}\n");
            fflush(stdout);
        }
    }
}

/* What a frame taken asks of the client. */
static void receive_frame(const struct codec_frame *frame) {
    const struct codec_header *h = &frame->header;
    switch (h->msg_type) {
    case ACK:
        return;
    case DATA:
    case HEARTBEAT:
    case CONTROL:
    case READ_RECEIPT:
        send_frame(ACK, h->sequence, h->session, 0, NULL, 0);
        if (client.fd < 0) return;
        if (h->msg_type == DATA) deliver(frame);
        if (h->msg_type == CONTROL) control(frame);
        return;
    default:
        return; /* FRAME-4, EX-3 */
    }
}

static void readable(void) {
    if (client.capacity - client.used < READ_SIZE) {
        unsigned char *grown = realloc(client.buffer, client.used + READ_SIZE);
        if (!grown) {
            lost();
            return;
        }
        client.buffer = grown;
        client.capacity = client.used + READ_SIZE;
    }
    ssize_t got = recv(client.fd, client.buffer + client.used, READ_SIZE, 0);
    if (got < 0 && errno == EINTR) return;
    if (got <= 0) {
        if (got == 0 && client.used > 0) fatal(codec_truncated());
        else lost();
        return;
    }
    client.used += (size_t)got;
    size_t taken = 0;
    while (client.fd >= 0) {
        struct codec_frame frame;
        struct codec_refusal refusal;
        enum codec_result result = codec_decode(client.buffer + taken, client.used - taken, &options, &frame, &refusal);
        if (result == CODEC_PARTIAL) break;
        if (result == CODEC_REFUSED) {
            fatal(refusal);
            return;
        }
        receive_frame(&frame);
        taken += frame.length;
        codec_frame_free(&frame);
    }
    if (client.fd >= 0) {
        memmove(client.buffer, client.buffer + taken, client.used - taken);
        client.used -= taken;
    }
}

/* A line of standard input: a message to send, which this client does not do. */
static void asked(const char *line) {
    if (!strstr(line, "\"send\"")) return;
    printf("{\"event\":\"unsupported\",\"reason\":\"client-c only receives: it sends no messages of its own\"}\n");
    fflush(stdout);
    exit(89);
}

int main(int argc, char **argv) {
    codec_program = "client-c";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--plant") == 0) {
            codec_planted = 1;
        } else {
            fprintf(stderr, "client-c: unknown option %s; the only option is --plant\n", argv[i]);
            return 2;
        }
    }
    const char *host = getenv("DECAF_CONFORM_HOST");
    client.server = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)setting("DECAF_CONFORM_PORT", 0))};
    if (!host || inet_pton(AF_INET, host, &client.server.sin_addr) != 1) {
        fprintf(stderr, "client-c: DECAF_CONFORM_HOST is not an IPv4 address\n");
        return 2;
    }
    client.ack_timeout_ms = setting("DECAF_CONFORM_ACK_TIMEOUT_MS", 1000);
    client.retries = setting("DECAF_CONFORM_RETRIES", 3);
    client.backoff_base_ms = setting("DECAF_CONFORM_RECONNECT_BASE_MS", 100);
    client.backoff_max_ms = setting("DECAF_CONFORM_RECONNECT_MAX_MS", 30000);
    client.fd = -1;
    options = codec_default_options();
    srand((unsigned)getpid());
    printf("{\"event\":\"ready\",\"ackTimeoutMs\":%lld,\"retries\":%lld,\"reconnectBaseMs\":%lld,\"reconnectMaxMs\":%lld,\"version\":\"1.0\",\"features\":",
           client.ack_timeout_ms, client.retries, client.backoff_base_ms, client.backoff_max_ms);
    print_features(OFFERED);
    printf("}\n");
    fflush(stdout);
    connect_now();
    char line[1 << 16];
    size_t pending = 0;
    for (;;) {
        long long now = now_ms(), deadline;
        if (client.link == DOWN) deadline = client.reconnect_at;
        else if (client.link == OPEN) deadline = client.request_sent + client.ack_timeout_ms;
        else deadline = now + 60000;
        struct pollfd polled[2] = {{.fd = 0, .events = POLLIN}, {.fd = client.fd, .events = POLLIN}};
        int wait = deadline > now ? (int)(deadline - now) : 0;
        if (poll(polled, 2, wait) < 0 && errno != EINTR) return 1;
        if (polled[0].revents) {
            ssize_t got = read(0, line + pending, sizeof line - 1 - pending);
            if (got <= 0) return 0; /* nothing more to send, and nothing of its own to settle */
            pending += (size_t)got;
            line[pending] = 0;
            char *end;
            while ((end = strchr(line, '\n'))) {
                *end = 0;
                asked(line);
                pending -= (size_t)(end + 1 - line);
                memmove(line, end + 1, pending + 1);
            }
            if (pending == sizeof line - 1) pending = 0; /* a line longer than any request: not one */
        }
        if (client.fd >= 0 && polled[1].revents) readable();
        now = now_ms();
        if (client.link == DOWN && now >= client.reconnect_at) {
            connect_now();
        } else if (client.link == OPEN && now >= client.request_sent + client.ack_timeout_ms) {
            /* No answer to the request: sent again (EX-7), then the connection opened again. */
            if (client.request_sends > client.retries) lost();
            else send_request();
        }
    }
}
