#!/usr/bin/env python3
"""Coverage benchmark: `decaf fuzz decoder --coverage` (release) beside `afl-fuzz` itself, the same
time each, one after the other, on the same AFL++-instrumented binary: the C reference testee
(tools/reference/testee.c built with afl-clang-fast) with its two planted defects (`--plant`: an
abort behind the checksum, on an empty TEXT four containers deep, and one inside a zlib body, on a
TEXT that is not UTF-8). decaf speaks the testee protocol to it; afl-fuzz runs its `--raw` harness
(one stream on stdin, decoded with the brief's defaults), starting from the golden frames (those
of 1 MiB or less, AFL++'s file limit).

What is counted, the same way for both: the edges of the `--raw` harness that the campaign's queue
reaches, as afl-showmap -C counts them (AFL++'s own tool, on the same binary: the edges of the
testee protocol's JSON reading, which only decaf goes through, are left out); inputs run; and which
planted defect each saved crash fires (each crash input run again through the harness, its last
words read). What is left out: afl-fuzz's calibration and decaf's minimizing count in their time.

Usage: coverage.py [--seconds 600] [--decaf PATH]
"""
import glob
import os
import re
import shutil
import subprocess
import sys

from fuzz import timed_arguments

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLANTED = {"an empty TEXT four containers deep": "behind the checksum", "a TEXT in a zlib body that is not UTF-8": "inside a zlib body"}


def edges(harness, queue):
    """The edges of `harness` the inputs in `queue` reach, by afl-showmap -C."""
    result = subprocess.run(["afl-showmap", "-C", "-i", queue, "-o", os.devnull, "-t", "5000", "--"] + harness,
                            capture_output=True, text=True, env=dict(os.environ, AFL_QUIET="1"))
    match = re.search(r"coverage of (\d+) edges were achieved out of (\d+)", result.stdout + result.stderr)
    if not match:
        sys.exit(f"afl-showmap gave no coverage for {queue}: {result.stdout[-400:]}{result.stderr[-400:]}")
    return int(match.group(1)), int(match.group(2))


def planted(harness, inputs):
    """The planted defects the inputs fire, by the last words of the harness run on each."""
    fired = set()
    for path in inputs:
        with open(path, "rb") as data:
            result = subprocess.run(harness, stdin=data, capture_output=True, text=True)
        fired |= {where for words, where in PLANTED.items() if words in result.stderr}
    return fired


def main():
    for tool in ["afl-clang-fast", "afl-fuzz", "afl-showmap"]:
        if not shutil.which(tool):
            sys.exit(f"coverage.py: {tool} is missing: AFL++ is installed by `sudo make deps` (the Debian package afl++)")
    args = timed_arguments(__doc__, 600)
    work = os.path.join(ROOT, ".build/bench-coverage")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "seeds"))
    testee = os.path.join(work, "testee-afl")
    subprocess.run(["afl-clang-fast", "-std=c11", "-O2", "-o", testee, os.path.join(ROOT, "tools/reference/testee.c"), os.path.join(ROOT, "tools/reference/codec.c"), "-lz"],
                   check=True, capture_output=True, env=dict(os.environ, AFL_QUIET="1"))
    for number, frame in enumerate(sorted(glob.glob(os.path.join(ROOT, "Fixtures/frames/*/*.bin")))):
        if os.path.getsize(frame) <= 1 << 20:
            shutil.copy(frame, os.path.join(work, "seeds", f"{number:03d}.bin"))
    harness = [testee, "--raw", "--plant"]

    decaf = subprocess.run([args.decaf, "fuzz", "decoder", "--coverage", "--duration", f"{args.seconds}s", "--sync-dir", os.path.join(work, "decaf"),
                            "--sync-name", "decaf", "--findings", os.path.join(work, "decaf-findings"), "--", testee, "--plant"],
                           capture_output=True, text=True)
    summary = re.search(r"(\d+) inputs in ([\d.]+) s", decaf.stdout)
    if not summary:
        sys.exit(f"decaf fuzz printed no summary: {decaf.stdout[-400:]}{decaf.stderr[-400:]}")
    decaf_edges, total = edges([testee, "--raw"], os.path.join(work, "decaf", "decaf", "queue"))
    decaf_planted = {where for words, where in PLANTED.items() if any(words in line for line in decaf.stdout.splitlines() if line.startswith("CRASH:"))}

    afl_env = dict(os.environ, AFL_NO_UI="1", AFL_SKIP_CPUFREQ="1", AFL_NO_AFFINITY="1", AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1", AFL_QUIET="1")
    subprocess.run(["afl-fuzz", "-i", os.path.join(work, "seeds"), "-o", os.path.join(work, "afl"), "-V", str(args.seconds), "--"] + harness,
                   capture_output=True, text=True, env=afl_env)
    stats = open(os.path.join(work, "afl", "default", "fuzzer_stats")).read()
    afl_execs = int(re.search(r"execs_done\s*:\s*(\d+)", stats).group(1))
    afl_edges, _ = edges([testee, "--raw"], os.path.join(work, "afl", "default", "queue"))
    afl_planted = planted(harness, glob.glob(os.path.join(work, "afl", "default", "crashes", "id:*")))

    print(f"decaf fuzz decoder --coverage beside afl-fuzz, {args.seconds} s each, one after the other, on the C reference testee "
          f"built with afl-clang-fast (--plant); edges of its --raw harness ({total} in all) reached by each queue, by afl-showmap -C; "
          f"{os.cpu_count()} cores\n")
    print("| fuzzer | inputs | edges reached | planted defects found |")
    print("|---|---:|---:|---|")
    for name, inputs, reached, found in [("decaf fuzz decoder --coverage", int(summary.group(1)), decaf_edges, decaf_planted),
                                         ("afl-fuzz", afl_execs, afl_edges, afl_planted)]:
        named = ", ".join(sorted(found)) or "none"
        print(f"| {name} | {inputs:,} | {reached} | {len(found)} of {len(PLANTED)}: {named} |", flush=True)
    met = decaf_edges >= afl_edges and len(decaf_planted) == len(PLANTED)
    print(f"\ngoal: decaf reaches at least afl-fuzz's edges and finds every planted defect: {'met' if met else 'missed'}")
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
