#!/usr/bin/env python3
"""Reference client for `decaf conform client -- python3 tools/reference/client.py`: a complete
Decaf v1 client in Python (standard library only) speaking the testee protocol of
Specs/conform-client.md. It shows in one file what a client owes the protocol: the handshake in
either order (HS-1, HS-2, VER-3), one ACK per frame owed one (EX-1 to EX-3), repeats delivered once
(REPLAY-1), read receipts (EX-4), ERROR before closing on bad bytes (EX-5), resends with the same
sequence and timestamp and giving up after the retries (EX-7), heartbeats with a dead server
noticed, and reconnecting with a capped exponential backoff that carries jitter."""
import json, os, random, select, socket, struct, sys, time, zlib

MAGIC, HEADER, BODY_LIMIT, DEPTH_LIMIT = 0xDECAFBAD, 28, 10 * 1024 * 1024, 4
DATA, HEARTBEAT, ACK, CONTROL, READ_RECEIPT = range(5)
NORMAL, HEARTBEATS, CONTROLS = 0, 1, 2
VERSION_REQUEST, VERSION_RESPONSE, RECEIPT, ERROR, TEXT, CONTAINER = 0x0001, 0x0002, 0x0010, 0x00E0, 0x1001, 0xFFFF
FEATURES = {"BASIC": 0x01, "ENCRYPTION": 0x02, "COMPRESSION": 0x04, "READ_RECEIPT": 0x08, "GROUP_CHAT": 0x10}
OFFERED = FEATURES["BASIC"] | FEATURES["COMPRESSION"] | FEATURES["READ_RECEIPT"] | FEATURES["GROUP_CHAT"]
CODES = {name: code for code, name in enumerate(
    "BAD_MAGIC VERSION_UNSUPPORTED BODY_TOO_LARGE CHECKSUM_MISMATCH UNSUPPORTED_ENCRYPTION UNSUPPORTED_COMPRESSION "
    "DECOMPRESSION_FAILED TLV_TRUNCATED TLV_LENGTH_OVERFLOW TLV_TOO_DEEP TLV_DUPLICATE_TAG TIMESTAMP_OUT_OF_WINDOW "
    "TRUNCATED_FRAME".split(), start=1)}
STABLE_CONNECTION, SILENT_INTERVALS, WINDOW, REPLAY_WINDOW = 10.0, 3, 64, 60


class Broken(Exception):
    """The server's bytes broke the protocol: a name of the brief's section 8 and a byte offset."""


def emit(event, **keys):
    print(json.dumps(dict(event=event, **{key: value for key, value in keys.items() if value is not None})), flush=True)


def log(text):
    print(f"client.py: {text}", file=sys.stderr, flush=True)


def names(flags):
    return [name for name, bit in FEATURES.items() if flags & bit]


def field(tag, value):
    return struct.pack(">HI", tag, len(value)) + value


def frame(msg_type, sequence, timestamp, session, body=b"", version=(1, 0)):
    """A frame as sent: 28-byte big-endian header, checksum the CRC-32 of the body (0 when empty)."""
    return struct.pack(">IBBHIIBBHII", MAGIC, version[0], version[1], msg_type, sequence, timestamp, 0, 0, session,
                       len(body), zlib.crc32(body) if body else 0) + body


def fields(body, depth=0, base=0):
    """The TLV fields of a body as (tag, value) pairs, checked to the last byte (TLV-1 to TLV-3)."""
    found, seen, at = [], set(), 0
    while at < len(body):
        if len(body) - at < 6: raise Broken("TLV_TRUNCATED", base + at)
        tag, length = struct.unpack_from(">HI", body, at)
        if length > len(body) - at - 6: raise Broken("TLV_LENGTH_OVERFLOW", base + at)
        if tag in seen: raise Broken("TLV_DUPLICATE_TAG", base + at)
        seen.add(tag)
        value = body[at + 6:at + 6 + length]
        if tag == CONTAINER:
            if depth + 1 > DEPTH_LIMIT: raise Broken("TLV_TOO_DEEP", base + at)
            fields(value, depth + 1, base + at + 6)
        found.append((tag, value))
        at += 6 + length
    return found


def next_frame(buffer):
    """The first frame in `buffer` as (header, payload, length), or None while it is incomplete.
    Header errors are found from the header alone, before the body is waited for (FRAME-2)."""
    if len(buffer) >= 4 and buffer[:4] != b"\xde\xca\xfb\xad": raise Broken("BAD_MAGIC", 0)
    if len(buffer) < HEADER: return None
    _, major, minor, msg_type, sequence, timestamp, encrypt, compress, session, length, checksum = struct.unpack_from(">IBBHIIBBHII", buffer)
    if major != 1 or minor > 0: raise Broken("VERSION_UNSUPPORTED", 4)
    if length > BODY_LIMIT: raise Broken("BODY_TOO_LARGE", 20)
    if encrypt > 1: raise Broken("UNSUPPORTED_ENCRYPTION", 16)  # 2 is AES256, which this client cannot read
    if compress > 1: raise Broken("UNSUPPORTED_COMPRESSION", 17)
    if len(buffer) < HEADER + length: return None
    body = bytes(buffer[HEADER:HEADER + length])
    if (zlib.crc32(body) if body else 0) != checksum: raise Broken("CHECKSUM_MISMATCH", 24)
    payload = body
    if compress and body:
        inflater = zlib.decompressobj()
        try: payload = inflater.decompress(body, BODY_LIMIT + 1)
        except zlib.error: raise Broken("DECOMPRESSION_FAILED", 28)
        if len(payload) > BODY_LIMIT or not inflater.eof or inflater.unused_data: raise Broken("DECOMPRESSION_FAILED", 28)
    header = dict(type=msg_type, sequence=sequence, timestamp=timestamp, session=session)
    return header, payload, HEADER + length


class Client:
    def __init__(self, environment):
        number = lambda name, default: int(environment.get(name, default))
        self.address = (environment["DECAF_CONFORM_HOST"], number("DECAF_CONFORM_PORT", 0))
        self.ack_timeout = number("DECAF_CONFORM_ACK_TIMEOUT_MS", 1000) / 1000
        self.retries = number("DECAF_CONFORM_RETRIES", 3)
        heartbeat = environment.get("DECAF_CONFORM_HEARTBEAT_MS")
        self.heartbeat = int(heartbeat) / 1000 if heartbeat else None
        self.backoff_base = number("DECAF_CONFORM_RECONNECT_BASE_MS", 100) / 1000
        self.backoff_max = number("DECAF_CONFORM_RECONNECT_MAX_MS", 30000) / 1000
        self.session = 1
        self.sock, self.buffer, self.link = None, bytearray(), "down"
        self.agreed = None                      # (version, features) once a handshake agreed
        self.request, self.request_acknowledged = None, False
        self.counters = {NORMAL: 0, HEARTBEATS: 0, CONTROLS: 0}
        self.messages, self.queue, self.by_sequence = {}, [], {}
        self.outstanding = {}                   # sequence -> [frame bytes, kind, last sent, sends]
        self.replay = {}                        # (sequence, timestamp) -> when it was first seen
        self.attempt, self.ready_since, self.reconnect_at = 0, None, 0.0
        self.last_sent = self.last_heard = self.next_heartbeat = 0.0
        self.input_ended, self.acknowledged, self.receipts, self.linger_until = False, 0, 0, None
        emit("ready", ackTimeoutMs=round(self.ack_timeout * 1000), retries=self.retries,
             heartbeatMs=round(self.heartbeat * 1000) if self.heartbeat else None,
             reconnectBaseMs=round(self.backoff_base * 1000), reconnectMaxMs=round(self.backoff_max * 1000),
             version="1.0", features=names(OFFERED))

    # Sequence numbers, headers and writing

    def next_sequence(self, category):
        self.counters[category] = (self.counters[category] + 1) & 0xFFFFFF
        return category << 24 | self.counters[category]

    @property
    def version(self):
        """1.0 until a handshake agrees, then the agreed version (VER-3)."""
        return self.agreed[0] if self.agreed else (1, 0)

    @property
    def features(self):
        return self.agreed[1] if self.agreed else 0

    def write(self, data):
        try:
            self.sock.sendall(data)
            self.last_sent = time.monotonic()
        except OSError as error:
            log(f"write failed: {error}")
            self.lost()

    def send_owed(self, data, sequence, kind):
        """Sends a frame owed an ACK and keeps it until the ACK comes or the retries run out (EX-7)."""
        self.outstanding[sequence] = [data, kind, time.monotonic(), 1]
        self.write(data)

    def acknowledge(self, header):
        """EX-1, EX-2: same sequence and session, empty body, checksum 0."""
        self.write(frame(ACK, header["sequence"], int(time.time()), header["session"], version=self.version))

    # The connection

    def connect(self):
        self.link = "connecting"
        try:
            self.sock = socket.create_connection(self.address, timeout=5)
            self.sock.settimeout(5)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError as error:
            log(f"cannot connect: {error}")
            self.sock, self.link = None, "down"
            return self.reconnect_later()
        now = time.monotonic()
        self.link, self.buffer, self.agreed, self.last_heard = "open", bytearray(), None, now
        self.next_heartbeat = now + self.heartbeat if self.heartbeat else None
        self.request, self.request_acknowledged = self.next_sequence(CONTROLS), False
        body = field(VERSION_REQUEST, struct.pack(">HH", 1 << 8 | 0, OFFERED))
        self.send_owed(frame(CONTROL, self.request, int(time.time()), self.session, body), self.request, ("request",))

    def lost(self):
        """The connection closed or broke: what it cut off goes out again on the next one."""
        if self.link in ("down", "connecting"): return
        self.sock.close()
        self.sock, self.link, self.agreed = None, "down", None
        if self.ready_since is not None and time.monotonic() - self.ready_since >= STABLE_CONNECTION: self.attempt = 0
        self.ready_since = None
        cut_off = [kind[1] for _, kind, _, _ in self.outstanding.values() if kind[0] == "message"]
        self.outstanding = {}
        self.queue = sorted(cut_off, key=lambda key: self.messages[key]["sequence"] & 0xFFFFFF) + self.queue
        self.reconnect_later()

    def reconnect_later(self):
        """Exponential backoff, capped, drawn from its upper half so clients cut off together do not
        come back together."""
        wait = min(self.backoff_max, self.backoff_base * 2 ** min(self.attempt, 30)) * random.uniform(0.5, 1)
        self.attempt += 1
        self.reconnect_at = time.monotonic() + wait

    def fatal(self, error, offset):
        """The server's bytes broke the protocol: tell the application, send ERROR, close (EX-5)."""
        emit("error", error=error)
        if self.link in ("open", "ready"):
            reason = f"{error} at offset {offset}".encode()
            report = field(ERROR, struct.pack(">H", CODES[error]) + reason)
            self.write(frame(CONTROL, self.next_sequence(CONTROLS), int(time.time()), self.session, report, self.version))
        self.lost()

    # What the server sends

    def readable(self):
        try:
            chunk = self.sock.recv(1 << 20)
        except OSError:
            chunk = b""
        if not chunk:
            if self.buffer: return self.fatal("TRUNCATED_FRAME", 0)
            return self.lost()
        self.buffer += chunk
        while self.link in ("open", "ready"):
            try:
                found = next_frame(self.buffer)
                if found is None: return
                header, payload, length = found
                tlv = fields(payload)
            except Broken as broken:
                return self.fatal(*broken.args)
            del self.buffer[:length]
            self.received(header, payload, tlv)

    def received(self, header, payload, tlv):
        self.last_heard = time.monotonic()
        kind = header["type"]
        if kind == ACK: return self.acknowledgement(header["sequence"])
        if kind not in (DATA, HEARTBEAT, CONTROL, READ_RECEIPT): return  # never acknowledged (EX-3, FRAME-4)
        self.acknowledge(header)
        if kind == DATA:
            self.deliver(header, payload)
        elif kind == READ_RECEIPT:
            for tag, value in tlv:
                key = self.by_sequence.get(struct.unpack(">I", value)[0]) if tag == RECEIPT and len(value) == 4 else None
                if key is not None and self.messages[key]["settled"]:
                    emit("receipt", id=key)
                    self.receipts += 1
                    self.forget(key)
        elif kind == CONTROL:
            for tag, value in tlv:
                if tag == VERSION_RESPONSE and len(value) == 4: self.answered(*struct.unpack(">HH", value))
                if tag == ERROR and len(value) >= 2:
                    emit("serverError", code=struct.unpack(">H", value[:2])[0], reason=value[2:].decode(errors="replace"))
        self.finish_if_settled()

    def answered(self, version, features):
        """HS-2: the response may come before or after the ACK of the request."""
        if self.link != "open": return
        self.outstanding.pop(self.request, None)
        if version >> 8 != 1:
            log(f"the server speaks version {version >> 8}.{version & 0xFF}, another major: giving up")
            return self.stop("the server speaks another major version")
        self.agreed = ((version >> 8, version & 0xFF), features & OFFERED)
        self.link, self.ready_since = "ready", time.monotonic()
        emit("handshake", version=f"{version >> 8}.{version & 0xFF}", features=names(self.features))
        self.fill()

    def acknowledgement(self, sequence):
        if sequence >> 24 == HEARTBEATS: return
        if sequence == self.request and not self.request_acknowledged:
            self.request_acknowledged = True
            self.outstanding.pop(sequence, None)
            return
        pending = self.outstanding.pop(sequence, None)
        if pending is None or pending[1][0] != "message": return  # a late or second ACK changes nothing
        key = pending[1][1]
        if self.settle(key):
            self.acknowledged += 1
            emit("acknowledged", id=key)
            if not self.features & FEATURES["READ_RECEIPT"]: self.forget(key)
        self.fill()
        self.finish_if_settled()

    def deliver(self, header, payload):
        """Once per (sequence, timestamp) within the window (REPLAY-1), with a read receipt when agreed (EX-4)."""
        now = time.time()
        self.replay = {key: seen for key, seen in self.replay.items() if now - seen < REPLAY_WINDOW}
        key = (header["sequence"], header["timestamp"])
        if key in self.replay: return
        self.replay[key] = now
        emit("delivered", payload=payload.hex())
        if self.features & FEATURES["READ_RECEIPT"] and self.link == "ready":
            sequence = self.next_sequence(NORMAL)
            body = field(RECEIPT, struct.pack(">I", header["sequence"]))
            self.send_owed(frame(READ_RECEIPT, sequence, int(now), self.session, body, self.version), sequence, ("receipt",))

    # What the application sends

    def submit(self, key, payload):
        self.messages[key] = dict(payload=payload, sequence=None, timestamp=0, settled=False)
        self.queue.append(key)
        self.fill()

    def fill(self):
        """Sends queued messages while the window allows, once the handshake has agreed."""
        in_flight = sum(1 for pending in self.outstanding.values() if pending[1][0] == "message")
        while self.link == "ready" and self.queue and in_flight < WINDOW:
            key = self.queue.pop(0)
            message = self.messages.get(key)
            if message is None or message["settled"]: continue
            if message["sequence"] is None:  # a resend after a reconnect keeps sequence and timestamp
                message["sequence"], message["timestamp"] = self.next_sequence(NORMAL), int(time.time())
            self.by_sequence[message["sequence"]] = key
            data = frame(DATA, message["sequence"], message["timestamp"], self.session, message["payload"], self.version)
            self.send_owed(data, message["sequence"], ("message", key))
            in_flight += 1

    def settle(self, key):
        message = self.messages.get(key)
        if message is None or message["settled"]: return False
        message["settled"] = True
        return True

    def forget(self, key):
        message = self.messages.pop(key, None)
        if message and message["sequence"] is not None: self.by_sequence.pop(message["sequence"], None)

    # Time passing

    def deadline(self):
        times = [pending[2] + self.ack_timeout for pending in self.outstanding.values()]
        if self.link == "down": times.append(self.reconnect_at)
        if self.link in ("open", "ready") and self.next_heartbeat: times.append(self.next_heartbeat)
        if self.linger_until: times.append(self.linger_until)
        return min(times, default=None)

    def tick(self):
        now = time.monotonic()
        if self.link == "down" and now >= self.reconnect_at: return self.connect()
        for sequence, pending in sorted(self.outstanding.items(), key=lambda item: item[1][2]):
            if now - pending[2] < self.ack_timeout or sequence not in self.outstanding: continue
            if pending[3] > self.retries:
                self.give_up(sequence, pending[1])
                if self.link not in ("open", "ready"): return
                continue
            pending[2], pending[3] = now, pending[3] + 1
            self.write(pending[0])  # the same bytes: same sequence and timestamp (EX-7)
            if self.link not in ("open", "ready"): return
        if self.link in ("open", "ready") and self.next_heartbeat and now >= self.next_heartbeat:
            self.next_heartbeat = now + self.heartbeat
            if now - self.last_heard >= SILENT_INTERVALS * self.heartbeat:
                log("the server has been silent too long: connecting again")
                return self.lost()
            if self.link == "ready" and now - self.last_sent >= 0.9 * self.heartbeat:
                self.write(frame(HEARTBEAT, self.next_sequence(HEARTBEATS), int(time.time()), self.session, version=self.version))
        if self.linger_until and now >= self.linger_until: self.finish()
        self.finish_if_settled()

    def give_up(self, sequence, kind):
        del self.outstanding[sequence]
        if kind[0] == "message" and self.settle(kind[1]):
            emit("failed", id=kind[1], reason=f"no ACK after {self.retries + 1} sends")
            self.forget(kind[1])
            self.fill()
        elif kind[0] == "request":
            log("no answer to the handshake: connecting again")
            self.lost()

    # Ending

    def finish_if_settled(self):
        if not self.input_ended or any(not message["settled"] for message in self.messages.values()) or self.linger_until: return
        if self.features & FEATURES["READ_RECEIPT"] and self.receipts < self.acknowledged and self.link == "ready":
            self.linger_until = time.monotonic() + self.ack_timeout  # a read receipt may still come
            return
        self.finish()

    def stop(self, reason):
        for key, message in list(self.messages.items()):
            if self.settle(key): emit("failed", id=key, reason=reason)
        self.finish()

    def finish(self):
        if self.sock: self.sock.close()
        sys.exit(0)


def main():
    client = Client(os.environ)
    pending_input = b""
    client.connect()
    while True:
        deadline = client.deadline()
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        watched = ([0] if not client.input_ended else []) + ([client.sock] if client.sock else [])
        if not watched and wait is None: client.finish()
        ready, _, _ = select.select(watched, [], [], wait)
        if 0 in ready:
            chunk = os.read(0, 1 << 16)
            if not chunk:
                client.input_ended = True
                client.finish_if_settled()
            pending_input += chunk
            while b"\n" in pending_input:
                line, pending_input = pending_input.split(b"\n", 1)
                try:
                    request = json.loads(line)["send"]
                    payload = bytes.fromhex(request["payload"]) if "payload" in request else field(TEXT, request["text"].encode())
                except (ValueError, KeyError, TypeError):
                    log(f"ignored a line that is not a send request: {line[:120]!r}")
                    continue
                client.submit(str(request["id"]), payload)
        if client.sock in ready: client.readable()
        client.tick()


if __name__ == "__main__":
    main()
