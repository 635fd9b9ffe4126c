#!/usr/bin/env python3
"""Writes a large pcap of Decaf traffic for measuring `decaf dissect` on big captures:
`big_capture.py OUT.pcap MEGABYTES`. Connections of about 1 MiB each follow one another (SYN,
segments of 16 DATA frames from the client, segments of their 16 ACKs back, FIN), each on its own
client port; Ethernet, IPv4, TCP. Standard library only."""
import struct, sys, zlib

SERVER_PORT, FRAMES_PER_SEGMENT = 7447, 16

def frame(msg_type, sequence, body):
    return struct.pack(">IBBHIIBBHII", 0xDECAFBAD, 1, 0, msg_type, sequence, 1_700_000_000, 0, 0, 0x444C, len(body),
                       zlib.crc32(body) if body else 0) + body

def connection_template():
    """One connection's packets for client port 0, and where each packet's ports are."""
    packets, port_offsets = [], []
    seq = {"c": 1000, "s": 5000}
    def packet(sender, flags, payload=b""):
        src, dst = (b"\x0a\x00\x00\x01", b"\x0a\x00\x00\x02") if sender == "c" else (b"\x0a\x00\x00\x02", b"\x0a\x00\x00\x01")
        other = "s" if sender == "c" else "c"
        tcp = struct.pack(">HHIIBBHHH", 0, 0, seq[sender], seq[other], 0x50, flags, 65535, 0, 0)
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 40 + len(payload), 0, 0x4000, 64, 6, 0, src, dst)
        data = b"\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00" + ip + tcp + payload
        port_offsets.append((len(packets), 14 + 20, sender))
        packets.append(data)
        seq[sender] = (seq[sender] + len(payload) + (1 if flags & 0x03 else 0)) & 0xFFFFFFFF
    packet("c", 0x02); packet("s", 0x12); packet("c", 0x10)
    text = struct.pack(">HI", 0x1001, 64) + b"m" * 64
    counter, size = 0, 0
    while size < 1 << 20:
        sequences = [counter + i + 1 for i in range(FRAMES_PER_SEGMENT)]
        counter += FRAMES_PER_SEGMENT
        data = b"".join(frame(0, s, text) for s in sequences)
        acks = b"".join(frame(2, s, b"") for s in sequences)
        packet("c", 0x18, data); packet("s", 0x18, acks)
        size += len(data) + len(acks)
    packet("c", 0x11); packet("s", 0x11); packet("c", 0x10)
    return packets, port_offsets

def main(path, megabytes):
    packets, port_offsets = connection_template()
    written, connection = 0, 0
    with open(path, "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        while written < megabytes << 20:
            client_port = 10000 + connection % 50000
            records = []
            for (index, tcp, sender), data in zip(port_offsets, packets):
                data = bytearray(data)
                struct.pack_into(">HH", data, tcp, *((client_port, SERVER_PORT) if sender == "c" else (SERVER_PORT, client_port)))
                micros = connection * 100_000 + index * 10
                records.append(struct.pack("<IIII", 1_700_000_000 + micros // 1_000_000, micros % 1_000_000, len(data), len(data)) + data)
            chunk = b"".join(records)
            out.write(chunk)
            written += len(chunk)
            connection += 1
    print(f"{path}: {written >> 20} MiB, {connection} connections of {len(packets)} packets")

if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
