#!/usr/bin/env python3
"""Writes a large pcap of Decaf traffic for measuring `decaf dissect` on big captures:
`big_capture.py OUT.pcap MEGABYTES [--concurrent N] [--disorder]`. Connections of about 1 MiB each
(SYN, segments of 16 DATA frames from the client, segments of their 16 ACKs back, FIN), each on its
own client port, N of them open at once with their packets interleaved (default 1: one after
another); with --disorder, about 1% of data segments arrive after the next one and 0.1% are lost
(the capture never sees them). Ethernet, IPv4, TCP. Standard library only."""
import argparse, random, struct, zlib

SERVER_PORT, FRAMES_PER_SEGMENT = 7447, 16

def frame(msg_type, sequence, body):
    return struct.pack(">IBBHIIBBHII", 0xDECAFBAD, 1, 0, msg_type, sequence, 1_700_000_000, 0, 0, 0x444C, len(body),
                       zlib.crc32(body) if body else 0) + body

def connection_template():
    """One connection's packets for client port 0, where each packet's ports are, and which
    packets carry data."""
    packets, port_offsets, data_packets = [], [], []
    seq = {"c": 1000, "s": 5000}
    def packet(sender, flags, payload=b""):
        src, dst = (b"\x0a\x00\x00\x01", b"\x0a\x00\x00\x02") if sender == "c" else (b"\x0a\x00\x00\x02", b"\x0a\x00\x00\x01")
        other = "s" if sender == "c" else "c"
        tcp = struct.pack(">HHIIBBHHH", 0, 0, seq[sender], seq[other], 0x50, flags, 65535, 0, 0)
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 40 + len(payload), 0, 0x4000, 64, 6, 0, src, dst)
        data = b"\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00" + ip + tcp + payload
        if payload: data_packets.append(len(packets))
        port_offsets.append((14 + 20, sender))
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
    return packets, port_offsets, data_packets

def connection(number, template, disorder, rng):
    """The packets of connection `number`, in the order the capture sees them."""
    packets, port_offsets, data_packets = template
    client_port = 10000 + number % 50000
    out = []
    for data, (tcp, sender) in zip(packets, port_offsets):
        data = bytearray(data)
        struct.pack_into(">HH", data, tcp, *((client_port, SERVER_PORT) if sender == "c" else (SERVER_PORT, client_port)))
        out.append(bytes(data))
    if disorder:
        order = list(range(len(out)))
        lost = set()
        for position in data_packets[:-1]:
            draw = rng.random()
            if draw < 0.001: lost.add(position)
            elif draw < 0.011: order[position], order[position + 1] = order[position + 1], order[position]
        out = [out[i] for i in order if i not in lost]
    return out

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("path"); parser.add_argument("megabytes", type=int)
    parser.add_argument("--concurrent", type=int, default=1); parser.add_argument("--disorder", action="store_true")
    arguments = parser.parse_args()
    template = connection_template()
    per_connection = sum(16 + len(data) for data in template[0])
    target = arguments.megabytes << 20
    rng = random.Random(7)
    written, started, packet_number = 0, 0, 0
    with open(arguments.path, "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        open_connections = []
        while (started == 0 or written < target) or open_connections:
            while len(open_connections) < arguments.concurrent and (started == 0 or written + len(open_connections) * per_connection < target):
                open_connections.append(iter(connection(started, template, arguments.disorder, rng)))
                started += 1
            records = []
            for packets in list(open_connections):
                data = next(packets, None)
                if data is None:
                    open_connections.remove(packets)
                    continue
                micros = packet_number * 10
                packet_number += 1
                records.append(struct.pack("<IIII", 1_700_000_000 + micros // 1_000_000, micros % 1_000_000, len(data), len(data)) + data)
            chunk = b"".join(records)
            out.write(chunk)
            written += len(chunk)
    print(f"{arguments.path}: {written >> 20} MiB, {started} connections, up to {arguments.concurrent} at once"
          + (", disordered" if arguments.disorder else ""))

if __name__ == "__main__":
    main()
