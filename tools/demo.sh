#!/usr/bin/env bash
# The toolkit's main job: the conformance suite against the reference peer, correct and faulty;
# then the dissector, the peer's clients, captures and crafting, as a user would run them.
set -uo pipefail
decaf=${1:-.build/debug/decaf}
frames=Fixtures/frames

run() {
    # Shown as it would be typed: a word with a space or a pattern character in quotes.
    local shown=() word
    for word in "$@"; do
        if [[ $word =~ [[:space:]*?] ]]; then shown+=("'$word'"); else shown+=("$word"); fi
    done
    printf '\n\033[1m$ %s\033[0m\n' "${shown[*]}"
    "$@"
    local status=$?
    printf '\033[2m(exit status %s)\033[0m\n' "$status"
}

printf '\033[1mDecaf: a toolkit for the Decaf wire protocol (magic 0xDECAFBAD)\033[0m\n'
printf 'The rules are in Specs/decaf-wire-v1.md; every frame below is a committed golden vector.\n'

# Start and stop the reference peer on a free loopback port.
mkdir -p .build/demo
start_peer() {
    local out=.build/demo/$1.out
    shift
    "$decaf" peer --log-level warning "$@" > "$out" 2>/dev/null &
    peer_pid=$!
    for _ in $(seq 100); do grep -q '^listening' "$out" 2>/dev/null && break; sleep 0.05; done
    address=$(sed -n 's/^listening on //p' "$out")
}
stop_peer() {
    kill -INT "$peer_pid"
    wait "$peer_pid"
    printf '\033[2m(peer: %s)\033[0m\n' "$(tail -n 1 "$1")"
}

# The conformance suite against the reference peer: every case on its own connection.
printf '\n\033[1m$ %s\033[0m\n' "$decaf peer --idle-timeout 2 &"
start_peer conform-correct --idle-timeout 2
echo "listening on $address"
run "$decaf" conform server "$address" --idle-timeout 2 --junit .build/demo/conform.junit.xml --html .build/demo/conform.html
stop_peer .build/demo/conform-correct.out
# The same suite against a peer that answers every handshake with a fixed feature mask.
printf '\n\033[1m$ %s\033[0m\n' "$decaf peer --fault fixed-features &"
start_peer conform-faulty --fault fixed-features
echo "listening on $address"
run "$decaf" conform server "$address" --html .build/demo/conform-fixed-features.html
stop_peer .build/demo/conform-faulty.out
# A codec in another language, driven over a pipe: the Python reference testee.
run "$decaf" conform decoder --case 'codec.decode.checksum.*' -- python3 tools/reference/testee.py
# Clients: the suite plays a scripted server per case and starts the client under test for each.
# The Python reference client passes; Decaf's own client, told to resend under a new sequence, fails.
run "$decaf" conform client -- python3 tools/reference/client.py
run "$decaf" conform client --case 'client.retransmit.*' -- "$decaf" testee client --fault new-sequence-on-resend
# Fuzzing: a codec that passes every codec case but aborts on a rare input deep behind a valid
# checksum; the fuzzer finds it from the golden vectors, minimizes it and replays it.
rm -rf .build/demo/findings
run "$decaf" conform decoder -- "$decaf" testee decoder --fault crash-on-deep-empty-text
run "$decaf" fuzz decoder --max-findings 1 --body-limit 65536 --timeout 2s --findings .build/demo/findings -- "$decaf" testee decoder --fault crash-on-deep-empty-text
run "$decaf" fuzz replay .build/demo/findings/finding-1-crash.json -- "$decaf" testee decoder --fault crash-on-deep-empty-text
run "$decaf" dissect -V .build/demo/findings/finding-1-crash.bin
# A client that passes every client case but refuses a frame the brief accepts (an off-by-one in its
# depth count): the fuzzer's server sends each input after the handshake, four clients at once.
rm -rf .build/demo/client-findings
run "$decaf" fuzz client --max-findings 1 --seed 2 --jobs 4 --body-limit 65536 --timeout 3s --findings .build/demo/client-findings -- "$decaf" testee client --fault refuse-empty-deep-container --body-limit 65536
printf '\n\033[1mDissecting golden frames of the Decaf wire protocol (magic 0xDECAFBAD)\033[0m\n'
# A valid DATA frame, field by field.
run "$decaf" dissect -V "$frames/frame-basic/1.bin"
# A compressed body with a container, with a hexdump naming every byte's field.
run "$decaf" dissect -V --hexdump "$frames/zlib/501.bin"
# The interoperability defect the brief warns about: the checksum written little-endian.
run "$decaf" dissect "$frames/checksum/207.bin"
# Five nested containers, one more than the default depth limit.
run "$decaf" dissect "$frames/tlv-nesting/425.bin"
# A stream: good frames, garbage, a zlib bomb, then a good frame again; decoding resumes.
mkdir -p .build/demo
stream=.build/demo/mixed-stream.bin
cat "$frames/frame-basic/1.bin" "$frames/frame-basic/4.bin" > "$stream"
printf 'GET / HTTP/1.1\r\n' >> "$stream"
cat "$frames/zlib-bomb-default/560.bin" "$frames/frame-basic/7.bin" >> "$stream"
run "$decaf" dissect "$stream"
# Hex from the command line, as copied out of a log.
run "$decaf" dissect --hex "de ca fb ad 01 00 00 01 01 00 00 07 65 53 f1 00 00 00 44 4c 00 00 00 00 00 00 00 00"

# The reference peer again, recording to a pcap, and the clients against it.
printf '\n\033[1m$ %s\033[0m\n' "$decaf peer --pcap .build/demo/session.pcap &"
start_peer correct --pcap .build/demo/session.pcap --read-receipt-delay 2ms
echo "listening on $address"
run "$decaf" handshake "$address"
run "$decaf" send "$address" --count 500 --connections 4 --text "see you at eight"
stop_peer .build/demo/correct.out

# The capture the peer recorded, dissected: every frame per connection and direction, then stats.
run "$decaf" dissect .build/demo/session.pcap --connection 1 --type CONTROL --type READ_RECEIPT
run "$decaf" dissect --stats .build/demo/session.pcap
# A sample capture with damage: a bad checksum, garbage, a packet cut short, an HTTP connection.
run "$decaf" dissect Fixtures/captures/damaged.pcap
# Crafting: a frame with a checksum written little-endian, and a dissect/build round trip.
run "$decaf" build --type DATA --tlv TEXT=hi --timestamp 1700000000 --crc-little-endian
"$decaf" dissect --json "$frames/zlib/501.bin" | "$decaf" build --from - --binary | cmp - "$frames/zlib/501.bin" \
    && echo "decaf dissect --json | decaf build --from - gives back the same bytes"
run "$decaf" wireshark-plugin --output .build/demo/decaf.lua

run "$decaf" peer --list-faults
printf '\n\033[1m$ %s\033[0m\n' "$decaf peer --fault fixed-features --fault crc-little-endian &"
start_peer faulty --fault fixed-features --fault crc-little-endian
echo "listening on $address"
run "$decaf" handshake "$address" --features BASIC
stop_peer .build/demo/faulty.out
printf '\n\033[1mConformance reports:\033[0m %s (reference peer), %s (fixed-features fault), JUnit %s\n' \
    .build/demo/conform.html .build/demo/conform-fixed-features.html .build/demo/conform.junit.xml
exit 0
