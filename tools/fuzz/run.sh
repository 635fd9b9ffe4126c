#!/usr/bin/env bash
# Builds the libFuzzer targets (frame decoder, dissector, TLV decoder, peer session, captures) with
# AddressSanitizer and runs each for SECONDS (default 60), seeded from the golden frames. Exits
# non-zero on any crash, leak or timeout, and when a target runs without coverage feedback.
set -euo pipefail
seconds=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$here"
# SwiftPM passes its two --sanitize flags to the compiler separately, and the frontend keeps only
# the last one: objects would get AddressSanitizer but no coverage counters, and libFuzzer would
# mutate blindly. The combined -Xswiftc flag comes last and instruments for both; the --sanitize
# flags are still needed so the link uses libFuzzer's main.
flags=(-c release --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address)
swift build "${flags[@]}"
bin=$(swift build "${flags[@]}" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Frame seeds: every golden frame, with a control byte in front (defaults and a byte-wise split).
mkdir -p "$work/frames" "$work/tlv" "$work/captures" "$work/corpus-FuzzFrameDecoder" "$work/corpus-FuzzDissector" "$work/corpus-FuzzPeerSession" "$work/corpus-tlv" "$work/corpus-FuzzCapture"
find "$root/Fixtures/frames" -name '*.bin' | while read -r file; do
    name=$(basename "$(dirname "$file")")-$(basename "$file" .bin)
    { printf '\x12'; cat "$file"; } > "$work/frames/$name-a"
    { printf '\x92'; cat "$file"; } > "$work/frames/$name-b"
    { printf '\x04'; tail -c +29 "$file"; } > "$work/tlv/$name"
done

# Capture seeds: every sample capture, read in small chunks, with and without a port.
for file in "$root"/Fixtures/captures/*.pcap*; do
    { printf '\x01'; cat "$file"; } > "$work/captures/$(basename "$file")-a"
    { printf '\x06'; cat "$file"; } > "$work/captures/$(basename "$file")-b"
done

export SWIFT_BACKTRACE=enable=no
for target in FuzzFrameDecoder FuzzDissector FuzzTLV FuzzPeerSession FuzzCapture; do
    case $target in
        FuzzFrameDecoder | FuzzDissector | FuzzPeerSession) seeds="$work/frames"; corpus="$work/corpus-$target" ;;
        FuzzTLV) seeds="$work/tlv"; corpus="$work/corpus-tlv" ;;
        FuzzCapture) seeds="$work/captures"; corpus="$work/corpus-$target" ;;
    esac
    echo "== $target: ${seconds}s"
    log="$work/$target.log"
    status=0
    "$bin/$target" "$corpus" "$seeds" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$here/" >"$log" 2>&1 || status=$?
    grep -E '^(INFO: Loaded 1 modules|INFO: seed corpus|stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb)' "$log" || true
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    coverage=$(sed -n 's/^#[0-9]*.* cov: \([0-9]*\) .*/\1/p' "$log" | tail -n 1)
    echo "final coverage: ${coverage:-none} edges"
    if [ "$status" -ne 0 ] || [ -z "$runs" ] || [ "$runs" -lt 1000 ] || [ -z "$coverage" ] || [ "$coverage" -lt 100 ]; then
        echo "$target failed (exit $status, ${runs:-no} executions, coverage ${coverage:-none}); the end of its log:" >&2
        tail -n 40 "$log" >&2
        ls "$here"/crash-* "$here"/leak-* "$here"/timeout-* "$here"/oom-* 2>/dev/null >&2 || true
        exit 1
    fi
done
echo "fuzzing finished without findings"
