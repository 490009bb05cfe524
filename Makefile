# Almanac — build, test and demo. `make demo` and `make test` install what they need first.

SWIFT ?= swift
SWIFT_FLAGS ?=
# What `make install` ships and `make bench` measures: release, the Swift runtime linked in,
# position-independent executables with full RELRO (`-z now`: the GOT read-only once loaded)
# and, where glibc loads them (2.36 on: scripts/relr-flags.sh), their 49,000 relative
# relocations packed (RELR), which keeps the PIE's start-up cost and size near the
# position-dependent build's (the daemon parses the internet's feeds: ASLR of its own image
# matters more than the ~0.3 ms; docs/performance.md, "Position-independent binaries"), no
# dynamic symbol table of their own (nothing looks their symbols up at run time: 0.7 MB less
# each, and 0.6 MiB less of the daemon's binary touched at start), and every
# function in a section of its own, laid out by lld in the order release/hot-functions.txt
# gives (what runs at start-up and while idle first: the daemon maps a third as much of its
# binary; `make hot-functions` rewrites the list), identical functions folded into one by lld
# (`--icf=all`: Swift's specializations and value witnesses repeat, 0.94 MB of the daemon's
# 20.3; scripts/check-size.sh holds it under issue 27's 20 MB), and no RUNPATH (SwiftPM's
# `$ORIGIN`: no library of ours lies beside them; scripts/check-runpath.sh). See
# docs/performance.md.
RELEASE_LAYOUT = -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld -Xlinker --icf=all
RELEASE_ORDER = -Xlinker --symbol-ordering-file=$(CURDIR)/release/hot-functions.txt -Xlinker --no-warn-symbol-ordering
RELEASE_HARDENING = -Xlinker -z -Xlinker now $(shell scripts/relr-flags.sh)
# Concrete generic types' metadata made by their accessors, not from mangled names: made
# from a name, a type with requirements (`KeyedDecodingContainer<CodingKeys>` in every
# synthesized `init(from:)`, a `BusMethod<Args<…>, Args<…>>`) has each requirement looked
# up, and the runtime's first lookup of a type and protocol scans every conformance record
# of the program, afresh in each process: some 30 scans, 5 M instructions (12 %) of an
# `almanac get weather`. The same types; 0.35 % more bytes (the daemon 0.5 %: 19.93 MB
# stripped, under DAEMON_MAX_BYTES by 73 KB). docs/performance.md, "The two
# unsettled rows".
RELEASE_METADATA = -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
RELEASE_BASE = -c release --static-swift-stdlib --disable-local-rpath $(RELEASE_HARDENING) -Xlinker --no-export-dynamic $(RELEASE_LAYOUT) \
	$(RELEASE_METADATA)
RELEASE_FLAGS ?= $(RELEASE_BASE) $(RELEASE_ORDER)
# Where release builds go: install, bench, stress and hot-functions share it.
RELEASE_SCRATCH = --scratch-path .build-release
TEST_TIMEOUT ?= 1200
# How many tests run at once. Unbounded, Swift Testing starts all 600 together, and a hundred
# daemons, buses and fixture servers starting at once on two cores make every test wait
# minutes (docs/test-harness.md). Its switch is still called experimental.
TEST_WIDTH ?= 6
SWIFT_TEST = SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) timeout --kill-after=30 $(TEST_TIMEOUT) $(SWIFT) test --skip-build $(SWIFT_FLAGS)

.PHONY: all deps build test test-under-load demo dbus-demo leakcheck install deb deb-check bench clean stress soak fuzz asan tsan hot-functions

# `make install`'s folders: your home by default; packagers set PREFIX=/usr (the user unit then
# goes to $(PREFIX)/lib/systemd/user) and DESTDIR. STRIP=true keeps the symbols.
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DBUSDIR ?= $(DATADIR)/dbus-1/services
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
ifeq ($(PREFIX),$(HOME)/.local)
UNITDIR ?= $(HOME)/.config/systemd/user
else
UNITDIR ?= $(PREFIX)/lib/systemd/user
endif
STRIP ?= strip
# What dh_strip removes: symbols and debug information nothing links against, and the notes.
STRIP_FLAGS ?= --strip-unneeded --remove-section=.comment --remove-section=.note
# Issue 27's bound on the installed daemon, stripped: `make test` fails above it.
DAEMON_MAX_BYTES = 20000000
# Where `make deb` stages the package's files.
DEB_ROOT = $(CURDIR)/.build-release/deb/root

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

# The whole suite: unit tests, two-connection tests on private buses, interop with
# busctl/gdbus/dbus-send/dbus-monitor/python-dbus, and the leak check under valgrind.
test: deps
	$(SWIFT) build $(SWIFT_FLAGS)
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@# A hung test must fail the run in minutes, not use up CI's whole budget.
	$(SWIFT_TEST) \
		|| { status=$$?; [ $$status -ne 124 ] || echo "make test: the suite did not finish within $(TEST_TIMEOUT) s (a test hangs)"; exit $$status; }
	@# The idle daemon's wake-ups are counted where nothing else runs (IdleTests says why).
	ALMANAC_ALONE=IdleTests $(SWIFT_TEST) --filter IdleTests
	$(MAKE) --no-print-directory leakcheck
	@# What `make install` builds must build: Swift 6.3.1's optimiser has crashed on code the
	@# debug build compiles (docs/decisions.md). Its own folder, so the debug build stays.
	@# Built as `make install` builds it (RELEASE_FLAGS), it has no RUNPATH at all, and the
	@# daemon, stripped as installed, stays within issue 27's 20 MB (scripts/check-size.sh).
	bin="$$(SWIFT=$(SWIFT) scripts/release-build.sh $(RELEASE_FLAGS) --scratch-path .build-release-check $(SWIFT_FLAGS))" && \
		scripts/check-runpath.sh --none "$$bin/almanacd" "$$bin/almanac" && \
		STRIP_FLAGS="$(STRIP_FLAGS)" scripts/check-size.sh "$$bin/almanacd" $(DAEMON_MAX_BYTES)

# `make test` with two busy loops beside it (LOAD_PROCESSES=N for more), as on a packager's
# build machine or a laptop compiling something else: it must pass all the same.
test-under-load:
	scripts/under-load.sh $(MAKE) --no-print-directory test

# The main job: almanacd on the offline demo provider, two `almanac watch` views rendering a
# third client's changes live, and what dbus-monitor sees, until Ctrl-C (which exits 0).
# Needs no network and no session bus (it starts a private one when there is none).
# DEMO_SECONDS=N ends it by itself.
demo: deps
	$(SWIFT) build $(SWIFT_FLAGS)
	scripts/demo.sh

# The DBus module alone, talking to itself on a private bus while busctl and dbus-monitor look on.
dbus-demo: deps
	$(SWIFT) build --product dbus-demo $(SWIFT_FLAGS)
	scripts/dbus-demo.sh

# 10,000 calls and 10,000 signals through the DBus module under valgrind: any definite
# leak or memory error fails.
leakcheck: deps
	$(SWIFT) build --product dbus-soak $(SWIFT_FLAGS)
	scripts/leakcheck.sh

# Fault, load and bad-input runs against the real binaries on private buses and the
# fixture HTTP server (about 6 minutes; see docs/reliability.md). Not part of `make test`.
# STRESS_BIN=.build/debug to use the debug build; arguments: STRESS="vanish crash".
stress:
	@scripts/install-deps.sh stress
	@# The binaries `make install` ships.
	bin="$$(SWIFT=$(SWIFT) scripts/release-build.sh $(RELEASE_FLAGS) $(RELEASE_SCRATCH) $(SWIFT_FLAGS))" && \
		STRESS_BIN="$${STRESS_BIN:-$$bin}" /usr/bin/python3 scripts/stress.py $(STRESS)

# A month of a user's life in minutes: almanacd on a simulated clock, 30 days of feeds, weather,
# alerts, sleeps, network drops, views, downloads, sync and a player (about 15 minutes; see
# docs/reliability.md, "make soak"). Not part of `make test`. SOAK_DAYS=3 for the quick form,
# SOAK_SEED for another month, SOAK_BIN=.build/debug for the debug build.
soak:
	@scripts/install-deps.sh soak
	bin="$$(SWIFT=$(SWIFT) scripts/release-build.sh $(RELEASE_FLAGS) $(RELEASE_SCRATCH) $(SWIFT_FLAGS))" && \
		SOAK_BIN="$${SOAK_BIN:-$$bin}" /usr/bin/python3 scripts/soak.py

# libFuzzer with AddressSanitizer over the feed parser, OPML, Open-Meteo's JSON and D-Bus
# messages: FUZZ_RUNS (1,000,000) executions each. Its own build folder (.build-fuzz).
fuzz: deps
	@# Optimised (a debug build runs ~700 inputs/s); -enable-testing for @testable imports.
	$(SWIFT) build -c release --product almanac-fuzz --scratch-path .build-fuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -enable-testing $(SWIFT_FLAGS)
	scripts/fuzz.sh

# The whole suite under AddressSanitizer / ThreadSanitizer, each in its own build folder.
asan: deps
	$(SWIFT) build --build-tests --scratch-path .build-asan -Xswiftc -sanitize=address $(SWIFT_FLAGS)
	@# Leaks are `make leakcheck`'s (valgrind): LeakSanitizer's exit-time reports (ArgumentParser,
	@# Foundation, test statics) would turn the CLI's exit statuses into 1. See docs/reliability.md.
	ASAN_OPTIONS="$${ASAN_OPTIONS:-detect_leaks=0}" timeout --kill-after=30 $(TEST_TIMEOUT) \
		$(SWIFT) test --skip-build --scratch-path .build-asan -Xswiftc -sanitize=address $(SWIFT_FLAGS)

# Reports go to files (.build-tsan/reports/tsan.<pid>), one per process: written to a child's
# standard error, a pipe its test may not drain, a report blocks the child inside TSan.
tsan: deps
	$(SWIFT) build --build-tests --scratch-path .build-tsan -Xswiftc -sanitize=thread -Xswiftc -DTSAN $(SWIFT_FLAGS)
	rm -rf .build-tsan/reports && mkdir -p .build-tsan/reports
	TSAN_OPTIONS="$${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1 log_path=$(CURDIR)/.build-tsan/reports/tsan}" \
		timeout --kill-after=30 $(TEST_TIMEOUT) $(SWIFT) test --skip-build --scratch-path .build-tsan -Xswiftc -sanitize=thread -Xswiftc -DTSAN $(SWIFT_FLAGS); \
		status=$$?; echo "ThreadSanitizer reports: $$(cat .build-tsan/reports/tsan.* 2>/dev/null | grep -c 'WARNING: ThreadSanitizer')"; exit $$status

# Installs almanacd and almanac (release builds, static Swift runtime: RELEASE_FLAGS; stripped),
# their man pages and bash, zsh and fish completions, the systemd user unit and the D-Bus
# activation file: into your home by default (PREFIX, DESTDIR and the folders above change
# where); then `systemctl --user enable --now almanacd`.
install: deps
	bin="$$(SWIFT=$(SWIFT) scripts/release-build.sh $(RELEASE_FLAGS) $(RELEASE_SCRATCH) $(SWIFT_FLAGS))" && \
		scripts/check-runpath.sh --none "$$bin/almanacd" "$$bin/almanac" && \
		install -Dm755 "$$bin/almanacd" "$(DESTDIR)$(BINDIR)/almanacd" && install -Dm755 "$$bin/almanac" "$(DESTDIR)$(BINDIR)/almanac" && \
		$(STRIP) $(STRIP_FLAGS) "$(DESTDIR)$(BINDIR)/almanacd" "$(DESTDIR)$(BINDIR)/almanac" && \
		rm -rf "$$bin/generated" && scripts/generated-files.sh "$$bin" "$$bin/generated" && \
		install -Dm644 -t "$(DESTDIR)$(MANDIR)/man1" "$$bin"/generated/man1/*.1 && \
		install -Dm644 "$$bin/generated/almanac.bash" "$(DESTDIR)$(BASHCOMPDIR)/almanac" && \
		install -Dm644 "$$bin/generated/_almanac" "$(DESTDIR)$(ZSHCOMPDIR)/_almanac" && \
		install -Dm644 "$$bin/generated/almanac.fish" "$(DESTDIR)$(FISHCOMPDIR)/almanac.fish"
	mkdir -p "$(DESTDIR)$(UNITDIR)" "$(DESTDIR)$(DBUSDIR)"
	sed 's|%h/.local/bin|$(BINDIR)|' systemd/almanacd.service > "$(DESTDIR)$(UNITDIR)/almanacd.service"
	sed 's|@bindir@|$(BINDIR)|' systemd/org.almanac.Almanac1.service > "$(DESTDIR)$(DBUSDIR)/org.almanac.Almanac1.service"
	@if [ -z "$(DESTDIR)" ]; then \
		systemctl --user daemon-reload 2>/dev/null || echo "(no systemd user manager here: run 'systemctl --user daemon-reload' in your desktop session)"; \
		echo "Installed. Start it with: systemctl --user enable --now almanacd"; \
	fi

# almanac_VERSION_ARCH.deb: what `make install` installs with PREFIX=/usr, plus the docs and
# Depends from dpkg-shlibdeps; lintian must report no errors (docs/packaging.md).
deb:
	@scripts/install-deps.sh deb
	rm -rf "$(DEB_ROOT)"
	$(MAKE) --no-print-directory install DESTDIR="$(DEB_ROOT)" PREFIX=/usr BINDIR=/usr/bin DATADIR=/usr/share \
		MANDIR=/usr/share/man DBUSDIR=/usr/share/dbus-1/services UNITDIR=/usr/lib/systemd/user \
		BASHCOMPDIR=/usr/share/bash-completion/completions ZSHCOMPDIR=/usr/share/zsh/vendor-completions \
		FISHCOMPDIR=/usr/share/fish/vendor_completions.d
	scripts/deb.sh "$(DEB_ROOT)" .

# In a fresh Debian 12 root without Swift (debootstrap, chroot; needs root): installs the .deb
# with apt, runs both binaries on a private bus, opens man pages, completes in bash, removes
# it and finds nothing left. Not part of `make test`: see docs/packaging.md.
deb-check:
	@scripts/install-deps.sh deb-check
	scripts/deb-check.sh "$$(ls -t almanac_*.deb | head -n 1)"

# Every performance figure as a ratio against a peer run side by side (docs/performance.md):
# prints a table, writes bench/results.json and docs/performance.md. QUICK=1 for a short run.
# The binaries are measured stripped as `make install` strips them (STRIP, STRIP_FLAGS).
# Fails when a peer cannot run or a result is missing, never because a target was missed.
bench:
	@scripts/install-deps.sh bench
	SWIFT=$(SWIFT) RELEASE_FLAGS="$(RELEASE_FLAGS) $(RELEASE_SCRATCH)" STRIP="$(STRIP)" STRIP_FLAGS="$(STRIP_FLAGS)" scripts/bench.sh

# Rewrites release/hot-functions.txt from callgrind runs of the release binaries (start-up and
# idle, `almanac get`, a day's work) on a private bus with the test fixtures.
hot-functions: deps
	SWIFT=$(SWIFT) HOT_FLAGS="$(RELEASE_BASE) $(RELEASE_SCRATCH)" scripts/hot-functions.sh

clean:
	rm -rf .build .build-release .build-release-check .build-fuzz .build-asan .build-tsan
