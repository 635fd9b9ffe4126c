#!/usr/bin/env python3
"""Load benchmark: `decaf send` against `decaf peer`, two processes on this machine.

Reports ACKed messages per second, ACK latency percentiles and the peer's memory per connection,
checks that every message was ACKed and none lost or delivered twice, and compares the rate with
the target (100,000 ACKed messages per second).

Usage: load.py [--connections 100] [--count 3000] [--decaf PATH]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

TARGET = 100_000
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--count", type=int, default=3000, help="messages per connection")
    parser.add_argument("--decaf", default=os.path.join(ROOT, ".build/release/decaf"))
    args = parser.parse_args()
    if not os.path.exists(args.decaf):
        subprocess.run(["swift", "build", "-c", "release", "--product", "decaf"], cwd=ROOT, check=True)

    peer = subprocess.Popen([args.decaf, "peer", "--log-level", "warning"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        match = re.match(r"listening on (\S+)", peer.stdout.readline())
        if not match:
            sys.exit("the peer did not start")
        address = match.group(1)
        baseline = rss_kib(peer.pid)
        peak = [baseline]
        sending = threading.Event()

        def sample():
            while not sending.is_set():
                peak[0] = max(peak[0], rss_kib(peer.pid))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        sampler.start()
        result = subprocess.run([args.decaf, "send", address, "--connections", str(args.connections),
                                 "--count", str(args.count), "--json"], capture_output=True, text=True)
        sending.set()
        sampler.join()
    finally:
        peer.send_signal(2)
        summary = peer.communicate(timeout=30)[0]
    report = json.loads(result.stdout)
    stats = {name: value for value, name in re.findall(r"(\d+) (frames received|delivered|repeats|protocol errors)", summary or "")}
    delivered = int(stats.get("delivered", -1))
    repeats = int(stats.get("repeats", -1))
    expected = args.connections * args.count

    latency = report.get("latency") or {}
    print(f"| measure | value |\n|---|---:|")
    print(f"| connections | {args.connections} |")
    print(f"| messages | {expected} |")
    print(f"| ACKed messages per second | {report['messagesPerSecond']:,.0f} |")
    for name in ["minimum", "median", "p99", "maximum"]:
        print(f"| ACK latency, {name} | {latency.get(name + 'Ms', 0):.2f} ms |")
    print(f"| acknowledged / lost / duplicate ACKs | {report['acknowledged']} / {report['lost']} / {report['duplicateAcks']} |")
    print(f"| delivered by the peer / repeats | {delivered} / {repeats} |")
    print(f"| peer memory: idle, peak, per connection | {baseline / 1024:.1f} MiB, {peak[0] / 1024:.1f} MiB, "
          f"{(peak[0] - baseline) / args.connections:.0f} KiB |")
    print()
    intact = report["acknowledged"] == expected and report["lost"] == 0 and report["duplicateAcks"] == 0 \
        and delivered == expected and repeats == 0
    print(f"- every message ACKed once, none lost or delivered twice: {'yes' if intact else 'NO'}")
    rate = report["messagesPerSecond"]
    verdict = "met" if rate >= TARGET else f"MISSED by {(TARGET - rate) / TARGET:.0%}"
    print(f"- {rate:,.0f} ACKed messages per second (target {TARGET:,}): {verdict}")
    sys.exit(0 if intact and rate >= TARGET else 1)


if __name__ == "__main__":
    main()
