#!/usr/bin/env python3
"""The zoo of legal codecs, the long way (`make zoo`): `decaf testee decoder` with every
combination of the choices the brief leaves a receiver (`decaf testee decoder --list-choices`),
each run through `decaf conform decoder` and a `decaf fuzz decoder` campaign (release build). A
legal codec passes every case and gives no finding; anything else is a false verdict of Decaf's
and the run exits 1. The default test run checks the same in memory on fewer inputs
(LegalCodecZooTests); this is the campaign of `--duration` each (default 10m).

Usage: legal.py [--duration 10m] [--decaf PATH]
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def choices(decaf):
    """The choice names `decaf testee decoder --list-choices` gives."""
    listing = subprocess.run([decaf, "testee", "decoder", "--list-choices"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in listing.splitlines() if line.strip()]


def seconds(duration):
    """A --duration such as 90s, 10m or 1h, in seconds."""
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    for unit in sorted(units, key=len, reverse=True):
        if duration.endswith(unit) and duration[: -len(unit)].replace(".", "", 1).isdigit():
            return float(duration[: -len(unit)]) * units[unit]
    sys.exit(f"legal.py: --duration {duration}: give a number with ms, s, m or h, e.g. 10m")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", default="10m")
    parser.add_argument("--decaf", default=os.path.join(ROOT, ".build/release/decaf"))
    args = parser.parse_args()
    if args.decaf == parser.get_default("decaf"):
        subprocess.run(["swift", "build", "-c", "release", "--product", "decaf"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    decaf = args.decaf
    # Every wait has a deadline: a campaign ends within its duration and twice its answer timeout;
    # a conformance run of the codec suite within minutes.
    campaign_limit = seconds(args.duration) + 300
    names = choices(decaf)
    print(f"the zoo of legal codecs: decaf testee decoder with each combination of {', '.join(names)}; {os.path.relpath(decaf, ROOT)}, "
          f"a {args.duration} campaign each\n")
    print("| choices | conform decoder | fuzz decoder: inputs | findings |")
    print("|---|---|---:|---:|")
    false_verdicts = 0
    for count in range(len(names) + 1):
        for combination in itertools.combinations(names, count):
            testee = [decaf, "testee", "decoder"] + [word for name in combination for word in ["--choice", name]]
            conform = subprocess.run([decaf, "conform", "decoder", "--json", "--"] + testee, capture_output=True, text=True, timeout=600)
            run = json.loads(conform.stdout)
            passed = sum(1 for case in run["cases"] if case["verdict"] == "pass")
            with tempfile.TemporaryDirectory() as findings:
                fuzz = subprocess.run([decaf, "fuzz", "decoder", "--duration", args.duration, "--findings", findings, "--json", "--"] + testee,
                                      capture_output=True, text=True, timeout=campaign_limit)
            campaign = json.loads(fuzz.stdout)
            found = sum(1 for case in campaign["cases"] if case["id"].startswith("fuzz.finding-"))
            inputs = next((case["summary"] for case in campaign["cases"] if case["id"] == "fuzz.campaign"), "")
            inputs = inputs.split(" inputs")[0].split()[-1] if " inputs" in inputs else "?"
            false_verdicts += (conform.returncode != 0) + found
            print(f"| {', '.join(combination) or 'none'} | {passed} of {len(run['cases'])} passed (exit {conform.returncode}) "
                  f"| {inputs} | {found} |", flush=True)
    sys.exit(1 if false_verdicts else 0)


if __name__ == "__main__":
    main()
