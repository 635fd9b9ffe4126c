# Decaf: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT ?= swift
DECAF := .build/debug/decaf
# System libraries the package links: libdeflate (CRC-32 and zlib bodies) and zlib (the reference
# the tests hold libdeflate to), found through pkg-config.
LIBRARIES := libdeflate-dev zlib1g-dev pkg-config
# Programs the tests and the demo run, each with the Debian package that has it: tshark (the
# Wireshark plugin and live-capture tests), xmllint (the JUnit report test), python3 (the reference
# testee and encoder).
TOOLS := tshark:tshark xmllint:libxml2-utils python3:python3
# Python packages the tests run, each as MODULE:PACKAGE on PyPI: toxiproxy's own Python client,
# driving `decaf proxy --control` in a test.
PYTHON_PACKAGES := toxiproxy:toxiproxy-python

.PHONY: demo test build install deps fixtures fixtures-check fuzz sanitize bench bench-dissect bench-proxy bench-fuzz load weak clean

## demo: install what is missing (as root), build, and show what Decaf does on golden frames.
demo: deps build
	@tools/demo.sh $(DECAF)

## test: the whole test suite (Swift Testing), built once and then run.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

build:
	$(SWIFT) build --product decaf

## install: build decaf (release) and put it in $(PREFIX)/bin, so the README's `decaf ...` commands run as written.
PREFIX ?= $(HOME)/.local
install: deps
	$(SWIFT) build -c release --product decaf
	install -d "$(PREFIX)/bin"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/decaf" "$(PREFIX)/bin/decaf"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) echo "decaf is in $(PREFIX)/bin, on your PATH" ;; \
		*) echo "decaf is in $(PREFIX)/bin, which is not on your PATH: add it (export PATH=\"$(PREFIX)/bin:\$$PATH\") or run $(PREFIX)/bin/decaf" ;; esac

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

## sanitize: the listing engine's tests under ThreadSanitizer and AddressSanitizer (a few minutes).
sanitize: deps
	tools/sanitize/run.sh

## fuzz: run each libFuzzer target for 30 s (FUZZ_SECONDS to change), at least 250 executions a second each.
fuzz: deps
	tools/fuzz/run.sh $${FUZZ_SECONDS:-30}

## bench: run the codec benchmarks and report ratios against the C baseline and zlib.
bench: deps
	tools/bench/report.py

## bench-dissect: decaf dissect (release) on 256 MiB and 1 GiB captures beside tshark with the plugin and cat; the table and the goals.
bench-dissect: deps
	$(SWIFT) build -c release --product decaf
	tools/bench/dissect.py

## bench-proxy: bulk bytes and 64-byte round trips direct, through decaf proxy (release, no toxics), a plain forwarder and a splice forwarder, in one run; the table and the goals.
bench-proxy: deps
	tools/bench/proxy.py

## bench-fuzz: decaf fuzz (release) against codec testees, decaf peer and client testees, inputs a second beside the conformance suite's cases a second.
bench-fuzz: deps
	tools/bench/fuzz.py

## load: decaf send against decaf peer, 100 connections; messages/s, latency, peer memory.
load: deps
	tools/bench/load.py

## weak: peer, proxy and client on loopback for each weak-network profile and silent outages of 5, 30 and 120 s, both client policies; the tables and the goals.
weak: deps
	tools/weak/weak.py

clean:
	rm -rf .build tools/fuzz/.build tools/bench/.build tools/sanitize/.build
