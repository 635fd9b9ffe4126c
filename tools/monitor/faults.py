#!/usr/bin/env python3
"""Which of the reference peer's (or client's) planted faults `decaf monitor` names from a capture
alone.

Servers (`--role server`, the default): for each fault (`decaf peer --list-faults`), a peer with
the fault records its connections (`--pcap`) while `decaf conform server` runs its every case
against it. Clients (`--role client`): for each fault (`decaf testee client --list-faults`),
`decaf conform client --pcap` records every connection of its scripted servers while it runs its
every case against `decaf testee client --fault`. Then `decaf monitor` judges the capture. A fault
is named when the monitor fails the faulty end for one of the requirements the fault breaks; the
other end (the suite, which misbehaves on purpose) is not looked at. Prints a Markdown table: the
fault, its requirements, what the monitor named for that end (requirement and cause), and
whether that is the fault's.

Usage: faults.py [--decaf PATH] [--role server|client] [--only FAULT ...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def faults(decaf, role):
    """(name, requirements) of every planted fault of the role's reference end."""
    command = [decaf, "peer", "--list-faults"] if role == "server" else [decaf, "testee", "client", "--list-faults"]
    listing = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) >= 2 and "-" in parts[1]:
            rows.append((parts[0], parts[1].split(",")))
    return rows


def judge_client(decaf, fault, directory):
    """The client's defects the monitor names in a capture of the client suite against the faulty client."""
    pcap = os.path.join(directory, f"{fault}.pcap")
    subprocess.run([decaf, "conform", "client", "--pcap", pcap, "--", decaf, "testee", "client", "--fault", fault],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1800)
    return defects(decaf, pcap, "client")


def defects(decaf, pcap, end):
    """The defects the monitor names for `end` in `pcap`, as (requirement, cause); None without a capture."""
    if not os.path.exists(pcap):
        return None
    run = subprocess.run([decaf, "monitor", "--json", pcap], capture_output=True, text=True)
    report = json.loads(run.stdout.splitlines()[0])
    return [(d["requirement"], d["cause"]) for d in report["defects"] if d["end"] == end]


def judge(decaf, fault, directory):
    """The server's defects the monitor names in a capture of the suite against the faulty peer."""
    pcap = os.path.join(directory, f"{fault}.pcap")
    peer = subprocess.Popen([decaf, "peer", "--listen", "127.0.0.1:0", "--pcap", pcap, "--fault", fault],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    address = peer.stdout.readline().strip().removeprefix("listening on ")
    subprocess.run([decaf, "conform", "server", address], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    if peer.poll() is None:
        peer.send_signal(2)
        try:
            peer.wait(timeout=30)
        except subprocess.TimeoutExpired:
            peer.kill()
    return defects(decaf, pcap, "server")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decaf", default=os.path.join(ROOT, ".build", "debug", "decaf"))
    parser.add_argument("--role", choices=["server", "client"], default="server")
    parser.add_argument("--only", action="append", default=[])
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        print(f"| fault | breaks | the monitor names for the {arguments.role} | the fault's |")
        print("|---|---|---|---|")
        for fault, requirements in faults(arguments.decaf, arguments.role):
            if arguments.only and fault not in arguments.only:
                continue
            started = time.monotonic()
            named = (judge if arguments.role == "server" else judge_client)(arguments.decaf, fault, directory)
            shown = "no capture (the run did not stop)" if named is None else ", ".join(f"{r} ({c})" for r, c in named) or "nothing"
            hit = named is not None and any(r in requirements for r, _ in named)
            print(f"| `{fault}` | {', '.join(requirements)} | {shown} | {'yes' if hit else 'no'} |", flush=True)
            print(f"{fault}: {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
