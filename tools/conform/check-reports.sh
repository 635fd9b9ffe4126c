#!/usr/bin/env bash
# Checks the conformance reports as their readers see them: runs the suite against the reference
# peer with a fault, validates the JUnit report against Specs/junit.xsd with xmllint, and renders
# the HTML report in headless Chromium to a PNG; then the same of decaf monitor's reports on a
# capture of that peer (installing libxml2-utils and chromium when
# missing, as root). Usage: tools/conform/check-reports.sh [decaf] ; the PNG is left in .build/conform/.
set -euo pipefail
cd "$(dirname "$0")/../.."
decaf=${1:-.build/debug/decaf}
out=.build/conform
mkdir -p "$out"
need() { command -v "$1" >/dev/null 2>&1 || { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null; }; }
need xmllint libxml2-utils
need chromium chromium

"$decaf" peer --log-level warning --fault double-control-ack > "$out/peer.out" 2>/dev/null &
peer=$!
trap 'kill -INT $peer 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q '^listening' "$out/peer.out" 2>/dev/null && break; sleep 0.05; done
address=$(sed -n 's/^listening on //p' "$out/peer.out")
status=0
"$decaf" conform server "$address" --junit "$out/report.xml" --html "$out/report.html" > "$out/report.txt" || status=$?
[ "$status" = 1 ] || { echo "expected exit status 1 against a faulty peer, got $status" >&2; exit 1; }
xmllint --noout --schema Specs/junit.xsd "$out/report.xml"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,1600 \
    --screenshot="$out/report.png" "file://$PWD/$out/report.html" 2>/dev/null
[ -s "$out/report.png" ] || { echo "chromium rendered nothing" >&2; exit 1; }
grep -q 'id="summary"' "$out/report.html"
echo "JUnit valid; HTML rendered to $out/report.png ($(stat -c %s "$out/report.png") bytes)"

# decaf monitor's reports of the same run, from the peer's capture: the JUnit valid, the HTML with
# its sessions in time rendered.
kill -INT $peer; wait $peer 2>/dev/null || true
"$decaf" peer --log-level warning --fault double-control-ack --pcap "$out/monitor.pcap" > "$out/peer.out" 2>/dev/null &
peer=$!
for _ in $(seq 100); do grep -q '^listening' "$out/peer.out" 2>/dev/null && break; sleep 0.05; done
address=$(sed -n 's/^listening on //p' "$out/peer.out")
"$decaf" send "$address" --connections 3 --count 20 > /dev/null
kill -INT $peer; wait $peer 2>/dev/null || true
status=0
"$decaf" monitor "$out/monitor.pcap" --junit "$out/monitor.xml" --html "$out/monitor.html" > "$out/monitor.txt" || status=$?
[ "$status" = 1 ] || { echo "expected decaf monitor to fail the faulty peer (exit status 1), got $status" >&2; exit 1; }
xmllint --noout --schema Specs/junit.xsd "$out/monitor.xml"
grep -q 'id="timeline"' "$out/monitor.html"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,1200 \
    --screenshot="$out/monitor.png" "file://$PWD/$out/monitor.html" 2>/dev/null
[ -s "$out/monitor.png" ] || { echo "chromium rendered nothing of the monitor's report" >&2; exit 1; }
echo "monitor: JUnit valid; HTML with its timeline rendered to $out/monitor.png ($(stat -c %s "$out/monitor.png") bytes)"
