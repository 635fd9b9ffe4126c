#!/usr/bin/env python3
"""An independent encoder for the Decaf wire protocol v1, written from the design brief with the
Python standard library only: the second implementation the Swift codec is checked against.

`decaf_frames.py sample` prints a JSON object: `hex`, a stream of frames, and `frames`, what each
frame holds (header fields and the TLV tree, values as hex).
"""
import json
import struct
import sys
import zlib

MAGIC = 0xDECAFBAD
CONTAINER = 0xFFFF


def tlv(tag, value):
    """One field: tag u16, length u32, value; `value` is bytes or a list of child fields."""
    if isinstance(value, list):
        value = b"".join(tlv(child_tag, child) for child_tag, child in value)
    return struct.pack(">HI", tag, len(value)) + value


def frame(msg_type, sequence, timestamp, session, fields, compress=False, encrypt=0, version=(1, 0)):
    body = b"".join(tlv(tag, value) for tag, value in fields)
    if compress and body:
        body = zlib.compress(body, 9)
    header = struct.pack(">IBBHIIBBHII", MAGIC, version[0], version[1], msg_type, sequence, timestamp,
                         encrypt, 1 if compress else 0, session, len(body), zlib.crc32(body))
    return header + body


def describe(tag, value):
    if isinstance(value, list):
        return {"tag": tag, "fields": [describe(t, v) for t, v in value]}
    return {"tag": tag, "value": value.hex()}


def sample():
    session = int("12345678", 16) >> 16 ^ int("12345678", 16) & 0xFFFF
    specs = [
        dict(msg_type=3, sequence=2 << 24 | 1, timestamp=1700000000, session=session,
             fields=[(0x0001, struct.pack(">HH", 0x0102, 0x0009))]),
        dict(msg_type=0, sequence=1, timestamp=1700000001, session=session,
             fields=[(0x1001, "hello from python".encode()), (0x1006, b"52.52,13.40")]),
        dict(msg_type=0, sequence=2, timestamp=1700000002, session=session, compress=True,
             fields=[(0x1001, ("zlib " * 50).encode()), (CONTAINER, [(0x1002, bytes(range(32))), (0x4242, b"")])]),
        dict(msg_type=1, sequence=1 << 24 | 9, timestamp=1700000003, session=session, fields=[]),
        dict(msg_type=2, sequence=1, timestamp=1700000004, session=session, fields=[]),
        dict(msg_type=4, sequence=5, timestamp=1700000005, session=session, encrypt=1,
             fields=[(0x0010, struct.pack(">I", 1))]),
    ]
    stream = b"".join(frame(**spec) for spec in specs)
    described = [{
        "msgType": spec["msg_type"], "sequence": spec["sequence"], "timestamp": spec["timestamp"],
        "sessionId": spec["session"], "compressType": 1 if spec.get("compress") else 0,
        "encryptType": spec.get("encrypt", 0), "tlv": [describe(t, v) for t, v in spec["fields"]],
    } for spec in specs]
    return {"hex": stream.hex(), "frames": described}


if __name__ == "__main__":
    if sys.argv[1:] != ["sample"]:
        sys.exit(__doc__)
    print(json.dumps(sample()))
