#!/usr/bin/env python3
"""Which of the reference peer's (or client's) planted faults `decaf monitor` names from a capture
alone.

Servers (`--role server`, the default): for each fault (`decaf peer --list-faults`), `decaf conform
server` runs its every case against a peer with the fault through `decaf proxy --pcap`, which
records both legs of every connection; the monitor judges the server on the upstream legs
(`--proxy`). Clients (`--role client`): for each fault (`decaf testee client --list-faults`),
`decaf conform client --pcap` records every connection of its scripted servers while it runs its
every case against `decaf testee client --fault`. Then `decaf monitor` judges the capture. A fault
is named when the monitor fails the faulty end for one of the requirements the fault breaks; the
other end (the suite, which misbehaves on purpose) is not looked at. Prints a Markdown table: the
fault, its requirements, what the monitor named for that end (requirement and cause), and
whether that is the fault's. The client's faults that break no MUST of the brief are listed with
the SHOULD they break (Decaf's RECONNECT-1).

With `--check PAGE` (docs/monitor.md), the table must be the one the page shows for the role, row
for row: exit 1 naming each row that differs (`make monitor-faults` runs both roles so).

Usage: faults.py [--decaf PATH] [--role server|client] [--only FAULT ...] [--check PAGE]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# The client's faults that break no MUST, and the SHOULD each breaks.
SHOULDS = {"no-backoff": ["RECONNECT-1"], "no-jitter": ["RECONNECT-1"]}


def faults(decaf, role):
    """(name, requirements) of every planted fault of the role's reference end."""
    command = [decaf, "peer", "--list-faults"] if role == "server" else [decaf, "testee", "client", "--list-faults"]
    listing = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) >= 2 and "-" in parts[1]:
            rows.append((parts[0], parts[1].split(",")))
        elif parts and parts[0] in SHOULDS:
            rows.append((parts[0], SHOULDS[parts[0]]))
    return rows


def judge_client(decaf, fault, directory):
    """The client's defects the monitor names in a capture of the client suite against the faulty client."""
    pcap = os.path.join(directory, f"{fault}.pcap")
    subprocess.run([decaf, "conform", "client", "--pcap", pcap, "--", decaf, "testee", "client", "--fault", fault],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1800)
    return defects(decaf, pcap, "client")


def defects(decaf, pcap, end, proxy=None):
    """The defects the monitor names for `end` in `pcap` (a proxy's, listening at `proxy`), as
    (requirement, cause); None without a capture."""
    if not os.path.exists(pcap):
        return None
    run = subprocess.run([decaf, "monitor", "--json", pcap] + (["--proxy", proxy] if proxy else []), capture_output=True, text=True)
    report = json.loads(run.stdout.splitlines()[0])
    return [(d["requirement"], d["cause"]) for d in report["defects"] if d["end"] == end]


def judge(decaf, fault, directory):
    """The server's defects the monitor names in a capture of the suite against the faulty peer."""
    pcap = os.path.join(directory, f"{fault}.pcap")
    peer = subprocess.Popen([decaf, "peer", "--listen", "127.0.0.1:0", "--fault", fault],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    upstream = peer.stdout.readline().strip().removeprefix("listening on ")
    proxy = subprocess.Popen([decaf, "proxy", "127.0.0.1:0", upstream, "--pcap", pcap],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    address = proxy.stdout.readline().strip().split()[-1]
    subprocess.run([decaf, "conform", "server", address], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    for process in (proxy, peer):
        stop(process)
    return defects(decaf, pcap, "server", proxy=address)


def stop(process):
    """SIGINT, as Ctrl-C (the proxy writes its capture as it stops), then SIGKILL 30 s later."""
    if process.poll() is None:
        process.send_signal(2)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def documented(page, role):
    """The rows of `page`'s table for `role`'s faults, by fault."""
    header = f"| fault | breaks | the monitor names for the {role} | the fault's |"
    lines = open(page, encoding="utf-8").read().splitlines()
    start = lines.index(header) + 2
    rows = {}
    for line in lines[start:]:
        if not line.startswith("| `"):
            break
        rows[line.split("`")[1]] = line
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decaf", default=os.path.join(ROOT, ".build", "debug", "decaf"))
    parser.add_argument("--role", choices=["server", "client"], default="server")
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--check", metavar="PAGE")
    arguments = parser.parse_args()
    expected = documented(arguments.check, arguments.role) if arguments.check else None
    differences = []
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
            row = f"| `{fault}` | {', '.join(requirements)} | {shown} | {'yes' if hit else 'no'} |"
            print(row, flush=True)
            print(f"{fault}: {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
            if expected is not None and expected.get(fault) != row:
                differences.append(f"{fault}: the page shows {expected.get(fault, 'no row')}")
    for difference in differences:
        print(f"faults.py: {difference}", file=sys.stderr)
    if differences:
        sys.exit(1)


if __name__ == "__main__":
    main()
