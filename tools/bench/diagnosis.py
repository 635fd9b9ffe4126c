#!/usr/bin/env python3
"""Diagnosis benchmark: what the diagnosis costs a conformance run, for each suite, against targets
with planted defects (release build). The baseline is the run itself, in the same process: the
diagnosis's time is the report's `diagnosis.durationMilliseconds` (judging the models in memory and
the search), the run's the wall time of `decaf conform ... --json` from start to exit, diagnosis
included. Goal: the diagnosis at most 10% of the run. Also shown: whether the defects named are
exactly those planted (a wrong diagnosis is no bargain at any price).

What is counted: the whole run (start-up, the handshake, every case with its waits, the report). Left
out: the peer's start-up, which is before the run.

Usage: diagnosis.py [--decaf PATH]
"""
import argparse
import json
import os
import subprocess
import sys
import time

from fuzz import Peer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOAL = 0.10


def conform(decaf, arguments):
    """The JSON report of `decaf conform ARGUMENTS --json` and its wall time in ms."""
    started = time.perf_counter()
    result = subprocess.run([decaf, "conform"] + arguments, capture_output=True, text=True)
    elapsed = (time.perf_counter() - started) * 1000
    try:
        return json.loads(result.stdout), elapsed
    except json.JSONDecodeError:
        sys.exit(f"decaf conform {' '.join(arguments)} printed no JSON report: {result.stdout[:300]}{result.stderr[:300]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decaf", default=os.path.join(ROOT, ".build/release/decaf"))
    args = parser.parse_args()
    subprocess.run(["swift", "build", "-c", "release", "--product", "decaf"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    decaf = args.decaf
    print(f"decaf conform with its diagnosis, release build; {os.cpu_count()} cores\n")
    print("| suite | target | failures | defects named (planted) | run | diagnosis | share | goal ≤ 10% |")
    print("|---|---|---:|---|---:|---:|---:|---|")
    missed = False

    def row(suite, target, planted, report, elapsed):
        nonlocal missed
        diagnosis = report.get("diagnosis") or {}
        named = [defect["name"] for defect in diagnosis.get("defects", [])]
        cost = diagnosis.get("durationMilliseconds", 0.0)
        share = cost / elapsed
        met = share <= GOAL and sorted(named) == sorted(planted)
        missed |= not met
        print(f"| {suite} | {target} | {diagnosis.get('failures', 0)} | {', '.join(named) or 'none'}"
              f"{'' if sorted(named) == sorted(planted) else ' (planted: ' + ', '.join(planted) + ')'} | {elapsed / 1000:.1f} s | {cost:,.0f} ms"
              f" | {share:.1%} | {'met' if met else '**MISSED**'} |", flush=True)

    testee = ["--", decaf, "testee", "decoder"]
    for mistakes in [["checksum-little-endian"], ["depth-limit-off-by-one", "timestamp-not-checked"]]:
        report, elapsed = conform(decaf, ["decoder", "--json"] + testee + [word for mistake in mistakes for word in ["--mistake", mistake]])
        row("codec", "decaf testee decoder " + " ".join("--mistake " + m for m in mistakes), mistakes, report, elapsed)
    for faults, mistakes in [(["fixed-features"], []), (["ack-wrong-sequence"], ["depth-limit-off-by-one"]),
                             ([], ["checksum-little-endian", "tlv-length-little-endian", "body-length-not-limited"])]:
        options = [word for fault in faults for word in ["--fault", fault]] + [word for mistake in mistakes for word in ["--mistake", mistake]]
        with Peer(decaf, arguments=["--idle-timeout", "5s"] + options) as peer:
            report, elapsed = conform(decaf, ["server", peer.address, "--idle-timeout", "5s", "--json"])
        row("server", "decaf peer " + " ".join(options), faults + mistakes, report, elapsed)
    for faults in [["new-sequence-on-resend"], ["double-ack", "depth-limit-three"], ["double-ack", "depth-limit-three", "new-sequence-on-resend"]]:
        options = [word for fault in faults for word in ["--fault", fault]]
        report, elapsed = conform(decaf, ["client", "--json", "--", decaf, "testee", "client"] + options)
        row("client", "decaf testee client " + " ".join(options), faults, report, elapsed)
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
