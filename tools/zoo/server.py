#!/usr/bin/env python3
"""Servers that break Decaf's clients in ways a test must survive (the second zoo of broken
targets), on 127.0.0.1, standard library only. `server.py MODE` listens on a free port and prints
`listening on 127.0.0.1:PORT`; it runs until killed.

  flood      answers the handshake, then writes 16 KiB DATA frames back to back and never reads
  backlog    never accepts, and fills its listen backlog itself: a connection stays in SYN-SENT
  slow-body  ACKs the handshake, then sends a frame that announces a 10 MiB body, one byte a second
  one-frame  answers the handshake, ACKs the next frame that is not an ACK, then closes the connection
"""
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/reference")
from decaf_frames import frame  # noqa: E402


def read_frame(connection, pending):
    """The next whole frame from `connection` (bytes), `pending` holding what was read past it."""
    while True:
        if len(pending) >= 28:
            length = 28 + struct.unpack_from(">I", pending, 20)[0]
            if len(pending) >= length:
                return pending[:length], pending[length:]
        data = connection.recv(65536)
        if not data:
            return None, pending
        pending += data


def answer_handshake(connection, pending):
    """Reads the VERSION_REQUEST and sends its ACK and a VERSION_RESPONSE agreeing to everything."""
    request, pending = read_frame(connection, pending)
    if request is None:
        return None
    _, _, _, _, sequence, timestamp, _, _, session, _, _ = struct.unpack_from(">IBBHIIBBHII", request)
    connection.sendall(frame(2, sequence, timestamp, session, [])
                       + frame(3, 2 << 24 | 1, timestamp, session, [(0x0002, struct.pack(">HH", 0x0100, 0x001F))]))
    return pending, timestamp, session


def flood(connection):
    opened = answer_handshake(connection, b"")
    if opened is None:
        return
    _, timestamp, session = opened
    chunk = b"".join(frame(0, counter, timestamp, session, [(0x1007, b"x" * 16384)]) for counter in range(1, 65))
    while True:
        connection.sendall(chunk)


def slow_body(connection):
    request, _ = read_frame(connection, b"")
    if request is None:
        return
    _, _, _, _, sequence, timestamp, _, _, session, _, _ = struct.unpack_from(">IBBHIIBBHII", request)
    connection.sendall(frame(2, sequence, timestamp, session, []))
    header = struct.pack(">IBBHIIBBHII", 0xDECAFBAD, 1, 0, 3, 2 << 24 | 1, timestamp, 0, 0, session, 10 << 20, 0)
    connection.sendall(header)
    while True:
        time.sleep(1)
        connection.sendall(b"\0")


def one_frame(connection):
    opened = answer_handshake(connection, b"")
    if opened is None:
        return
    pending, _, _ = opened
    while True:
        received, pending = read_frame(connection, pending)
        if received is None:
            break
        _, _, _, msg_type, sequence, timestamp, _, _, session, _, _ = struct.unpack_from(">IBBHIIBBHII", received)
        if msg_type == 2:
            continue  # the client's ACK of the VERSION_RESPONSE: never acknowledged (EX-3)
        connection.sendall(frame(2, sequence, timestamp, session, []))
        break
    connection.close()


def serve(mode):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    if mode == "backlog":
        # With a backlog of 0 Linux keeps one connection waiting; once it is there, a SYN is dropped.
        listener.listen(0)
        fillers = []
        for _ in range(1):
            filler = socket.socket()
            filler.connect(listener.getsockname())
            fillers.append(filler)
    else:
        listener.listen(64)
    print(f"listening on 127.0.0.1:{listener.getsockname()[1]}", flush=True)
    if mode == "backlog":
        threading.Event().wait()
    handler = {"flood": flood, "slow-body": slow_body, "one-frame": one_frame}[mode]
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=guarded, args=(handler, connection), daemon=True).start()


def guarded(handler, connection):
    try:
        handler(connection)
    except OSError:
        pass
    finally:
        connection.close()


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("flood", "backlog", "slow-body", "one-frame"):
        sys.exit(__doc__)
    serve(sys.argv[1])
