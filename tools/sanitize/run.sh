#!/usr/bin/env bash
# Runs the listing engine's tests (parallel rendering, capture batches, TCP reassembly) under
# ThreadSanitizer, then AddressSanitizer (with LeakSanitizer): the code with threads, raw memory and
# exclusivity opt-outs, in debug builds, where its invariants are also asserted. Only the engine's
# modules are built with a sanitizer, so each run takes a minute or two, not a build of everything.
# Exits non-zero on any report or failed test.
set -euo pipefail
cd "$(dirname "$0")"
# One global computed once is reported at exit; lsan.supp says why and names only it.
export LSAN_OPTIONS="suppressions=$PWD/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
for sanitizer in thread address; do
    echo "== the engine's tests under the ${sanitizer} sanitizer"
    swift build --build-tests --sanitize="$sanitizer"
    # XCTest's own runner leaks a few objects at exit; only Swift Testing runs these tests.
    swift test --skip-build --sanitize="$sanitizer" --disable-xctest
done
