# Decaf: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT ?= swift
DECAF := .build/debug/decaf
# System libraries the package links: libdeflate (CRC-32 and zlib bodies) and zlib (the reference
# the tests hold libdeflate to), found through pkg-config.
LIBRARIES := libdeflate-dev zlib1g-dev pkg-config
# Programs the tests and the demo run, each with the Debian package that has it: tshark (the
# Wireshark plugin and live-capture tests), xmllint (the JUnit report test), python3 (the reference
# testee and encoder), luac5.2 (the Wireshark plugin's Lua checked by Wireshark 4.0's Lua),
# afl-clang-fast (AFL++: the C testee instrumented for decaf fuzz --coverage, and afl-fuzz beside it).
TOOLS := tshark:tshark xmllint:libxml2-utils python3:python3 luac5.2:lua5.2 afl-clang-fast:afl++
# Python packages the tests run, each as MODULE:PACKAGE on PyPI: toxiproxy's own Python client,
# driving `decaf proxy --control` in a test.
PYTHON_PACKAGES := toxiproxy:toxiproxy-python

.PHONY: demo test build install docs deps testee-c server-c client-c fixtures fixtures-check fuzz sanitize bench bench-dissect bench-proxy bench-fuzz zoo monitor-faults load weak clean

## demo: install what is missing (as root), build, and show what Decaf does on golden frames.
demo: deps build
	@tools/demo.sh $(DECAF)

## test: the whole test suite (Swift Testing), built once and then run.
# The tests start Python a few hundred times: python3's own directory goes first on PATH, so a
# version manager's shim (pyenv's costs a shell and a fifth of a second a start) is passed once.
test: deps
	$(SWIFT) build --build-tests
	PATH="$$(python3 -c 'import os, sys; print(os.path.dirname(sys.executable))' 2>/dev/null || echo /usr/bin):$$PATH" $(SWIFT) test --skip-build

build:
	$(SWIFT) build --product decaf

## install: build decaf (release; CONFIGURATION=debug for the debug build) into $(PREFIX)/bin, its man page into $(PREFIX)/share/man/man1 and its bash, zsh and fish completions where those shells look under $(PREFIX)/share, and say where.
PREFIX ?= $(HOME)/.local
CONFIGURATION ?= release
install: deps
	$(SWIFT) build -c $(CONFIGURATION) --product decaf
	install -d "$(PREFIX)/bin" "$(PREFIX)/share/man/man1" "$(PREFIX)/share/bash-completion/completions" \
		"$(PREFIX)/share/zsh/site-functions" "$(PREFIX)/share/fish/vendor_completions.d"
	install -m 755 "$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/decaf" "$(PREFIX)/bin/decaf"
	$(SWIFT) package plugin generate-manual --configuration $(CONFIGURATION) >/dev/null
	install -m 644 .build/plugins/GenerateManual/outputs/decaf/decaf.1 "$(PREFIX)/share/man/man1/decaf.1"
	"$(PREFIX)/bin/decaf" --generate-completion-script bash > "$(PREFIX)/share/bash-completion/completions/decaf"
	"$(PREFIX)/bin/decaf" --generate-completion-script zsh > "$(PREFIX)/share/zsh/site-functions/_decaf"
	"$(PREFIX)/bin/decaf" --generate-completion-script fish > "$(PREFIX)/share/fish/vendor_completions.d/decaf.fish"
	@echo "decaf: $(PREFIX)/bin/decaf; its man page: $(PREFIX)/share/man/man1/decaf.1 (man decaf, with $(PREFIX)/share/man on MANPATH)"
	@echo "completions: $(PREFIX)/share/bash-completion/completions/decaf, $(PREFIX)/share/zsh/site-functions/_decaf, $(PREFIX)/share/fish/vendor_completions.d/decaf.fish"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) echo "decaf is on your PATH" ;; \
		*) echo "$(PREFIX)/bin is not on your PATH: add it (export PATH=\"$(PREFIX)/bin:\$$PATH\") or run $(PREFIX)/bin/decaf" ;; esac

## deps: install what the build, the tests and the demo need, when it is missing (needs root).
deps:
	@missing=$$(for p in $(LIBRARIES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done; \
		for t in $(TOOLS); do command -v $${t%%:*} >/dev/null 2>&1 || echo $${t#*:}; done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing" $$missing; \
			echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections; \
			DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
		else \
			echo "missing system packages:" $$missing "(run: sudo make deps)"; exit 1; \
		fi; \
	fi
	@for p in $(PYTHON_PACKAGES); do \
		python3 -c "import $${p%%:*}" 2>/dev/null && continue; \
		echo "installing $${p#*:} (PyPI)"; \
		python3 -m pip install -q --disable-pip-version-check "$${p#*:}" 2>/dev/null \
			|| python3 -m pip install -q --disable-pip-version-check --break-system-packages "$${p#*:}" \
			|| { echo "could not install $${p#*:}: the tests that need it will say they were skipped"; }; \
	done

## fixtures: regenerate every golden vector and frame file under Fixtures/.
fixtures: build
	$(DECAF) fixtures generate Fixtures

## fixtures-check: fail if regenerating the fixtures would change anything committed.
fixtures-check: build
	$(DECAF) fixtures verify Fixtures

## docs: DocC for DecafWire, DecafSession and DecafNIO into .build/docs, refused on any warning or any public symbol without documentation.
docs: deps
	tools/docs-check.sh

## sanitize: the listing engine's tests under ThreadSanitizer and AddressSanitizer (a few minutes).
sanitize: deps
	tools/sanitize/run.sh

## fuzz: run each libFuzzer target for 30 s (FUZZ_SECONDS to change), at least 250 executions a second each.
fuzz: deps
	tools/fuzz/run.sh $${FUZZ_SECONDS:-30}

## bench: run the codec benchmarks and report ratios against the C baseline and zlib, then what the diagnosis costs each suite's run; the tables go into docs/performance.md.
bench: deps
	tools/bench/record.py 'make bench' tools/bench/report.py
	tools/bench/record.py 'make bench (diagnosis)' tools/bench/diagnosis.py

## bench-dissect: decaf dissect (release) on 256 MiB and 1 GiB captures beside tshark with the plugin and cat; the table and the goals.
bench-dissect: deps
	$(SWIFT) build -c release --product decaf
	tools/bench/record.py 'make bench-dissect' tools/bench/dissect.py

## bench-proxy: bulk bytes and 64-byte round trips direct, through decaf proxy (release, no toxics), a plain forwarder and a splice forwarder, in one run; the table and the goals.
bench-proxy: deps
	tools/bench/record.py 'make bench-proxy' tools/bench/proxy.py

## bench-fuzz: decaf fuzz (release) against codec testees, decaf peer and client testees, inputs a second beside the conformance suite's cases a second; then decaf fuzz decoder --coverage beside afl-fuzz, 10 minutes each, on the C testee built with afl-clang-fast (edges by afl-showmap, planted defects found).
bench-fuzz: deps
	tools/bench/record.py 'make bench-fuzz' tools/bench/fuzz.py
	tools/bench/record.py 'make bench-fuzz: coverage' tools/bench/coverage.py

## testee-c: the C reference codec testee (tools/reference/testee.c) into .build/testee-c; CC=afl-clang-fast builds one AFL++ instruments.
testee-c: deps
	mkdir -p .build
	$(CC) -std=c11 -O2 -o .build/testee-c tools/reference/testee.c tools/reference/codec.c -lz

## client-c: the C reference client (tools/reference/client.c), into .build/client-c; CC=afl-clang-fast builds one AFL++ instruments.
client-c: deps
	mkdir -p .build
	$(CC) -std=c11 -O2 -o .build/client-c tools/reference/client.c tools/reference/codec.c -lz

## server-c: the C reference server (tools/reference/server.c) into .build/server-c; CC=afl-clang-fast builds one AFL++ instruments.
server-c: deps
	mkdir -p .build
	$(CC) -std=c11 -O2 -o .build/server-c tools/reference/server.c tools/reference/codec.c -lz

## zoo: every legal codec and client (decaf testee decoder|client with each combination of --choice) and server (decaf peer with each --choice, --refuse-after-body, a timestamp window, alone and together; ZOO_SIZE=N: every combination of up to N) through decaf conform and a 10-minute decaf fuzz campaign (ZOO_DURATION, ZOO_ROLE=codec|server|client to change; ZOO_JOBS=N: N members at once); any failure or finding is a false verdict.
zoo: deps
	tools/zoo/legal.py --duration $(or $(ZOO_DURATION),10m) --role $(or $(ZOO_ROLE),all) --size $(or $(ZOO_SIZE),1) --jobs $(or $(ZOO_JOBS),1)

## monitor-faults: each planted fault of the reference peer (through decaf proxy --pcap) and client (conform client --pcap) under its suite, judged by decaf monitor; fails unless the tables in docs/monitor.md are what it names (about 15 minutes).
monitor-faults: build
	tools/monitor/faults.py --role server --check docs/monitor.md
	tools/monitor/faults.py --role client --check docs/monitor.md

## load: decaf send against decaf peer, 100 connections; messages/s, latency, peer memory.
load: deps
	tools/bench/record.py 'make load' tools/bench/load.py

## weak: peer, proxy and client on loopback for each weak-network profile and silent outages of 5, 30 and 120 s, both client policies; the tables and the goals.
weak: deps
	tools/bench/record.py 'make weak' tools/weak/weak.py

clean:
	rm -rf .build tools/fuzz/.build tools/bench/.build tools/sanitize/.build
