#!/usr/bin/env python3
"""Fuzzer benchmark: inputs per second of `decaf fuzz` (release) against each kind of target, beside
the conformance suite against the same target in the same run (the baseline: the same driver and
judge, the same pipe, connection or process per case, with no mutating, no oracle and no
minimizing):
- `decaf fuzz decoder` against Decaf's codec testee and the Python reference testee, beside
  `decaf conform decoder` (314 cases over one pipe);
- `decaf fuzz server` against `decaf peer`, one job and four, beside `decaf conform server` (its
  cases at the same body limit, 8 at once);
- `decaf fuzz client --jobs 4` against `decaf testee client` and the Python reference client (at the
  brief's body limit, the only one the Python client has), each job keeping its client for input
  after input while it comes back (sessions), and with `--process-per-input` (a client process and
  a listener for each input, as before sessions), beside
  `decaf conform client --case 'client.frame.*' --jobs 4` (the catalog's framing cases: one scripted
  server and one client process per case; their pauses included). The sessions' goal is 10x the
  inputs/s this benchmark recorded against `decaf testee client` before them (`BEFORE_SESSIONS`).

What is counted: inputs the target was asked about and answered, from the campaign's first to its
last (the summary line's count and time); for a suite, cases per second from its own run time
(start-up of a testee included once). What is left out: minimizing, as the targets here give no
finding. Options: the default body limit (10 MiB: a bomb at the limit makes a target inflate 10 MiB
and a testee hex-encode it, so these inputs weigh most) and a 64 KiB limit.

Usage: fuzz.py [--seconds 20] [--decaf PATH]
"""
import argparse
import os
import re
import subprocess
import sys
import time

# Inputs/s of `decaf fuzz client --jobs 4` against `decaf testee client` in this benchmark's table
# before sessions (docs/performance.md at commit 23d5e91), when every input started a client.
BEFORE_SESSIONS = 33

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fuzz(decaf, kind, target, seconds, limit, directory, jobs=1):
    """Inputs a second and findings of `decaf fuzz KIND` against `target` (arguments after the options)."""
    arguments = [decaf, "fuzz", kind, "--duration", f"{seconds}s", "--findings", directory, "--jobs", str(jobs)]
    if limit:
        arguments += ["--body-limit", str(limit)]
    result = subprocess.run(arguments + target, capture_output=True, text=True)
    match = re.search(r"(\d+) inputs in ([\d.]+) s .*?(\d+) findings?", result.stdout)
    if not match:
        sys.exit(f"decaf fuzz {kind} printed no summary: {result.stdout}{result.stderr}")
    inputs, elapsed, findings = int(match.group(1)), float(match.group(2)), int(match.group(3))
    return inputs / elapsed, findings


def suite(decaf, kind, arguments):
    """Cases a second of `decaf conform KIND ARGUMENTS`."""
    started = time.perf_counter()
    result = subprocess.run([decaf, "conform", kind] + arguments, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    match = re.search(r"(\d+) cases:", result.stdout)
    if not match:
        sys.exit(f"decaf conform {kind} printed no summary: {result.stdout}{result.stderr}")
    return int(match.group(1)) / elapsed


class Peer:
    """`decaf peer` on a port of its own, for as long as the `with` lasts."""

    def __init__(self, decaf, limit=None, arguments=()):
        self.process = subprocess.Popen([decaf, "peer", "--listen", "127.0.0.1:0", "--body-limit", str(limit or 10485760)] + list(arguments),
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            sys.exit(f"decaf peer did not start: {line}")
        self.address = line.split()[-1]

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.process.terminate()
        self.process.wait()


def timed_arguments(doc, seconds):
    """A fuzzing benchmark's command line, `--seconds` (default `seconds`) and `--decaf` (the
    release build unless given, built first); `doc` is its help."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=seconds)
    parser.add_argument("--decaf", default=os.path.join(ROOT, ".build/release/decaf"))
    args = parser.parse_args()
    if args.seconds < 1:
        sys.exit("give --seconds 1 or more")
    if args.decaf == parser.get_default("decaf"):
        subprocess.run(["swift", "build", "-c", "release", "--product", "decaf"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return args


def main():
    args = timed_arguments(__doc__, 20)
    directory = os.path.join(ROOT, ".build/bench-fuzz")
    print(f"decaf fuzz, {args.seconds} s a row, release build; {os.cpu_count()} cores\n")
    print("| target | body limit | jobs | fuzz inputs/s | conform cases/s (baseline) | ratio | findings |")
    print("|---|---:|---:|---:|---:|---:|---:|")

    def row(name, limit, jobs, rate, baseline, findings):
        print(f"| {name} | {limit or 10485760} | {jobs} | {rate:,.0f} | {baseline:,.0f} | {rate / baseline:.2f}x | {findings} |", flush=True)

    testees = {"decaf testee decoder": [args.decaf, "testee", "decoder"],
               "tools/reference/testee.py": ["python3", os.path.join(ROOT, "tools/reference/testee.py")]}
    for name, testee in testees.items():
        baseline = suite(args.decaf, "decoder", ["--"] + testee)
        for limit in [None, 65536]:
            rate, findings = fuzz(args.decaf, "decoder", ["--"] + testee, args.seconds, limit, directory)
            row(name, limit, 1, rate, baseline, findings)
    for limit in [None, 65536]:
        with Peer(args.decaf, limit) as peer:
            baseline = suite(args.decaf, "server", [peer.address] + (["--body-limit", str(limit)] if limit else []))
            for jobs in [1, 4]:
                rate, findings = fuzz(args.decaf, "server", [peer.address], args.seconds, limit, directory, jobs)
                row("decaf peer", limit, jobs, rate, baseline, findings)
    # The Python client's body limit is the brief's, so both clients are fuzzed at it.
    clients = {"decaf testee client": [args.decaf, "testee", "client"],
               "tools/reference/client.py": ["python3", os.path.join(ROOT, "tools/reference/client.py")]}
    ratios = {}
    for name, client in clients.items():
        baseline = suite(args.decaf, "client", ["--case", "client.frame.*", "--jobs", "4", "--"] + client)
        each, findings = fuzz(args.decaf, "client", ["--process-per-input", "--"] + client, args.seconds, None, directory, 4)
        row(name + " (a process per input)", None, 4, each, baseline, findings)
        kept, findings = fuzz(args.decaf, "client", ["--"] + client, args.seconds, None, directory, 4)
        row(name + " (kept: sessions)", None, 4, kept, baseline, findings)
        ratios[name] = (kept, kept / each)
    print()
    for name, (kept, ratio) in ratios.items():
        print(f"sessions against {name}: {ratio:.1f}x the inputs/s of a process per input in this run")
    kept = ratios["decaf testee client"][0]
    verdict = "met" if kept >= 10 * BEFORE_SESSIONS else "not met"
    print(f"goal: sessions against decaf testee client at 10x the {BEFORE_SESSIONS} inputs/s recorded before them: "
          f"{kept / BEFORE_SESSIONS:.1f}x, {verdict}")


if __name__ == "__main__":
    main()
