#!/usr/bin/env bash
# Installs the system packages Almanac builds and tests with, when any is missing.
# Debian/Ubuntu only (apt-get); uses sudo when not root. A Swift 6 toolchain must be on PATH.
# `install-deps.sh bench` adds what `make bench` needs besides; `install-deps.sh stress` what
# `make stress` does, `install-deps.sh soak` what `make soak` does, `install-deps.sh deb` what `make deb` does; `install-deps.sh deb-check`
# installs only debootstrap (the check runs a built .deb, without Swift).
set -euo pipefail

packages=(
  pkg-config libdbus-1-dev      # the C library the DBus module wraps
  dbus-daemon dbus-bin          # private buses for tests and the demo; dbus-send, dbus-monitor
  libglib2.0-bin systemd        # gdbus, busctl, systemd-analyze: clients nobody here wrote
  python3 python3-dbus          # a D-Bus library of another language, for interop tests
  python3-gi                    # its GLib main loop, for a view client that listens (flow-control tests)
  gir1.2-pango-1.0              # Pango itself, through python3-gi: waybar's markup checked (StatusBarOutputTests)
  dunst xvfb                    # a real notification server on an X server of its own (NotificationMarkupTests)
  python3-jeepney               # a D-Bus library that answers no Peer.Ping by itself (flow-control tests)
  python3-dbusmock              # another project's notification daemon, logind and NetworkManager (dbusmock templates)
  valgrind tmux                 # leak checks, terminal tests
  libcurl4 libcurl4-openssl-dev # the daemon's HTTP client (AlmanacServices/HTTP, over CCurl)
  libsqlite3-dev                # SQLite (CSQLite, under our own layer): the state store
  man-db                        # man renders the generated man pages (GeneratedFilesTests)
  mpv mpv-mpris                 # a real MPRIS player, headless, for the player-steering tests
  iproute2                      # ip netns: test hosts on an address of the internet (TestHost)
)
if [ "${1:-}" = stress ]; then
  packages+=(bubblewrap strace)  # the unit's sandbox emulated; its system calls
fi
if [ "${1:-}" = soak ]; then
  packages+=(iptables util-linux)  # network drops in the soak's own network namespace (unshare)
fi
if [ "${1:-}" = deb ]; then
  packages+=(dpkg-dev lintian)   # dpkg-shlibdeps and dpkg-deb; the package's checks
fi
if [ "${1:-}" = deb-check ]; then
  packages=(debootstrap)         # a fresh Debian root; the check needs no toolchain
fi
if [ "${1:-}" = bench ]; then
  packages+=(hyperfine gcc python3-venv newsboat)  # CLI timing; the C peers; the Python parsers' venv; the refresh peer
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ "${1:-}" != deb-check ] && ! command -v swift >/dev/null 2>&1; then
  echo "error: no Swift toolchain on PATH. Install Swift 6 (https://www.swift.org/install/linux/) and run this again." >&2
  exit 1
fi
