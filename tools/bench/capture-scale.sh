#!/usr/bin/env bash
# Measures `decaf dissect --stats` on generated captures of 100 MiB and 1 GiB (tools/bench/big_capture.py):
# time, throughput and peak memory for each, and the ratios that show time linear and memory
# bounded in the capture's size. Usage: tools/bench/capture-scale.sh [decaf]; needs ~1.2 GB in .build/.
set -euo pipefail
cd "$(dirname "$0")/../.."
decaf=${1:-.build/debug/decaf}
out=.build/capture-scale
mkdir -p "$out"
declare -A seconds rss
for size in 100 1024; do
    file=$out/decaf-$size.pcap
    [ -f "$file" ] || python3 tools/bench/big_capture.py "$file" "$size" >/dev/null
    # Peak resident memory from the kernel's own accounting, via GNU time's format when present.
    start=$(date +%s.%N)
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "%M" -o "$out/rss-$size" "$decaf" dissect --stats "$file" > "$out/stats-$size.txt"
        rss[$size]=$(tail -n 1 "$out/rss-$size")
    else
        "$decaf" dissect --stats "$file" > "$out/stats-$size.txt"
        rss[$size]=0
    fi
    seconds[$size]=$(echo "$(date +%s.%N) - $start" | bc -l)
    frames=$(head -n 1 "$out/stats-$size.txt" | cut -d' ' -f1)
    printf '%5s MiB: %7.2f s, %7.1f MiB/s, %s frames, peak RSS %s MiB\n' "$size" "${seconds[$size]}" \
        "$(echo "$size / ${seconds[$size]}" | bc -l)" "$frames" "$(( ${rss[$size]} / 1024 ))"
done
printf 'time per byte, 1 GiB vs 100 MiB: %.2fx (1.00x is linear); peak memory 1 GiB vs 100 MiB: %.2fx\n' \
    "$(echo "(${seconds[1024]} / 1024) / (${seconds[100]} / 100)" | bc -l)" "$(echo "${rss[1024]} / ${rss[100]}" | bc -l)"
