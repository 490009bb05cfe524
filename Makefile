# Almanac — build, test and demo. `make demo` and `make test` install what they need first.

SWIFT ?= swift
SWIFT_FLAGS ?=

.PHONY: all deps build test demo leakcheck clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

# The whole suite: unit tests, two-connection tests on private buses, interop with
# busctl/gdbus/dbus-send/dbus-monitor/python-dbus, and the leak check under valgrind.
test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build $(SWIFT_FLAGS)
	$(MAKE) --no-print-directory leakcheck

# The main job: for now, the D-Bus layer talking to itself on a private bus, watched by
# busctl and dbus-monitor. Offline; needs no session bus.
demo: deps
	$(SWIFT) build --product dbus-demo $(SWIFT_FLAGS)
	scripts/demo.sh

# 10,000 calls and 10,000 signals through the DBus module under valgrind: any definite
# leak or memory error fails.
leakcheck: deps
	$(SWIFT) build --product dbus-soak $(SWIFT_FLAGS)
	scripts/leakcheck.sh

clean:
	rm -rf .build
