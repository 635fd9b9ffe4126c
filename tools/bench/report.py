#!/usr/bin/env python3
"""Runs the codec benchmarks and reports each implementation against the baseline measured in the
same run, as a markdown table, then checks the decode targets.

Usage: report.py [--from FILE.jmh.json ...] [--filter REGEX] [--rounds N]

Benchmarks are named "<workload> (<N> frames, <B> B): <implementation>"; every implementation of a
workload ran over the same bytes. Ratios are baseline time / implementation time, so 0.8x means
80% of the baseline's throughput. The whole suite runs --rounds times (3), one round after the
other, and each benchmark keeps its best round (the lowest median): this machine's speed drifts
by a third over minutes, and a slow spell during one implementation's turn would otherwise be
read as that implementation's cost.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

BASELINES = ["C baseline", "zlib"]
# (workload prefix, implementation, minimum ratio, unit the target is stated in)
TARGETS = [
    ("decode 44-byte frames", "DecafWire", 0.8, "frames/s"),
    ("decode 1 KiB-body frames", "DecafWire", 0.8, "bytes/s"),
    ("decode 64 KiB-body frames", "DecafWire", 0.8, "bytes/s"),
]
NAME = re.compile(r"^(?P<workload>.*) \((?P<frames>\d+) frames, (?P<bytes>\d+) B\): (?P<impl>.*)$")


def run_benchmarks(filter_regex):
    here = os.path.dirname(os.path.abspath(__file__))
    out = tempfile.mkdtemp(prefix="decaf-bench-")
    command = ["swift", "package", "benchmark", "--format", "jmh", "--path", out, "--no-progress"]
    if filter_regex:
        command += ["--filter", filter_regex]
    subprocess.run(command, cwd=here, check=True, stdout=subprocess.DEVNULL)
    return os.path.join(out, "Current_run.jmh.json")


def load(paths):
    """Each benchmark's best round among the exports in `paths`."""
    results = {}
    for path in paths:
        for workload, impls in load_round(path).items():
            for impl, result in impls.items():
                best = results.setdefault(workload, {}).get(impl)
                if best is None or result["time_us"] < best["time_us"]:
                    results[workload][impl] = result
    return results


def load_round(path):
    results = {}
    for entry in json.load(open(path)):
        name = entry["benchmark"].split("DecafBenchmarks.", 1)[1].replace("_", " ")
        match = NAME.match(name)
        if not match:
            continue
        metrics = entry["secondaryMetrics"]
        time_us = metrics["Time (wall clock)"]["scorePercentiles"]["50.0"]
        mallocs = metrics.get("Malloc (total)", {}).get("scorePercentiles", {}).get("50.0", 0)
        workload = match["workload"]
        results.setdefault(workload, {})[match["impl"]] = {
            "time_us": time_us,
            "frames": int(match["frames"]),
            "bytes": int(match["bytes"]),
            "mallocs": mallocs,
        }
    return results


def human_rate(value, unit):
    for scale, prefix in [(1e9, "G"), (1e6, "M"), (1e3, "k")]:
        if value >= scale:
            return f"{value / scale:.2f} {prefix}{unit}"
    return f"{value:.0f} {unit}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="sources", nargs="+", help="read existing JMH exports (rounds) instead of running")
    parser.add_argument("--filter", help="run only benchmarks matching this regex")
    parser.add_argument("--rounds", type=int, default=3, help="how many times the suite runs (each benchmark keeps its best)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("give --rounds 1 or more")
    results = load(args.sources or [run_benchmarks(args.filter) for _ in range(args.rounds)])

    print("| workload | implementation | p50 per run | frames/s | bytes/s | vs baseline | mallocs/frame |")
    print("|---|---|---:|---:|---:|---:|---:|")
    ratios = {}
    for workload in sorted(results):
        impls = results[workload]
        baseline = next((b for b in BASELINES if b in impls), None)
        for impl, r in sorted(impls.items(), key=lambda kv: (kv[0] != baseline, kv[0])):
            seconds = r["time_us"] / 1e6
            ratio = impls[baseline]["time_us"] / r["time_us"] if baseline else None
            ratios[(workload, impl)] = ratio
            shown = "baseline" if impl == baseline else (f"{ratio:.2f}x" if ratio else "-")
            print(f"| {workload} | {impl} | {r['time_us']:.1f} µs | {human_rate(r['frames'] / seconds, '')} "
                  f"| {human_rate(r['bytes'] / seconds, 'B')} | {shown} | {r['mallocs'] / r['frames']:.2f} |")

    print()
    missed = 0
    for prefix, impl, minimum, unit in TARGETS:
        ratio = next((v for (w, i), v in ratios.items() if w.startswith(prefix) and i == impl), None)
        if ratio is None:
            print(f"- {prefix}, {impl}: not measured in this run")
            continue
        verdict = "met" if ratio >= minimum else f"MISSED by {(minimum - ratio) / minimum:.0%}"
        missed += ratio < minimum
        print(f"- {prefix}, {impl}: {ratio:.2f}x the C baseline's {unit} (target {minimum}x): {verdict}")
    for (workload, impl), _ in ratios.items():
        r = results[workload][impl]
        if workload.startswith("decode") and impl.startswith("DecafWire") and "reads" not in workload and r["mallocs"] != 0:
            print(f"- {workload}, {impl}: {r['mallocs'] / r['frames']:.2f} heap allocations per frame (target 0)")
            missed += 1
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
