#!/usr/bin/env bash
# Builds the libFuzzer targets (frame decoder, dissector, TLV decoder, peer and client sessions,
# the proxy's toxic pipe, captures, the parallel listing engine, the fuzzer's own mutator) with
# AddressSanitizer and runs each for SECONDS (default 60), seeded from the golden frames and the
# sample captures. Prints each target's executions per second and coverage, and exits non-zero on
# any crash, leak or timeout, when a target runs without coverage feedback, or when it runs fewer
# than MIN_EXECS_PER_SECOND (default 250) inputs a second: a target that slow explores nothing. The
# floor is a bound, not a goal: the slowest targets (dissector, captures) ran about 900 a second on a
# 2-core machine busy with a build beside them, and a target several times slower than that fails.
set -euo pipefail
seconds=${1:-60}
minimum=${MIN_EXECS_PER_SECOND:-250}
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

# Seeds: the first byte of an input is the target's control byte (options, chunking, output).
# Frames: every golden frame with two control bytes (defaults, then byte-wise splits and other
# options); TLV bodies: every golden frame's body; captures: every sample capture with a control
# byte per output the capture target renders (summary, tree with hexdump, JSON, statistics).
# Client sessions: every golden frame as the server's bytes, after faults, settings and a script
# (connect, read a frame, send a message, read, pass time, fire a timer, read, end the input).
mkdir -p "$work/frames" "$work/tlv" "$work/captures" "$work/client"
find "$root/Fixtures/frames" -name '*.bin' | while read -r file; do
    name=$(basename "$(dirname "$file")")-$(basename "$file" .bin)
    { printf '\x12'; cat "$file"; } > "$work/frames/$name-a"
    { printf '\x92'; cat "$file"; } > "$work/frames/$name-b"
    { printf '\x04'; tail -c +29 "$file"; } > "$work/tlv/$name"
    { printf '\x00\x00\x0d\x08\x00\x20\x65\x20\xc5\x40\x20\xe0'; cat "$file"; } > "$work/client/$name"
done
for file in "$root"/Fixtures/captures/*.pcap*; do
    for control in 01 2e 33 3b 7b; do
        { printf "\\x$control"; cat "$file"; } > "$work/captures/$(basename "$file")-$control"
    done
done

# A crash report keeps its own stack; allocation stacks are not recorded (malloc_context_size=0),
# which makes allocation-heavy targets several times faster. Rerun an artifact without
# ASAN_OPTIONS for full allocation stacks.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0}
export SWIFT_BACKTRACE=enable=no
summary=()
failed=0
for target in FuzzFrameDecoder FuzzDissector FuzzTLV FuzzPeerSession FuzzClientSession FuzzToxicPipe FuzzCapture FuzzRendering FuzzMutator; do
    asan=""
    case $target in
        FuzzFrameDecoder | FuzzDissector | FuzzPeerSession | FuzzMutator) seeds="$work/frames"; length=4096 ;;
        # A pipe's timing and its changes of toxics show in a few chunks; long inputs only slow it down.
        FuzzToxicPipe) seeds="$work/frames"; length=1024 ;;
        FuzzTLV) seeds="$work/tlv"; length=4096 ;;
        FuzzClientSession) seeds="$work/client"; length=4096 ;;
        FuzzCapture) seeds="$work/captures"; length=4096 ;;
        # Threads per input: ASan gives each a fake stack for finding a use of a returned frame's
        # stack, whose mapping costs more than the input; what this target is for is a use of a
        # freed chunk (the heap), so that one check is off here.
        FuzzRendering) seeds="$work/captures"; length=4096; asan=":detect_stack_use_after_return=0" ;;
    esac
    corpus="$work/corpus-$target"
    mkdir -p "$corpus"
    echo "== $target: ${seconds}s"
    log="$work/$target.log"
    status=0
    ASAN_OPTIONS="$ASAN_OPTIONS$asan" "$bin/$target" "$corpus" "$seeds" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 \
        -max_len="$length" -print_final_stats=1 -artifact_prefix="$here/" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
    coverage=$(sed -n 's/^#[0-9]*.* cov: \([0-9]*\) .*/\1/p' "$log" | tail -n 1)
    line=$(printf '%-17s %9s executions %7s/s  coverage %6s edges  peak RSS %5s MiB' "$target" "${runs:-0}" "${rate:-0}" "${coverage:-none}" "${rss:-?}")
    echo "$line"
    summary+=("$line")
    if [ "$status" -ne 0 ] || [ -z "$runs" ] || [ -z "$coverage" ] || [ "$coverage" -lt 100 ] || [ "${rate:-0}" -lt "$minimum" ]; then
        echo "$target failed (exit $status, ${rate:-0} executions a second where at least $minimum are needed, coverage ${coverage:-none}); the end of its log:" >&2
        tail -n 40 "$log" >&2
        ls "$here"/crash-* "$here"/leak-* "$here"/timeout-* "$here"/oom-* 2>/dev/null >&2 || true
        failed=1
    fi
done
echo
echo "fuzzing summary (${seconds}s per target, at least $minimum executions a second each):"
printf '  %s\n' "${summary[@]}"
[ "$failed" -eq 0 ] || exit 1
echo "fuzzing finished without findings"
