/*
 * A Decaf client in C, speaking the client testee protocol of Specs/conform-client.md, with the
 * frame rules of codec.c: it connects where it is told, sends its VERSION_REQUEST (1.0; BASIC,
 * COMPRESSION and READ_RECEIPT), takes the answer in either order (HS-2), acknowledges every
 * DATA, CONTROL, READ_RECEIPT and HEARTBEAT frame once (EX-1, EX-2), delivers a DATA frame once
 * per sequence and timestamp (REPLAY-1), reports an ERROR it is sent, and on bytes that break the
 * protocol reports the error, sends an ERROR and closes (EX-5). It sends the messages it is told to, each resent
 * with its sequence and timestamp until acknowledged or given up after the retries (EX-7), again
 * on the next connection when one cuts it off; it sends a HEARTBEAT on an idle connection and
 * connects again when the server stays silent. With READ_RECEIPT agreed it sends a receipt for
 * each DATA frame delivered and reports the server's (EX-4). After any close it connects again
 * with a capped exponential backoff that carries jitter. It is the client
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
    READ_RECEIPT_FEATURE = 0x0008, RECEIPT = 0x0010, OFFERED = 0x0001 | 0x0004 | READ_RECEIPT_FEATURE, SESSION = 1, REPLAY_KEYS = 4096, READ_SIZE = 65536, TEXT = 0x1001,
    NORMAL = 0, HEARTBEATS = 1, CONTROLS = 2, WINDOW = 64, SILENT_INTERVALS = 3, LINE_LIMIT = 64 << 20,
};

/* A message the application asked to send, until it is acknowledged or given up. */
struct message {
    char *id; /* the JSON string as it came, escapes kept, so it is printed back as it was */
    unsigned char *payload;
    size_t length;
    uint32_t sequence, timestamp;
    unsigned type; /* DATA, or READ_RECEIPT for a receipt this client owes the server (EX-4) */
    int numbered, in_flight, settled;
    int awaits_receipt; /* acknowledged with READ_RECEIPT agreed, and the server's receipt not yet come */
    long long sent_at, sends;
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
    uint32_t counters[3], request;
    long long request_sent, reconnect_at, ready_since;
    long long request_sends;
    int attempt;
    struct { uint32_t sequence, timestamp; } replay[REPLAY_KEYS];
    size_t replay_count, replay_next;
    struct message *messages;
    size_t message_count, message_capacity;
    long long heartbeat_ms, next_heartbeat, last_heard, last_sent, linger_until;
    int input_ended;
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
    /* What the connection cut off goes out again on the next one, with its sequence and timestamp. */
    for (size_t i = 0; i < client.message_count; i++) {
        struct message *m = &client.messages[i];
        if (m->type == READ_RECEIPT && m->in_flight) m->settled = 1; /* a receipt is for its connection */
        m->in_flight = 0;
    }
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
    client.last_sent = now_ms();
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

/* The next sequence of `category`: the category in the top byte, its own counter below (SEQ-1). */
static uint32_t next_sequence(unsigned category) {
    client.counters[category] = (client.counters[category] + 1) & 0xFFFFFF;
    return (uint32_t)category << 24 | client.counters[category];
}

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
    client.last_heard = now_ms();
    client.next_heartbeat = client.heartbeat_ms ? client.last_heard + client.heartbeat_ms : 0;
    client.request = next_sequence(CONTROLS);
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
    send_frame(CONTROL, next_sequence(CONTROLS), SESSION, ERROR_TAG, value, 2 + reason);
    lost();
}

/* Sends message `m` as a DATA frame: the same sequence and timestamp every time (EX-7). */
static void send_message(struct message *m) {
    struct codec_header header = {.version_major = 1, .version_minor = client.minor, .msg_type = m->type,
                                  .sequence = m->sequence, .timestamp = m->timestamp, .session = SESSION};
    size_t length = 0;
    unsigned char *frame = codec_encode(&header, m->payload, m->length, &length);
    m->sent_at = now_ms();
    m->sends++;
    if (frame) put(frame, length);
    free(frame);
}

/* Sends the messages waiting, in order, while the window allows, once a handshake has agreed. */
static void fill(void) {
    size_t in_flight = 0;
    for (size_t i = 0; i < client.message_count; i++) in_flight += client.messages[i].in_flight && client.messages[i].type == DATA;
    for (size_t i = 0; i < client.message_count && client.link == READY && in_flight < WINDOW; i++) {
        struct message *m = &client.messages[i];
        if (m->settled || m->in_flight || m->type != DATA) continue;
        if (!m->numbered) {
            m->sequence = next_sequence(NORMAL);
            m->timestamp = (uint32_t)time(NULL);
            m->numbered = 1;
        }
        m->in_flight = 1;
        m->sends = 0;
        in_flight++;
        send_message(m);
    }
}

/* Tells the application message `m` is settled: `event` is "acknowledged" or "failed" (a
 * receipt of this client's is settled without a word). */
static void settle(struct message *m, const char *event, const char *reason) {
    m->settled = 1;
    m->in_flight = 0;
    free(m->payload);
    m->payload = NULL;
    if (m->type == READ_RECEIPT) return;
    printf("{\"event\":\"%s\",\"id\":\"%s\"", event, m->id);
    if (reason) printf(",\"reason\":\"%s\"", reason);
    printf("}\n");
    fflush(stdout);
}

/* Whether a message acknowledged still waits for the server's READ_RECEIPT. */
static int receipts_awaited(void) {
    for (size_t i = 0; i < client.message_count; i++) {
        if (client.messages[i].awaits_receipt) return 1;
    }
    return 0;
}

/* Once the input has ended and every message is settled, the client's work is done; with read
 * receipts agreed, it waits an ACK timeout for those still to come. */
static void finish_if_settled(void) {
    if (!client.input_ended) return;
    for (size_t i = 0; i < client.message_count; i++) {
        if (!client.messages[i].settled && client.messages[i].type == DATA) return;
    }
    if (client.features & READ_RECEIPT_FEATURE && receipts_awaited() && client.link == READY && !client.linger_until) {
        client.linger_until = now_ms() + client.ack_timeout_ms;
        return;
    }
    if (client.linger_until && now_ms() < client.linger_until && receipts_awaited()) return;
    if (client.fd >= 0) close(client.fd);
    exit(0);
}

/* Gives every message still waiting up, for `reason`, and ends. */
static void give_up_all(const char *reason) {
    for (size_t i = 0; i < client.message_count; i++) {
        if (!client.messages[i].settled && client.messages[i].type == DATA) settle(&client.messages[i], "failed", reason);
    }
    if (client.fd >= 0) close(client.fd);
    exit(0);
}

/* An ACK: of a message in flight it settles it; a late or second one changes nothing (EX-7). */
static void acknowledgement(uint32_t sequence) {
    if (sequence >> 24 == HEARTBEATS) return;
    for (size_t i = 0; i < client.message_count; i++) {
        struct message *m = &client.messages[i];
        if (m->in_flight && m->sequence == sequence) {
            m->awaits_receipt = m->type == DATA && client.features & READ_RECEIPT_FEATURE;
            settle(m, "acknowledged", NULL);
            fill();
            finish_if_settled();
            return;
        }
    }
}

/* Adds a message or receipt to send, `payload` its TLV bytes, after dropping those settled and
 * owed nothing more, so what is kept stays within what is still under way. */
static struct message *submit(unsigned type, char *id, unsigned char *payload, size_t length) {
    size_t kept = 0;
    for (size_t i = 0; i < client.message_count; i++) {
        struct message *m = &client.messages[i];
        if (m->settled && !m->awaits_receipt) free(m->id);
        else client.messages[kept++] = *m;
    }
    client.message_count = kept;
    if (client.message_count == client.message_capacity) {
        size_t capacity = client.message_capacity ? client.message_capacity * 2 : 16;
        struct message *grown = realloc(client.messages, capacity * sizeof *grown);
        if (!grown) {
            fprintf(stderr, "client-c: out of memory\n");
            exit(1);
        }
        client.messages = grown;
        client.message_capacity = capacity;
    }
    struct message *m = &client.messages[client.message_count++];
    *m = (struct message){.type = type, .id = id, .payload = payload, .length = length};
    return m;
}

/* A READ_RECEIPT the server sent: each RECEIPT field names a message of this client's that was
 * read, once acknowledged (EX-4). */
static void receipted(const struct codec_frame *frame) {
    size_t at = 0;
    unsigned tag;
    const unsigned char *value;
    uint32_t length;
    while (codec_next_field(frame->payload, frame->payload_length, &at, &tag, &value, &length)) {
        if (tag != RECEIPT || length != 4) continue;
        uint32_t sequence = codec_be32(value);
        for (size_t i = 0; i < client.message_count; i++) {
            struct message *m = &client.messages[i];
            if (!m->awaits_receipt || m->sequence != sequence) continue;
            m->awaits_receipt = 0;
            printf("{\"event\":\"receipt\",\"id\":\"%s\"}\n", m->id);
            fflush(stdout);
        }
    }
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
    if (client.features & READ_RECEIPT_FEATURE && client.link == READY) {
        unsigned char *body = malloc(10);
        if (!body) return;
        codec_put16(body, RECEIPT);
        codec_put32(body + 2, 4);
        codec_put32(body + 6, frame->header.sequence);
        struct message *m = submit(READ_RECEIPT, NULL, body, 10);
        m->sequence = next_sequence(NORMAL);
        m->timestamp = (uint32_t)time(NULL);
        m->numbered = 1;
        m->in_flight = 1;
        send_message(m);
    }
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
                give_up_all("the server speaks another major version");
            }
            client.minor = value[1];
            client.features = codec_be16(value + 2) & OFFERED;
            client.link = READY;
            client.ready_since = now_ms();
            printf("{\"event\":\"handshake\",\"version\":\"1.%u\",\"features\":", client.minor);
            print_features(client.features);
            printf("}\n");
            fflush(stdout);
            fill();
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
    client.last_heard = now_ms();
    switch (h->msg_type) {
    case ACK:
        acknowledgement(h->sequence);
        return;
    case DATA:
    case HEARTBEAT:
    case CONTROL:
    case READ_RECEIPT:
        send_frame(ACK, h->sequence, h->session, 0, NULL, 0);
        if (client.fd < 0) return;
        if (h->msg_type == DATA) deliver(frame);
        if (h->msg_type == CONTROL) control(frame);
        if (h->msg_type == READ_RECEIPT) receipted(frame);
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

/* The inside of the JSON string that is the value of "key" in `line` (escapes kept), and its
 * length; NULL when there is none. */
static const char *json_string(const char *line, const char *key, size_t *length) {
    char quoted[32];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *at = strstr(line, quoted);
    if (!at) return NULL;
    at += strlen(quoted);
    while (*at == ' ') at++;
    if (*at++ != ':') return NULL;
    while (*at == ' ') at++;
    if (*at++ != '"') return NULL;
    const char *end = at;
    while (*end && *end != '"') end += *end == '\\' && end[1] ? 2 : 1;
    if (*end != '"') return NULL;
    *length = (size_t)(end - at);
    return at;
}

static int hex_digit(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Appends code point `point` to `out` in UTF-8. */
static size_t put_utf8(unsigned char *out, unsigned long point) {
    if (point < 0x80) return out[0] = (unsigned char)point, 1;
    if (point < 0x800) return out[0] = (unsigned char)(0xC0 | point >> 6), out[1] = (unsigned char)(0x80 | (point & 0x3F)), 2;
    if (point < 0x10000) {
        out[0] = (unsigned char)(0xE0 | point >> 12), out[1] = (unsigned char)(0x80 | (point >> 6 & 0x3F)), out[2] = (unsigned char)(0x80 | (point & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | point >> 18), out[1] = (unsigned char)(0x80 | (point >> 12 & 0x3F));
    out[2] = (unsigned char)(0x80 | (point >> 6 & 0x3F)), out[3] = (unsigned char)(0x80 | (point & 0x3F));
    return 4;
}

/* The four hex digits at `p` as a number, or -1. */
static long hex4(const char *p) {
    long value = 0;
    for (int i = 0; i < 4; i++) {
        int digit = hex_digit(p[i]);
        if (digit < 0) return -1;
        value = value << 4 | digit;
    }
    return value;
}

/* The bytes (UTF-8) of a JSON string's inside, `length` characters at `text`, into `out` (which
 * holds at least `length` bytes: no escape grows); their count, or -1 for a broken escape. */
static long json_unescape(const char *text, size_t length, unsigned char *out) {
    size_t n = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] != '\\') {
            out[n++] = (unsigned char)text[i];
            continue;
        }
        if (++i >= length) return -1;
        switch (text[i]) {
        case '"': case '\\': case '/': out[n++] = (unsigned char)text[i]; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            long point = i + 4 < length ? hex4(text + i + 1) : -1;
            if (point < 0) return -1;
            i += 4;
            if (point >= 0xD800 && point < 0xDC00 && i + 6 < length && text[i + 1] == '\\' && text[i + 2] == 'u') {
                long low = hex4(text + i + 3);
                if (low >= 0xDC00 && low < 0xE000) {
                    point = 0x10000 + ((point - 0xD800) << 10) + (low - 0xDC00);
                    i += 6;
                }
            }
            n += put_utf8(out + n, (unsigned long)point);
            break;
        }
        default: return -1;
        }
    }
    return (long)n;
}

/* A line of standard input: a message to send, {"send":{"id":"m1","text":"hello"}} or with
 * "payload":"<hex>", the body's TLV bytes. A line that is neither is logged and ignored. */
static void asked(const char *line) {
    size_t id_length = 0, text_length = 0, hex_length = 0;
    const char *id = strstr(line, "\"send\"") ? json_string(line, "id", &id_length) : NULL;
    const char *hex = id ? json_string(line, "payload", &hex_length) : NULL;
    const char *text = id && !hex ? json_string(line, "text", &text_length) : NULL;
    unsigned char *payload = NULL;
    long length = -1;
    if (hex && hex_length % 2 == 0 && (payload = malloc(hex_length / 2 + 1))) {
        length = (long)(hex_length / 2);
        for (size_t i = 0; i < hex_length / 2 && length >= 0; i++) {
            int high = hex_digit(hex[2 * i]), low = hex_digit(hex[2 * i + 1]);
            if (high < 0 || low < 0) length = -1;
            else payload[i] = (unsigned char)(high << 4 | low);
        }
    } else if (text && (payload = malloc(text_length + 6))) {
        long count = json_unescape(text, text_length, payload + 6);
        if (count >= 0) {
            codec_put16(payload, TEXT);
            codec_put32(payload + 2, (uint32_t)count);
            length = count + 6;
        }
    }
    if (length < 0) {
        fprintf(stderr, "client-c: ignored a line that is not a send request: %.120s\n", line);
        free(payload);
        return;
    }
    submit(DATA, strndup(id, id_length), payload, (size_t)length);
    fill();
}

/* What time asks: a connection attempt, a resend or a message given up (EX-7), a HEARTBEAT on an
 * idle connection, or a new connection when the server has been silent for too long. */
static void tick(void) {
    long long now = now_ms();
    if (client.link == DOWN) {
        if (now >= client.reconnect_at) connect_now();
        return;
    }
    if (client.link == OPEN && now >= client.request_sent + client.ack_timeout_ms) {
        /* No answer to the request: sent again (EX-7), then the connection opened again. */
        if (client.request_sends > client.retries) lost();
        else send_request();
        if (client.fd < 0) return;
    }
    for (size_t i = 0; i < client.message_count && client.fd >= 0; i++) {
        struct message *m = &client.messages[i];
        if (!m->in_flight || now - m->sent_at < client.ack_timeout_ms) continue;
        if (m->sends > client.retries) {
            char reason[64];
            snprintf(reason, sizeof reason, "no ACK after %lld sends", client.retries + 1);
            settle(m, "failed", reason);
            fill();
        } else {
            send_message(m);
        }
    }
    if (client.fd >= 0 && client.heartbeat_ms && now >= client.next_heartbeat) {
        client.next_heartbeat = now + client.heartbeat_ms;
        if (now - client.last_heard >= SILENT_INTERVALS * client.heartbeat_ms) {
            fprintf(stderr, "client-c: the server has been silent too long: connecting again\n");
            lost();
        } else if (client.link == READY && now - client.last_sent >= client.heartbeat_ms * 9 / 10) {
            send_frame(HEARTBEAT, next_sequence(HEARTBEATS), SESSION, 0, NULL, 0);
        }
    }
    finish_if_settled();
}

/* When time next asks something of the client (tick). */
static long long deadline(long long now) {
    long long next = now + 60000;
    if (client.link == DOWN && client.reconnect_at < next) next = client.reconnect_at;
    if (client.link == OPEN && client.request_sent + client.ack_timeout_ms < next) next = client.request_sent + client.ack_timeout_ms;
    if (client.link != DOWN && client.heartbeat_ms && client.next_heartbeat < next) next = client.next_heartbeat;
    if (client.linger_until && client.linger_until < next) next = client.linger_until;
    for (size_t i = 0; i < client.message_count; i++) {
        const struct message *m = &client.messages[i];
        if (m->in_flight && m->sent_at + client.ack_timeout_ms < next) next = m->sent_at + client.ack_timeout_ms;
    }
    return next;
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
    client.heartbeat_ms = setting("DECAF_CONFORM_HEARTBEAT_MS", 0);
    client.fd = -1;
    options = codec_default_options();
    srand((unsigned)getpid());
    printf("{\"event\":\"ready\",\"ackTimeoutMs\":%lld,\"retries\":%lld,", client.ack_timeout_ms, client.retries);
    if (client.heartbeat_ms) printf("\"heartbeatMs\":%lld,", client.heartbeat_ms);
    printf("\"reconnectBaseMs\":%lld,\"reconnectMaxMs\":%lld,\"version\":\"1.0\",\"features\":", client.backoff_base_ms, client.backoff_max_ms);
    print_features(OFFERED);
    printf("}\n");
    fflush(stdout);
    connect_now();
    char *line = NULL;
    size_t pending = 0, capacity = 0;
    for (;;) {
        long long now = now_ms();
        long long next = deadline(now);
        struct pollfd polled[2] = {{.fd = client.input_ended ? -1 : 0, .events = POLLIN}, {.fd = client.fd, .events = POLLIN}};
        int wait = next > now ? (int)(next - now) : 0;
        if (poll(polled, 2, wait) < 0 && errno != EINTR) return 1;
        if (polled[0].revents) {
            if (capacity - pending < READ_SIZE + 1) {
                char *grown = capacity < LINE_LIMIT ? realloc(line, capacity + READ_SIZE + 1) : NULL;
                if (grown) line = grown, capacity += READ_SIZE + 1;
                else pending = 0; /* a line longer than any request: not one */
            }
            ssize_t got = read(0, line + pending, capacity - 1 - pending);
            if (got <= 0) {
                client.input_ended = 1; /* nothing more to send: done once every message is settled */
            } else {
                pending += (size_t)got;
                line[pending] = 0;
                char *start = line, *end;
                while ((end = memchr(start, '\n', pending - (size_t)(start - line)))) {
                    *end = 0;
                    asked(start);
                    start = end + 1;
                }
                pending -= (size_t)(start - line);
                memmove(line, start, pending);
            }
        }
        if (client.fd >= 0 && polled[1].revents) readable();
        tick();
    }
}
