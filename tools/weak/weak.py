#!/usr/bin/env python3
"""Weak-network lab: `decaf peer`, `decaf proxy` and `decaf send` on loopback, for each profile and
both client policies, with what users feel: messages attempted, sent and delivered (and why each
missing one is missing), duplicates, delivery latency, resends, reconnects, time to reconnect after
the network comes back, first connect.

Each run: a fresh peer (`--deliveries` logs every delivery), a proxy with the profile in front of it
(its phase lines say when the network came back), and `decaf send` with 10 connections of 100
messages at 5 a second each (`--messages` logs when each message went out and each handshake
completed); each connection may take until the deadline to finish its first handshake
(`--connect-deadline`, 10 s by default at a terminal), as a phone keeps trying. The logs are joined
on (session, sequence, timestamp): delivery latency is from a
message's first sending to its delivery at the peer; a duplicate is a second delivery of the same
message, counted from the peer's log, not from its replay memory.

Arrivals are also counted without the peer: the proxy records its upstream leg (`--pcap`), and
`decaf dissect --json` of that capture lists every DATA frame with a correct checksum that was
written to the peer's socket. Beside the peer's log this says whether the peer logged something
that never reached it, or missed something that did.

Silent outages: the network disappears with no FIN or RST (a blackhole both ways, after 5 s of a
good network) for N seconds, then comes back, as when a phone loses its network and finds it
again. Each connection keeps sending through it; what is timed is the time from the network's
return to that connection's first message delivered at the peer, which includes noticing that the
old connection is dead. A connection that delivers nothing after the return is counted, not
skipped.

Both ends are judged too: `decaf monitor --proxy` reads each run's capture (the client of each
connection to the proxy, the server of each upstream one) and must find nothing wrong with the
reference peer and client. The captures, the monitor's HTML reports and the logs stay in
`.build/weak/`; the handover run with the reliable policy is shown in the README (its monitor
report, and its timeline rendered by headless Chromium when `chromium` is installed).

Usage: weak.py [--profiles subway,lift,handover,wifi] [--outages 5,30,120] [--connections 10]
               [--count 100] [--rate 5] [--decaf PATH] [--keep DIR]
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PUBLISHED = {"subway": "92.5%", "lift": "88.1%"}
LOSS = {"subway": 0.3, "lift": 0.5}


class Process:
    """A decaf command whose first line is `listening on ADDRESS`; later lines are kept."""

    def __init__(self, arguments):
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = self.process.stdout.readline()
        match = re.match(r"listening on (\S+)", first)
        if not match:
            self.process.kill()
            sys.exit(f"{' '.join(arguments[:2])} did not start: {first}{self.process.stderr.read()}")
        self.address = match.group(1)
        self.lines = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def stop(self):
        self.process.send_signal(2)
        self.process.wait(timeout=30)
        self.reader.join(timeout=5)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


def outage_timeline(seconds, directory):
    """A timeline file: 5 s of a good network, `seconds` of blackhole both ways, then back for good."""
    path = os.path.join(directory, f"outage-{seconds}.json")
    with open(path, "w") as file:
        json.dump({"phases": [{"name": "up", "duration": "5s"},
                              {"name": "outage", "duration": f"{seconds}s", "toxics": [{"type": "blackhole"}]},
                              {"name": "back"}]}, file)
    return path


def run(decaf, profile, policy, args, directory, network, count, deadline):
    """One run of `decaf send` through a proxy with `network` (its arguments: a profile or a
    timeline), `count` messages per connection, everything settled within `deadline` seconds."""
    deliveries = os.path.join(directory, f"{profile}-{policy}-deliveries.jsonl")
    messages = os.path.join(directory, f"{profile}-{policy}-messages.jsonl")
    peer = Process([decaf, "peer", "--log-level", "critical", "--deliveries", deliveries])
    capture = os.path.join(directory, f"{profile}-{policy}.pcap")
    proxy = Process([decaf, "proxy", "127.0.0.1:0", peer.address, *network, "--json", "--seed", "7", "--pcap", capture])
    started = time.time()
    send = subprocess.run([decaf, "send", proxy.address, "--policy", policy, "--connections", str(args.connections),
                           "--count", str(count), "--rate", str(args.rate), "--deadline", f"{deadline}s", "--connect-deadline", f"{deadline}s",
                           "--messages", messages, "--json"], capture_output=True, text=True)
    proxy.stop()
    peer.stop()
    judged = judge(decaf, capture, proxy.address, os.path.join(directory, f"{profile}-{policy}.html"))
    report = json.loads(send.stdout.strip().splitlines()[-1])
    phases = [json.loads(line) for line in proxy.lines if '"phase"' in line]
    recoveries = [phase["at"] for phase in phases if phase.get("reset") and phase["at"] > started + 0.5]

    sent, connected, settled = {}, {}, {}
    for line in open(messages):
        record = json.loads(line)
        if "connected" in record:
            connected.setdefault(record["session"], []).append(record["connected"])
        else:
            key = (record["session"], record["sequence"], record["timestamp"])
            sent[key] = record["sent"]
            settled[record["session"]] = max(settled.get(record["session"], 0), record.get("acknowledged") or record["sent"])
    delivered, duplicates = {}, 0
    for line in open(deliveries):
        record = json.loads(line)
        key = (record["session"], record["sequence"], record["timestamp"])
        if key in delivered:
            duplicates += 1
        else:
            delivered[key] = record["delivered"]
    on_wire = wire_arrivals(decaf, capture, peer.address)
    # After a silent outage: from the network's return to each connection's first delivery.
    back = [phase["at"] for phase in phases if phase.get("phase") == "back"]
    back_to_delivery, never_back = [], 0
    if back:
        for session in connected:
            later = [at for key, at in delivered.items() if key[0] == session and at >= back[0]]
            if later:
                back_to_delivery.append(min(later) - back[0])
            else:
                never_back += 1
    latencies = [delivered[key] - sent[key] for key in delivered if key in sent]
    # Every message attempted is delivered, or missing for one of these reasons, each counted
    # once: its connection never finished a handshake; its connection did, but it was never sent
    # before the deadline; it was sent and given up unacknowledged; it was acknowledged but is
    # not in the peer's log (which would be the peer's or the log's fault).
    expected = args.connections * count
    acknowledged = {}
    for line in open(messages):
        record = json.loads(line)
        if "connected" not in record:
            acknowledged[(record["session"], record["sequence"], record["timestamp"])] = record.get("acknowledged")
    per_session = {}
    for key in sent:
        per_session[key[0]] = per_session.get(key[0], 0) + 1
    missing = {
        "on connections that never finished a handshake": (args.connections - len(connected)) * count,
        "never sent before the deadline": sum(count - per_session.get(session, 0) for session in connected),
        "sent, never reached the peer, given up": sum(1 for key, at in acknowledged.items()
                                                      if at is None and key not in delivered and key not in on_wire),
        "reached the peer (its capture), not in its log, given up": sum(1 for key, at in acknowledged.items()
                                                                       if at is None and key not in delivered and key in on_wire),
        "acknowledged, yet not in the peer's log": sum(1 for key, at in acknowledged.items() if at is not None and key not in delivered),
    }
    # Time from the network coming back to each connection that was still sending being ready again.
    reconnected = []
    for recovery in recoveries:
        for session, times in connected.items():
            if settled.get(session, 0) < recovery:
                continue
            later = [at for at in times if at >= recovery]
            if later:
                reconnected.append(later[0] - recovery)
    first = [min(times) - started for times in connected.values()]
    return {
        "profile": profile, "policy": policy,
        "attempted": expected, "sent": len(sent), "delivered_count": len(delivered), "missing": missing,
        "on_wire": len(on_wire), "wire_copies": sum(on_wire.values()) - len(on_wire),
        "logged_not_on_wire": sum(1 for key in delivered if key not in on_wire),
        "on_wire_not_logged": sum(1 for key in on_wire if key not in delivered),
        "delivered": len(delivered) / expected, "duplicates": duplicates,
        "mean": statistics.fmean(latencies) if latencies else float("nan"),
        "p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99),
        "resends": report["retransmissions"], "copies": report.get("copies", 0), "reconnects": report["reconnects"],
        "recovery_mean": statistics.fmean(reconnected) if reconnected else None,
        "recovery_p99": percentile(reconnected, 0.99) if reconnected else None,
        "first_connect": statistics.fmean(first) if first else float("nan"),
        "back_to_delivery": back_to_delivery, "never_back": never_back,
        "monitor": judged, "capture": capture, "proxy": proxy.address,
    }


def judge(decaf, capture, proxy_address, html):
    """What `decaf monitor` finds wrong in the proxy's capture: "pass", or each defect as
    "END REQUIREMENT (cause)"; its HTML report is written to `html`."""
    result = subprocess.run([decaf, "monitor", "--proxy", proxy_address, "--json", "--html", html, capture], capture_output=True, text=True)
    if result.returncode not in (0, 1):
        sys.exit(f"decaf monitor could not judge {capture} (exit {result.returncode}): {result.stderr.strip()}")
    report = json.loads(result.stdout)
    defects = [f"{d['end']} {d['requirement']} ({d['cause']})" for d in report["defects"]]
    return ", ".join(defects) if defects else "pass"


def showcase(decaf, row):
    """Writes the monitor's field metrics and verdict of `row`'s capture into the README between its markers, and
    renders the HTML report's timeline to docs/images/monitor-timeline.png with headless Chromium."""
    result = subprocess.run([decaf, "monitor", "--proxy", row["proxy"], row["capture"]], capture_output=True, text=True)
    readme = os.path.join(ROOT, "README.md")
    begin, end = "<!-- generated by make weak: monitor begin -->", "<!-- generated by make weak: monitor end -->"
    page = open(readme).read()
    if begin in page and end in page:
        before, rest = page.split(begin, 1)
        _, after = rest.split(end, 1)
        # The README shows the field metrics and the verdict; the table of requirements is in the HTML.
        lines = result.stdout.strip("\n").split("\n")
        metrics = next(index for index, line in enumerate(lines) if line.startswith("Field metrics"))
        block = "```text\n" + "\n".join(lines[metrics:]) + "\n```"
        open(readme, "w").write(before + begin + "\n" + block + "\n" + end + after)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("chromium is not installed: docs/images/monitor-timeline.png is left as it was", file=sys.stderr)
        return
    # The timeline and the field metrics of the report, on a page of their own, as tall as they are.
    report = open(row["capture"].removesuffix(".pcap") + ".html").read()
    section = report[report.index('<h2 id="timeline">'):]
    section = section[:section.index("</pre>") + len("</pre>")]
    height = int(float(re.search(r'<svg [^>]*height="([0-9.]+)"', section).group(1))) + 420
    page = os.path.join(os.path.dirname(row["capture"]), "timeline.html")
    open(page, "w").write('<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{font-family:sans-serif;margin:1em 2em;color:#222}'
                          'h2{font-size:1.2em}pre{background:#f6f6f6;padding:.5em;font-size:.8em}</style></head><body>' + section + "</body></html>")
    image = os.path.join(ROOT, "docs", "images", "monitor-timeline.png")
    os.makedirs(os.path.dirname(image), exist_ok=True)
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--window-size=1120,{height}",
                    f"--screenshot={image}", f"file://{page}"], capture_output=True, check=True)


def wire_arrivals(decaf, capture, peer_address):
    """How many times each message (session, sequence, timestamp) was written to the peer's socket:
    the DATA frames with a correct checksum on the proxy's upstream leg, as `decaf dissect` reads
    the proxy's capture."""
    arrivals = {}
    listing = subprocess.Popen([decaf, "dissect", "--json", capture], stdout=subprocess.PIPE, text=True)
    for line in listing.stdout:
        if '"DATA"' not in line:
            continue
        record = json.loads(line)
        header = record.get("header", {})
        if (record.get("record") == "frame" and record.get("status") == "ok" and header.get("msgTypeName") == "DATA"
                and record["direction"] == "client-to-server" and record["connection"]["server"] == peer_address):
            key = (header["sessionId"], header["sequence"], header["timestamp"])
            arrivals[key] = arrivals.get(key, 0) + 1
    if listing.wait() not in (0, 1):
        sys.exit(f"decaf dissect could not read the proxy's capture {capture} (exit {listing.returncode})")
    return arrivals


def throughput(decaf):
    """Messages per second straight to the peer and through a proxy without toxics."""
    peer = Process([decaf, "peer", "--log-level", "critical"])
    rates = {}
    try:
        for name, target in [("direct", None), ("proxy", "proxy")]:
            proxy = Process([decaf, "proxy", "127.0.0.1:0", peer.address]) if target else None
            address = proxy.address if proxy else peer.address
            result = subprocess.run([decaf, "send", address, "--connections", "10", "--count", "20000", "--json"],
                                    capture_output=True, text=True)
            rates[name] = json.loads(result.stdout.strip().splitlines()[-1])["messagesPerSecond"]
            if proxy:
                proxy.stop()
    finally:
        peer.stop()
    return rates


def text(seconds):
    return "-" if seconds is None else f"{seconds * 1000:.0f} ms"


def wire(row):
    """Distinct messages the proxy's capture shows written to the peer, and the extra copies of them
    (resends whose first copy or whose ACK was lost)."""
    return f"{row['on_wire']} (+{row['wire_copies']} copies)"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profiles", default="subway,lift,handover,wifi")
    parser.add_argument("--outages", default="5,30,120", help="silent outages to run, in seconds (empty for none)")
    parser.add_argument("--connections", type=int, default=10)
    parser.add_argument("--count", type=int, default=100, help="messages per connection")
    parser.add_argument("--rate", type=int, default=5, help="messages per second per connection")
    parser.add_argument("--deadline", type=int, default=120, help="seconds")
    parser.add_argument("--decaf", default=os.path.join(ROOT, ".build/release/decaf"))
    parser.add_argument("--keep", default=os.path.join(ROOT, ".build/weak"), help="where the captures, reports and logs stay")
    args = parser.parse_args()
    if not os.path.exists(args.decaf):
        subprocess.run(["swift", "build", "-c", "release", "--product", "decaf"], cwd=ROOT, check=True)

    rows = []
    shutil.rmtree(args.keep, ignore_errors=True)
    os.makedirs(args.keep)
    directory = args.keep
    for profile in [name for name in args.profiles.split(",") if name]:
        for policy in ["brief", "reliable"]:
            print(f"running {profile} with the {policy} policy...", file=sys.stderr, flush=True)
            rows.append(run(args.decaf, profile, policy, args, directory, ["--profile", profile], args.count, args.deadline))
    outages = []
    for seconds in [int(text) for text in args.outages.split(",") if text]:
        for policy in ["brief", "reliable"]:
            print(f"running a silent outage of {seconds} s with the {policy} policy...", file=sys.stderr, flush=True)
            # Messages keep coming through the outage and 15 s after it; all may take a minute more.
            count = args.rate * (5 + seconds + 15)
            row = run(args.decaf, f"outage-{seconds}", policy, args, directory, ["--timeline", outage_timeline(seconds, directory)],
                      count, 5 + seconds + 60)
            row["outage"] = seconds
            outages.append(row)
    rates = throughput(args.decaf)

    print(f"{args.connections} connections x {args.count} messages at {args.rate}/s each, per profile and policy; "
          f"{platform.node()}, {os.cpu_count()} cores\n")
    if rows:
        print("| profile | policy | attempted / sent / delivered | on the wire | delivered | of those sent | published | model | duplicates "
              "| latency mean / p50 / p99 | resends | copies | reconnects | reconnected after recovery, mean / p99 | first connect | decaf monitor |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for row in rows:
            loss = LOSS.get(row["profile"])
            model = f"{1 - (1 - (1 - loss) ** 2) ** 4:.1%}" if loss is not None and row["policy"] == "brief" else "-"
            published = PUBLISHED.get(row["profile"], "-") if row["policy"] == "brief" else "-"
            of_sent = f"{row['delivered_count'] / row['sent']:.2%}" if row["sent"] else "-"
            print(f"| {row['profile']} | {row['policy']} | {row['attempted']} / {row['sent']} / {row['delivered_count']} | {wire(row)} "
                  f"| {row['delivered']:.2%} | {of_sent} | {published} | {model} | {row['duplicates']} "
                  f"| {text(row['mean'])} / {text(row['p50'])} / {text(row['p99'])} | {row['resends']} | {row['copies']} | {row['reconnects']} "
                  f"| {text(row['recovery_mean'])} / {text(row['recovery_p99'])} | {text(row['first_connect'])} | {row['monitor']} |")
        print("\nWhy messages are missing (each message attempted and not delivered, once):\n")
        for row in rows:
            reasons = [f"{count} {reason}" for reason, count in row["missing"].items() if count]
            print(f"- {row['profile']}, {row['policy']}: " + ("; ".join(reasons) if reasons else "none missing"))
    if outages:
        print(f"\nSilent outages: 5 s of a good network, then a blackhole both ways (no FIN, no RST) for N s, then the network back; "
              f"{args.connections} connections sending {args.rate} messages a second each throughout. Back to delivery: from the network's "
              "return to the connection's first message delivered at the peer.\n")
        print("| outage | policy | attempted / sent / delivered | on the wire | delivered | duplicates | back to delivery, mean / p50 / p99 / max | never came back | decaf monitor |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|---|")
        for row in outages:
            times = row["back_to_delivery"]
            spread = (f"{text(statistics.fmean(times))} / {text(percentile(times, 0.5))} / {text(percentile(times, 0.99))} / {text(max(times))}"
                      if times else "-")
            print(f"| {row['outage']} s | {row['policy']} | {row['attempted']} / {row['sent']} / {row['delivered_count']} | {wire(row)} | {row['delivered']:.2%} "
                  f"| {row['duplicates']} | {spread} | {row['never_back']} of {args.connections} | {row['monitor']} |")
        print("\nWhy messages are missing after an outage:\n")
        for row in outages:
            reasons = [f"{count} {reason}" for reason, count in row["missing"].items() if count]
            print(f"- {row['outage']} s, {row['policy']}: " + ("; ".join(reasons) if reasons else "none missing"))
    ratio = rates["proxy"] / rates["direct"] if rates["direct"] else 0
    print(f"\nthroughput without toxics: direct {rates['direct']:,.0f} messages/s, through the proxy {rates['proxy']:,.0f} ({ratio:.2f}x)\n")

    goals = []
    reliable = {row["profile"]: row for row in rows if row["policy"] == "reliable"}
    for profile in ["subway", "lift", "handover"]:
        if profile in reliable:
            row = reliable[profile]
            goals.append((f"reliable at {profile}: 100.00% delivered, 0 duplicates", row["delivered"] == 1 and row["duplicates"] == 0))
    if "subway" in reliable:
        goals.append((f"reliable at subway: mean delivery latency at most 800 ms ({text(reliable['subway']['mean'])})", reliable["subway"]["mean"] <= 0.8))
    if "handover" in reliable and reliable["handover"]["recovery_mean"] is not None:
        row = reliable["handover"]
        goals.append((f"reconnected after the network came back: mean at most 0.5 s, p99 at most 1.5 s "
                       f"({text(row['recovery_mean'])}, {text(row['recovery_p99'])})",
                       row["recovery_mean"] <= 0.5 and row["recovery_p99"] <= 1.5))
    for row in outages:
        if row["policy"] == "reliable" and row["outage"] == 30:
            times = row["back_to_delivery"]
            mean, p99 = (statistics.fmean(times), percentile(times, 0.99)) if times else (float("inf"), float("inf"))
            goals.append((f"reliable after a 30 s silent outage: first delivery mean at most 1 s, p99 at most 3 s, every connection back "
                           f"({text(mean)}, {text(p99)}, {row['never_back']} never back)", mean <= 1 and p99 <= 3 and row["never_back"] == 0))
            goals.append((f"reliable through a 30 s silent outage: 100.00% delivered, 0 duplicates ({row['delivered']:.2%}, {row['duplicates']})",
                          row["delivered"] == 1 and row["duplicates"] == 0))
    everything = rows + outages
    logged_only = sum(row["logged_not_on_wire"] for row in everything)
    wire_only = sum(row["on_wire_not_logged"] for row in everything)
    goals.append((f"the peer's log agrees with the proxy's capture: no delivery logged that never reached the peer ({logged_only}), "
                  f"nothing that reached it missing from its log ({wire_only})", logged_only == 0 and wire_only == 0))
    goals.append((f"proxy without toxics at least half the direct throughput ({ratio:.2f}x)", ratio >= 0.5))
    judged = [row for row in everything if row["monitor"] != "pass"]
    goals.append((f"decaf monitor finds nothing wrong with the reference peer and client on any capture ({len(everything) - len(judged)} of {len(everything)} pass)",
                  not judged))
    if "handover" in reliable:
        showcase(args.decaf, reliable["handover"])
    for goal, met in goals:
        print(f"- {goal}: {'met' if met else 'MISSED'}")
    sys.exit(0 if all(met for _, met in goals) else 1)


if __name__ == "__main__":
    main()
