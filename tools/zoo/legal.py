#!/usr/bin/env python3
"""The zoo of legal implementations, the long way (`make zoo`). Codecs: `decaf testee decoder` with
every combination of the choices the brief leaves a receiver (`decaf testee decoder --list-choices`),
each through `decaf conform decoder` and a `decaf fuzz decoder` campaign. Servers: `decaf peer` with
each choice the brief leaves a server alone (`decaf peer --list-choices`, `--refuse-after-body`, a
60 s `--timestamp-window`) and all together, and with the limits a receiver may set (told to the
suite and the fuzzer as well), each through `decaf conform server` and a `decaf fuzz
server` campaign. Clients: `decaf testee client` with every combination of its choices (`--list-choices`),
each through `decaf conform client` and a `decaf fuzz client` campaign. Release build. A legal
implementation passes every case and gives no finding; anything else is a false verdict of Decaf's
and the run exits 1. The default test run checks the same in memory (LegalCodecZooTests,
LegalServerZooTests, LegalClientZooTests); this is the campaign of `--duration` each (default 10m).

Usage: legal.py [--duration 10m] [--role codec|server|client|all] [--decaf PATH] [--keep DIR] [--only TEXT] [--size N] [--jobs N]

With --keep DIR, each member's findings stay in DIR/ROLE-CHOICES (a false verdict to reproduce);
without it they go with the member. --only TEXT runs the members whose choices (as the table
shows them) contain TEXT, e.g. a choice just added, or with --only =TEXT are exactly TEXT;
repeatable, a member runs when any matches. --jobs N runs N members at once, each with processes
of its own: on a machine of N cores or more, the whole zoo in 1/N of the time; each campaign still
runs for its --duration, with fewer inputs when the cores are shared.
"""
import argparse
import concurrent.futures
import itertools
import json
import os
import subprocess
import sys
import re
import select
import tempfile
from contextlib import contextmanager

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def listed(command):
    """The names a `--list-choices` command gives, one per line."""
    listing = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in listing.splitlines() if line.strip()]


def seconds(duration):
    """A --duration such as 90s, 10m or 1h, in seconds."""
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    for unit in sorted(units, key=len, reverse=True):
        if duration.endswith(unit) and duration[: -len(unit)].replace(".", "", 1).isdigit():
            return float(duration[: -len(unit)]) * units[unit]
    sys.exit(f"legal.py: --duration {duration}: give a number with ms, s, m or h, e.g. 10m")


def verdicts(conform, fuzz):
    """What a member's two runs say: cases passed, of how many, fuzz inputs, findings."""
    run = json.loads(conform.stdout)
    passed = sum(1 for case in run["cases"] if case["verdict"] in ("pass", "unsupported"))
    campaign = json.loads(fuzz.stdout)
    found = sum(1 for case in campaign["cases"] if case["id"].startswith("fuzz.finding-"))
    summary = next((case["summary"] for case in campaign["cases"] if case["id"] == "fuzz.campaign"), "")
    inputs = summary.split(" inputs")[0].split()[-1] if " inputs" in summary else "?"
    return passed, len(run["cases"]), inputs, found


def chosen(member, only):
    """Whether `--only` picks the member shown as `member`: any TEXT it contains, or =TEXT it is;
    every member when there is no --only."""
    return not only or any(member == text[1:] if text.startswith("=") else text in member for text in only)


@contextmanager
def findings_folder(keep, kind, member):
    """Where a member's campaign writes its findings: DIR/ROLE-CHOICES under --keep DIR, else a
    temporary folder that goes with the member."""
    if keep is None:
        with tempfile.TemporaryDirectory() as folder:
            yield folder
        return
    folder = os.path.join(keep, kind + "-" + re.sub(r"[^A-Za-z0-9.]+", "-", member).strip("-"))
    os.makedirs(folder, exist_ok=True)
    yield folder


def testees(role, decaf, duration, limit, keep, only, fuzz_options=()):
    """Every combination of a testee's choices (`decaf testee ROLE --list-choices`, ROLE decoder or
    client): each member's kind, name and job (its conformance exit status and verdicts)."""
    names = listed([decaf, "testee", role, "--list-choices"])
    kind = "codec" if role == "decoder" else role
    for count in range(len(names) + 1):
        for combination in itertools.combinations(names, count):
            member = ", ".join(combination) or "none"
            if not chosen(member, only):
                continue
            testee = [decaf, "testee", role] + [word for name in combination for word in ["--choice", name]]

            def job(testee=testee, member=member):
                conform = subprocess.run([decaf, "conform", role, "--json", "--"] + testee, capture_output=True, text=True, timeout=900)
                with findings_folder(keep, kind, member) as findings:
                    fuzz = subprocess.run([decaf, "fuzz", role, "--duration", duration, "--findings", findings, "--json", *fuzz_options, "--"] + testee,
                                          capture_output=True, text=True, timeout=limit)
                return conform.returncode, verdicts(conform, fuzz)
            yield kind, member, job


def codecs(decaf, duration, limit, keep, only):
    """Every combination of the receiver's choices."""
    return testees("decoder", decaf, duration, limit, keep, only)


def clients(decaf, duration, limit, keep, only):
    """Every combination of the client's choices, four testees at once."""
    return testees("client", decaf, duration, limit, keep, only, ["--jobs", "4"])


def servers(decaf, duration, limit, keep, only, size=1):
    """The peer with each combination of up to `size` of a server's choices (1: each alone), and
    all together; then with the limits a receiver may set (repeated tags allowed, a deeper
    nesting, a smaller body), told to the suite and the fuzzer with the same options: each member's
    kind, name and job (as for testees), each job with a peer of its own."""
    options = [["--choice", name] for name in listed([decaf, "peer", "--list-choices"])] + [["--refuse-after-body"], ["--timestamp-window", "60s"]]
    combined = [combination for count in range(1, min(size, len(options) - 1) + 1) for combination in itertools.combinations(options, count)]
    members = [([], [])] + [([word for option in combination for word in option], []) for combination in combined]
    members.append(([word for option in options for word in option], []))
    limits = ["--allow-duplicate-tags", "--depth-limit", "8", "--body-limit", "4096"]
    members.append((limits, limits))
    for member, told in members:
        name = " ".join(member) or "none"
        if not chosen(name, only):
            continue

        def job(member=member, told=told, name=name):
            peer = subprocess.Popen([decaf, "peer", "--listen", "127.0.0.1:0"] + member, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            try:
                # A peer that never says where it listens is a member that cannot run, not a wait for ever.
                if not select.select([peer.stdout], [], [], 30)[0]:
                    raise RuntimeError("decaf peer said nothing of where it listens within 30 s")
                line = peer.stdout.readline()
                if not line.startswith("listening on "):
                    said = f"said {line.strip()!r}" if line else "ended"
                    raise RuntimeError(f"decaf peer {said} instead of saying where it listens")
                address = line.split()[-1]
                conform = subprocess.run([decaf, "conform", "server", "--json", address] + told, capture_output=True, text=True, timeout=900)
                with findings_folder(keep, "server", name) as findings:
                    fuzz = subprocess.run([decaf, "fuzz", "server", address, "--duration", duration, "--findings", findings, "--json"] + told,
                                          capture_output=True, text=True, timeout=limit)
            finally:
                peer.terminate()
                try:
                    peer.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    peer.kill()
                    peer.wait()
            return conform.returncode, verdicts(conform, fuzz)
        yield "server", name, job


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", default="10m")
    parser.add_argument("--role", choices=["codec", "server", "client", "all"], default="all")
    parser.add_argument("--decaf", default=os.path.join(ROOT, ".build/release/decaf"))
    parser.add_argument("--keep", metavar="DIR", help="keep each member's findings in DIR/ROLE-CHOICES")
    parser.add_argument("--size", type=int, default=1, metavar="N",
                        help="servers: each combination of up to N of the choices, not only each alone (7 choices: 128 members in all)")
    parser.add_argument("--only", metavar="TEXT", action="append", default=[],
                        help="run only the members whose choices contain TEXT (=TEXT: are exactly TEXT); repeatable")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="run N members at once, each with its own processes (a row as each ends); 1 to 8")
    args = parser.parse_args()
    if not 1 <= args.jobs <= 8:
        sys.exit(f"legal.py: --jobs {args.jobs}: give 1 to 8 members at once")
    if args.decaf == parser.get_default("decaf"):
        subprocess.run(["swift", "build", "-c", "release", "--product", "decaf"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    decaf = args.decaf
    # Every wait has a deadline: a campaign ends within its duration and twice its answer timeout;
    # a conformance run within minutes.
    limit = seconds(args.duration) + 300
    jobs = "" if args.jobs == 1 else f", {args.jobs} members at once"
    print(f"the zoo of legal implementations: {os.path.relpath(decaf, ROOT)}, a {args.duration} fuzz campaign each{jobs}\n")
    print("| role | choices | conform: passed | fuzz: inputs | findings |")
    print("|---|---|---|---:|---:|")
    def sized_servers(*arguments):
        return servers(*arguments, size=args.size)
    roles = {"codec": [codecs], "server": [sized_servers], "client": [clients], "all": [codecs, sized_servers, clients]}[args.role]
    members = [member for role in roles for member in role(decaf, args.duration, limit, args.keep, args.only)]
    false_verdicts = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        running = {pool.submit(job): (kind, name) for kind, name, job in members}
        for row in concurrent.futures.as_completed(running):
            kind, member = running[row]
            try:
                status, (passed, cases, inputs, found) = row.result()
            except Exception as error:
                # A member whose run failed (a conformance run past its deadline, output that is not
                # a report) is a row of its own and fails the zoo; the other members go on.
                false_verdicts += 1
                print(f"| {kind} | {member} | did not run to its end: {error} | - | - |", flush=True)
                continue
            false_verdicts += (status != 0) + found
            print(f"| {kind} | {member} | {passed} of {cases} (exit {status}) | {inputs} | {found} |", flush=True)
    sys.exit(1 if false_verdicts else 0)


if __name__ == "__main__":
    main()
