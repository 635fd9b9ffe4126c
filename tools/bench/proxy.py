#!/usr/bin/env python3
"""Proxy benchmark: what `decaf proxy` with no toxics costs, against a direct connection and a plain
forwarder, in one run on this machine.

Three paths from a client to a server, all on loopback:
  direct     the client connects to the server
  decaf      through `decaf proxy` (release build), no toxics
  forwarder  through a plain forwarder: two threads per connection, recv into a buffer, sendall
  splice     through a forwarder that never copies into the process: two threads per connection,
             splice(2) from the socket into a 1 MiB pipe and from the pipe into the other socket

Two measurements on each path:
  bulk       --megabytes MB sent in 1 MiB writes, then a FIN; from the first write until the server
             has read the last byte (it counts the bytes and sees the FIN). Median of --runs runs.
  round trip 64-byte messages, each echoed before the next is sent, --round-trips of them in 5
             rounds (each on a new connection, after 200 to warm up); percentiles of the time from
             send to the whole echo back. The proxy's added latency at a percentile is its figure
             minus the direct path's at the same percentile.
The paths take turns within each run and each round, so the machine's busier moments fall on all.

Client, server and forwarder are Python processes; the proxy and them share this machine's cores,
so every path pays the same measuring cost and the ratios compare like with like. What is left out:
connection set-up (each measurement starts on an open connection) and TLS (there is none).

Goals (issue 24): bulk through decaf at least 0.8x direct; round trips through decaf add at most
0.5 ms at p99.

Usage: proxy.py [--megabytes 200] [--runs 3] [--round-trips 5000] [--decaf PATH]
"""
import argparse
import fcntl
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHUNK = 1 << 20
F_SETPIPE_SZ = 1031
GOAL_BULK = 0.8
GOAL_ADDED_P99_MS = 0.5


def serve(listener, ready):
    """The server: per connection, a first byte says what it is: b"B" bulk (read to the FIN, then
    answer the byte count), b"E" echo (send back what comes)."""
    ready.set()
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=handle, args=(connection,), daemon=True).start()


def handle(connection):
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    kind = connection.recv(1)
    buffer = bytearray(CHUNK)
    view = memoryview(buffer)
    if kind == b"B":
        total = 0
        while True:
            count = connection.recv_into(view)
            if count == 0:
                break
            total += count
        connection.sendall(str(total).encode() + b"\n")
    elif kind == b"E":
        while True:
            count = connection.recv_into(view)
            if count == 0:
                break
            connection.sendall(view[:count])
    connection.close()


def server_process(port_queue):
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port_queue.put(listener.getsockname()[1])
    serve(listener, threading.Event())


def pump(source, destination):
    buffer = bytearray(CHUNK)
    view = memoryview(buffer)
    try:
        while True:
            count = source.recv_into(view)
            if count == 0:
                destination.shutdown(socket.SHUT_WR)
                return
            destination.sendall(view[:count])
    except OSError:
        return


def splice_pump(source, destination):
    """Moves bytes from `source` to `destination` inside the kernel, through a pipe."""
    readable, writable = os.pipe()
    fcntl.fcntl(writable, F_SETPIPE_SZ, CHUNK)
    try:
        while True:
            count = os.splice(source.fileno(), writable, CHUNK, flags=os.SPLICE_F_MOVE)
            if count == 0:
                destination.shutdown(socket.SHUT_WR)
                return
            while count:
                count -= os.splice(readable, destination.fileno(), count, flags=os.SPLICE_F_MOVE)
    except OSError:
        return


def forwarder_process(upstream_port, port_queue, pump=pump):
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port_queue.put(listener.getsockname()[1])
    while True:
        client, _ = listener.accept()
        server = socket.create_connection(("127.0.0.1", upstream_port))
        for sock in (client, server):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=pump, args=(client, server), daemon=True).start()
        threading.Thread(target=pump, args=(server, client), daemon=True).start()


def bulk(port, megabytes):
    """Seconds from the first write until the server has read every byte and said so."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    payload = bytes(CHUNK)
    connection.sendall(b"B")
    started = time.perf_counter()
    for _ in range(megabytes):
        connection.sendall(payload)
    connection.shutdown(socket.SHUT_WR)
    answer = b""
    while not answer.endswith(b"\n"):
        part = connection.recv(64)
        if not part:
            break
        answer += part
    elapsed = time.perf_counter() - started
    connection.close()
    received = int(answer or b"0")
    if received != megabytes * CHUNK:
        sys.exit(f"bulk: the server read {received} bytes of {megabytes * CHUNK}: bytes were lost")
    return elapsed


def round_trips(port, count):
    """Round-trip times in milliseconds of 64-byte messages, after 200 to warm up."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    connection.sendall(b"E")
    message = bytes(range(64))
    times = []
    for index in range(count + 200):
        started = time.perf_counter()
        connection.sendall(message)
        got = 0
        while got < len(message):
            part = connection.recv(4096)
            if not part:
                sys.exit("round trip: the connection closed")
            got += len(part)
        if index >= 200:
            times.append((time.perf_counter() - started) * 1000)
    connection.close()
    return times


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--round-trips", type=int, default=5000)
    parser.add_argument("--decaf", default=os.path.join(ROOT, ".build/release/decaf"))
    args = parser.parse_args()
    if args.megabytes < 1 or args.runs < 1 or args.round_trips < 100:
        sys.exit("give --megabytes 1 or more, --runs 1 or more, --round-trips 100 or more")
    subprocess.run(["swift", "build", "-c", "release", "--product", "decaf"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)

    ports = multiprocessing.Queue()
    processes = [multiprocessing.Process(target=server_process, args=(ports,), daemon=True)]
    processes[0].start()
    server_port = ports.get(timeout=30)
    processes.append(multiprocessing.Process(target=forwarder_process, args=(server_port, ports), daemon=True))
    processes[1].start()
    forwarder_port = ports.get(timeout=30)
    processes.append(multiprocessing.Process(target=forwarder_process, args=(server_port, ports, splice_pump), daemon=True))
    processes[2].start()
    splice_port = ports.get(timeout=30)
    proxy = subprocess.Popen([args.decaf, "proxy", "127.0.0.1:0", f"127.0.0.1:{server_port}"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        match = re.match(r"listening on \S+:(\d+)", proxy.stdout.readline())
        if not match:
            sys.exit("decaf proxy did not start")
        paths = {"direct": server_port, "decaf": int(match.group(1)), "forwarder": forwarder_port, "splice": splice_port}
        # The paths take turns, run after run, so a moment when the machine is busier falls on
        # each of them alike rather than on whichever ran then.
        seconds = {name: [] for name in paths}
        times = {name: [] for name in paths}
        for _ in range(args.runs):
            for name, port in paths.items():
                seconds[name].append(bulk(port, args.megabytes))
        rounds = 5
        for _ in range(rounds):
            for name, port in paths.items():
                times[name] += round_trips(port, args.round_trips // rounds)
        results = {}
        for name in paths:
            results[name] = {
                "rate": args.megabytes * CHUNK / statistics.median(seconds[name]) / 1e9,
                "p50": percentile(times[name], 0.50), "p95": percentile(times[name], 0.95), "p99": percentile(times[name], 0.99),
            }
    finally:
        proxy.terminate()
        proxy.wait(timeout=30)
        for process in processes:
            process.terminate()

    direct = results["direct"]
    print(f"decaf proxy, no toxics: {args.megabytes} MB bulk (median of {args.runs}), "
          f"{args.round_trips} round trips of 64 bytes; {os.cpu_count()} cores")
    print()
    print("| path | bulk GB/s | vs direct | round trip p50 ms | p95 ms | p99 ms | added p99 ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, result in results.items():
        print(f"| {name} | {result['rate']:.2f} | {result['rate'] / direct['rate']:.2f}x | {result['p50']:.3f} | "
              f"{result['p95']:.3f} | {result['p99']:.3f} | {result['p99'] - direct['p99']:+.3f} |")
    print()
    decaf = results["decaf"]
    bulk_ratio = decaf["rate"] / direct["rate"]
    added = decaf["p99"] - direct["p99"]
    met_bulk = bulk_ratio >= GOAL_BULK
    met_latency = added <= GOAL_ADDED_P99_MS
    print(f"goal: bulk through decaf at least {GOAL_BULK}x direct: {bulk_ratio:.2f}x, {'met' if met_bulk else 'NOT MET'}")
    print(f"goal: at most {GOAL_ADDED_P99_MS} ms added at p99: {added:+.3f} ms, {'met' if met_latency else 'NOT MET'}")
    return 0 if met_bulk and met_latency else 1


if __name__ == "__main__":
    sys.exit(main())
