#!/usr/bin/env python3
"""Fuzzer benchmark: inputs per second of `decaf fuzz decoder` (release) against Decaf's own codec
testee and the Python reference testee, beside the codec conformance suite against the same testee
in the same run (the baseline: the same request and answer over the same pipe, with no mutating,
no oracle and no minimizing).

What is counted: inputs the testee was asked about and answered, from the campaign's first to its
last (the summary line's count and time); for the suite, cases per second from its own run time
(start-up of the testee included once in both). What is left out: minimizing, as the testees here
give no finding. Options: the default body limit (10 MiB: a bomb at the limit makes the testee
inflate and hex-encode 10 MiB, so these inputs weigh most) and a 64 KiB limit.

Usage: fuzz.py [--seconds 20] [--decaf PATH]
"""
import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fuzz(decaf, testee, seconds, limit, directory):
    arguments = [decaf, "fuzz", "decoder", "--duration", f"{seconds}s", "--findings", directory]
    if limit:
        arguments += ["--body-limit", str(limit)]
    result = subprocess.run(arguments + ["--"] + testee, capture_output=True, text=True)
    match = re.search(r"(\d+) inputs in ([\d.]+) s .*?(\d+) findings?", result.stdout)
    if not match:
        sys.exit(f"decaf fuzz decoder printed no summary: {result.stdout}{result.stderr}")
    inputs, elapsed, findings = int(match.group(1)), float(match.group(2)), int(match.group(3))
    return inputs / elapsed, findings


def suite(decaf, testee):
    started = time.perf_counter()
    result = subprocess.run([decaf, "conform", "decoder", "--"] + testee, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    match = re.search(r"(\d+) cases:", result.stdout)
    if not match:
        sys.exit(f"decaf conform decoder printed no summary: {result.stdout}{result.stderr}")
    return int(match.group(1)) / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--decaf", default=os.path.join(ROOT, ".build/release/decaf"))
    args = parser.parse_args()
    if args.seconds < 1:
        sys.exit("give --seconds 1 or more")
    subprocess.run(["swift", "build", "-c", "release", "--product", "decaf"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    testees = {"decaf testee decoder": [args.decaf, "testee", "decoder"],
               "tools/reference/testee.py": ["python3", os.path.join(ROOT, "tools/reference/testee.py")]}
    directory = os.path.join(ROOT, ".build/bench-fuzz")
    print(f"decaf fuzz decoder, {args.seconds} s a row, release build; {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}\n")
    print("| testee | body limit | fuzz inputs/s | conform decoder cases/s (baseline) | ratio | findings |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, testee in testees.items():
        baseline = suite(args.decaf, testee)
        for limit in [None, 65536]:
            rate, findings = fuzz(args.decaf, testee, args.seconds, limit, directory)
            print(f"| {name} | {limit or 10485760} | {rate:,.0f} | {baseline:,.0f} | {rate / baseline:.2f}x | {findings} |")


if __name__ == "__main__":
    main()
