#!/usr/bin/env python3
"""Reference testee for `decaf conform decoder -- python3 tools/reference/testee.py`: a Decaf codec
in Python (stdlib only) speaking the testee protocol of Specs/conform-testee.md on stdin/stdout."""
import json, struct, sys, zlib

ORDER = ["BAD_MAGIC", "VERSION_UNSUPPORTED", "BODY_TOO_LARGE", "UNSUPPORTED_ENCRYPTION", "UNSUPPORTED_COMPRESSION"]
class Refused(Exception): pass

def tlv(body, depth, o, base=0):
    seen = set(); at = 0
    while at < len(body):
        if len(body) - at < 6: raise Refused("TLV_TRUNCATED", base + at)
        tag, length = struct.unpack_from(">HI", body, at)
        if length > len(body) - at - 6: raise Refused("TLV_LENGTH_OVERFLOW", base + at)
        if tag in seen and not o["allowDuplicateTags"]: raise Refused("TLV_DUPLICATE_TAG", base + at)
        seen.add(tag)
        if tag == 0xFFFF:
            if depth + 1 > o["depthLimit"]: raise Refused("TLV_TOO_DEEP", base + at)
            tlv(body[at + 6:at + 6 + length], depth + 1, o, base + at + 6)
        at += 6 + length

def decode(data, o):
    names = "magic vmaj vmin type seq ts enc comp sess blen crc".split()
    if len(data) >= 4 and data[:4] != b"\xde\xca\xfb\xad": raise Refused("BAD_MAGIC", 0)
    if len(data) >= 6 and (data[4] != o["versionMajor"] or data[5] > o["highestMinor"]): raise Refused("VERSION_UNSUPPORTED", 4)
    if len(data) < 28: raise Refused("TRUNCATED_FRAME", 0)
    h = dict(zip(names, struct.unpack_from(">IBBHIIBBHII", data)))
    if h["blen"] > o["bodyLimit"]: raise Refused("BODY_TOO_LARGE", 20)
    if h["enc"] > 2 or (h["enc"] == 2 and not o["acceptsEncryptedBodies"]): raise Refused("UNSUPPORTED_ENCRYPTION", 16)
    if h["comp"] > 1: raise Refused("UNSUPPORTED_COMPRESSION", 17)
    w = o.get("timestampWindow")
    if w and abs(h["ts"] - w["now"]) > w["seconds"]: raise Refused("TIMESTAMP_OUT_OF_WINDOW", 12)
    if len(data) < 28 + h["blen"]: raise Refused("TRUNCATED_FRAME", 0)
    body = data[28:28 + h["blen"]]
    if (zlib.crc32(body) if body else 0) != h["crc"]: raise Refused("CHECKSUM_MISMATCH", 24)
    payload = body
    if h["comp"] == 1 and body and h["enc"] != 2:
        z = zlib.decompressobj()
        try: payload = z.decompress(body, o["bodyLimit"] + 1)
        except zlib.error: raise Refused("DECOMPRESSION_FAILED", 28)
        if len(payload) > o["bodyLimit"] or not z.eof or z.unused_data: raise Refused("DECOMPRESSION_FAILED", 28)
    if h["enc"] != 2: tlv(payload, 0, o)
    header = {"magic": h["magic"], "versionMajor": h["vmaj"], "versionMinor": h["vmin"], "msgType": h["type"], "sequence": h["seq"],
              "sequenceCategory": h["seq"] >> 24, "sequenceCounter": h["seq"] & 0xFFFFFF, "timestamp": h["ts"], "encryptType": h["enc"],
              "compressType": h["comp"], "sessionId": h["sess"], "bodyLength": h["blen"], "checksum": h["crc"]}
    return {"result": "frame", "header": header, "payload": payload.hex()}

def encode(h, payload):
    body = zlib.compress(payload) if h["compressType"] == 1 and payload and h["encryptType"] != 2 else payload
    head = struct.pack(">IBBHIIBBHII", 0xDECAFBAD, h["versionMajor"], h["versionMinor"], h["msgType"], h["sequence"], h["timestamp"],
                       h["encryptType"], h["compressType"], h["sessionId"], len(body), zlib.crc32(body) if body else 0)
    return {"result": "bytes", "hex": (head + body).hex()}

for line in sys.stdin:
    request = json.loads(line)
    try:
        if request["op"] == "decode": answer = decode(bytes.fromhex(request["hex"]), request["options"])
        else: answer = encode(request["header"], bytes.fromhex(request["payload"]))
    except Refused as refused: answer = {"result": "error", "error": refused.args[0], "offset": refused.args[1]}
    print(json.dumps(answer), flush=True)
