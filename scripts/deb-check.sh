#!/usr/bin/env bash
# `make deb-check`: installs almanac_*.deb in a fresh Debian 12 root with no Swift toolchain
# and checks what a user gets. Needs root (debootstrap, chroot, mount) and the network to the
# machine's configured Debian mirror, once: debootstrap's packages are kept in
# .cache/deb-check/ (gitignored) for the next run. Each run unpacks a new root, checks, and
# deletes it.
#   deb-check.sh almanac_VERSION_ARCH.deb
# Checks, in the root (each line "ok: …" or the run fails with "FAIL: …"):
#   apt install ./almanac_*.deb resolves Depends from the mirror; nothing is left unresolved
#   (ldd); no swift anywhere; as a user, on a private bus (dbus-run-session), `almanacd
#   --provider demo` answers `almanac status`; D-Bus activation alone starts /usr/bin/almanacd
#   for `almanac status`; `man almanac`, `man almanac-podcasts` and `man almanacd` open;
#   bash completes `almanac <TAB>` with the subcommands from the installed completion; the
#   installed unit runs and binds /usr/bin/almanacd (ExecStart=, BindReadOnlyPaths=) and
#   passes `systemd-analyze verify --user` and `security --user` (≤ 3.0);
#   `apt remove almanac` leaves none of its files, and a second install and remove leaves the
#   whole tree as it was (apt's and dpkg's records, logs, caches and the homes aside).
set -euo pipefail
cd "$(dirname "$0")/.."

deb=${1:-}
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
  echo "deb-check: no package to check${deb:+ at $deb} — run 'make deb' first" >&2
  exit 64
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "deb-check: needs root (debootstrap, chroot and mount) — run it with sudo" >&2
  exit 77
fi

suite=bookworm
cache="$PWD/.cache/deb-check"
# What the root has besides minbase: a session bus, man, bash-completion and systemd (what a
# desktop has); `useradd` is in minbase already. The list names the cached tarball.
include=dbus,man-db,bash-completion,less,systemd
mirror=$(apt-get indextargets --format '$(REPO_URI)' 'Identifier: Packages' "Release: $suite" 2>/dev/null | sort -u | head -n 1)
mirror=${mirror:-http://deb.debian.org/debian/}
tarball="$cache/$suite-minbase-$(echo "$include" | md5sum | cut -c1-8).tgz"

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

mkdir -p "$cache"
if [ ! -f "$tarball" ]; then
  echo "deb-check: downloading Debian $suite (minbase, $include) from $mirror into $tarball"
  debootstrap --variant=minbase --include="$include" --make-tarball="$tarball" \
    "$suite" "$cache/tarball-work" "$mirror" > "$cache/make-tarball.log" 2>&1 \
    || { tail -n 20 "$cache/make-tarball.log" >&2; fail "debootstrap --make-tarball"; }
  rm -rf "$cache/tarball-work"
fi

root=$(mktemp -d "$cache/root.XXXXXX")
chmod 755 "$root"  # it is /: users in it (and apt's _apt) must get past it
cleanup() {
  for mount in dev/pts dev proc; do
    mountpoint -q "$root/$mount" && umount -l "$root/$mount"
  done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT

echo "deb-check: a fresh $suite root in $root"
debootstrap --variant=minbase --include="$include" --unpack-tarball="$tarball" \
  "$suite" "$root" "$mirror" > "$cache/debootstrap.log" 2>&1 \
  || { tail -n 20 "$cache/debootstrap.log" >&2; fail "debootstrap"; }
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
as_user() { chroot --userspec=tester:tester "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/tester LANG=C.UTF-8 "$@"; }

. "$root/etc/os-release"
ok "root is $PRETTY_NAME"
in_root sh -c '! command -v swift && ! ls /usr/lib/swift /usr/lib/swift_static 2>/dev/null' >/dev/null \
  || fail "the root has a Swift toolchain"
ok "no Swift toolchain in the root"
in_root useradd --create-home tester

# Everything in the tree but what apt, dpkg and man-db keep about packages, the mounts, and
# the homes (what the user's daemon wrote there is the user's: no package removes it).
listing() {
  (cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp -o -path ./run -o -path ./home -o -path ./root \
    -o -path ./var/lib/dpkg -o -path ./var/lib/apt -o -path ./var/cache -o -path ./var/log \) -prune \
    -o -print | sort)
}

cp "$deb" "$root/tmp/"
in_root apt-get update -qq || fail "apt-get update in the root"
# As a user would: with Recommends (dbus-user-session: the user bus systemd's Type=dbus needs).
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./tmp/$(basename "$deb")" \
  > "$cache/apt-install.log" 2>&1 || { tail -n 20 "$cache/apt-install.log" >&2; fail "apt install ./$(basename "$deb")"; }
ok "apt install ./$(basename "$deb") (Depends: $(in_root dpkg-query -W -f='${Depends}' almanac))"
in_root dpkg -L almanac > "$cache/installed-files.txt"

for binary in almanacd almanac; do
  if in_root ldd "/usr/bin/$binary" | grep -q "not found"; then fail "$binary has unresolved libraries"; fi
  file -b "$root/usr/bin/$binary" | grep -q "not stripped" && fail "$binary is not stripped"
  ok "/usr/bin/$binary: $(stat -c %s "$root/usr/bin/$binary") bytes, every library found"
done

# The daemon on the demo provider, on a private bus, answers the CLI. The CLI asks only once
# the name is owned: an earlier call would have the bus activate the real daemon instead.
status=$(as_user dbus-run-session -- sh -c '
  almanacd --provider demo 2>/tmp/almanacd.log & daemon=$!
  for attempt in $(seq 1 300); do
    dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
      string:org.almanac.Almanac1 2>/dev/null | grep -q "boolean true" && break
    sleep 0.1
  done
  almanac status; result=$?
  kill -TERM $daemon; wait $daemon; echo "almanacd exit: $?"
  exit $result') || { echo "$status" >&2; cat "$root/tmp/almanacd.log" >&2 || true; fail "almanac status against almanacd --provider demo"; }
echo "$status" | sed 's/^/    /'
echo "$status" | grep -q "almanacd exit: 0" || fail "almanacd did not end cleanly on SIGTERM"
ok "almanacd --provider demo answers almanac status on a private bus, and ends on SIGTERM with 0"

# The real provider fetches with the libcurl it loads at the first request (dlopen; no NEEDED
# entry, so only Depends brings it): a feed from a server on the host (the root shares its
# network) read through the daemon (`inspect URL` is the daemon's FetchFeed).
feeds_port_file="$cache/feed-server.port"
python3 Tests/Fixtures/feed_server.py > "$feeds_port_file" 2>/dev/null & feed_server=$!
for _ in $(seq 100); do [ -s "$feeds_port_file" ] && break; sleep 0.05; done
feeds_port=$(head -1 "$feeds_port_file")
inspected=$(as_user dbus-run-session -- sh -c '
  almanacd --weather-url http://127.0.0.1:9 2>/tmp/almanacd-real.log & daemon=$!
  for attempt in $(seq 1 300); do
    dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
      string:org.almanac.Almanac1 2>/dev/null | grep -q "boolean true" && break
    sleep 0.1
  done
  almanac podcasts inspect "http://127.0.0.1:'"$feeds_port"'/feeds/rss2-itunes.xml"; result=$?
  grep -c libcurl /proc/$daemon/maps
  kill -TERM $daemon; wait $daemon
  exit $result') || { kill "$feed_server"; echo "$inspected" >&2; cat "$root/tmp/almanacd-real.log" >&2 || true; fail "almanac podcasts inspect URL through the installed almanacd"; }
kill "$feed_server"
echo "$inspected" | grep -q "The Almanac Hour" || { echo "$inspected" >&2; fail "inspect URL did not show the feed"; }
ok "almanacd fetches with the installed libcurl (loaded at the first request): inspect URL shows the feed"

# D-Bus activation alone: no daemon started, the activation file starts /usr/bin/almanacd.
# The daemon it starts ends by itself when dbus-run-session ends the bus.
activated=$(as_user dbus-run-session -- almanac status 2>"$cache/activation.log") \
  || { echo "$activated" >&2; cat "$cache/activation.log" >&2; fail "almanac status through D-Bus activation"; }
echo "$activated" | grep -q "provider: real" || fail "almanac status through D-Bus activation: $activated"
ok "D-Bus activation starts /usr/bin/almanacd for almanac status"

for page in almanac almanac-podcasts almanacd; do
  text=$(as_user man -P cat "$page" 2>&1) || fail "man $page: $text"
  echo "$text" | grep -q "^NAME" || fail "man $page has no NAME section"
  ok "man $page opens: $(echo "$text" | sed -n '/^NAME/{n;s/^ *//;p;q}')"
done

# Completion as bash does it on <TAB>: bash-completion loads the file for `almanac` from its
# vendor folder on first use, then the completion function fills COMPREPLY.
completions=$(as_user bash -c '
  source /usr/share/bash-completion/bash_completion
  __load_completion almanac || exit 1
  function=$(complete -p almanac | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
  COMP_WORDS=(almanac ""); COMP_CWORD=1; COMP_LINE="almanac "; COMP_POINT=${#COMP_LINE}
  "$function" almanac "" almanac
  printf "%s\n" "${COMPREPLY[@]}"') || fail "bash completion of almanac <TAB>"
for word in status weather podcasts episodes; do
  echo "$completions" | grep -qx -- "$word" || fail "almanac <TAB> does not offer $word (offers: $(echo $completions))"
done
ok "bash completes almanac <TAB>: $(echo $completions)"

# The installed unit as systemd reads it, in the root (systemd-analyze --user needs a runtime
# folder even offline; --root does not work with --user in systemd 252).
unit="$root/usr/lib/systemd/user/almanacd.service"
grep -Eq "^ExecStart=/usr/bin/almanacd( |$)" "$unit" || fail "the unit's ExecStart is not /usr/bin/almanacd: $(grep ^ExecStart= "$unit")"
# The sandbox binds the daemon's binary into its empty /home view: a path there that does not
# exist (a home-relative one left over from make install's default) stops the unit at start.
grep -Eq "^BindReadOnlyPaths=/usr/bin/almanacd( |$)" "$unit" \
  || fail "the unit's BindReadOnlyPaths does not bind /usr/bin/almanacd: $(grep ^BindReadOnlyPaths= "$unit")"
if grep -n "\.local/bin" "$unit"; then fail "the installed unit still names ~/.local/bin"; fi
grep -qx "Exec=/usr/bin/almanacd" "$root/usr/share/dbus-1/services/org.almanac.Almanac1.service" \
  || fail "the activation file's Exec is not /usr/bin/almanacd"
in_root install -d -m 700 -o tester -g tester /tmp/runtime
as_user env XDG_RUNTIME_DIR=/tmp/runtime systemd-analyze verify --user /usr/lib/systemd/user/almanacd.service \
  || fail "systemd-analyze verify --user on the installed unit"
exposure=$(as_user env XDG_RUNTIME_DIR=/tmp/runtime systemd-analyze security --user --offline=yes \
  /usr/lib/systemd/user/almanacd.service 2>&1 | sed -n 's/.*Overall exposure level for almanacd.service: \([0-9.]*\).*/\1/p')
[ -n "$exposure" ] || fail "systemd-analyze security --user gave no exposure level"
awk -v e="$exposure" 'BEGIN { exit !(e <= 3.0) }' || fail "the installed unit's exposure is $exposure (at most 3.0)"
ok "the installed unit passes systemd-analyze verify --user; security --user exposure $exposure (at most 3.0)"

remove() {
  in_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q almanac > "$cache/apt-remove.log" 2>&1 \
    || { tail -n 20 "$cache/apt-remove.log" >&2; fail "apt remove almanac"; }
  in_root dpkg-query -W -f='${db:Status-Abbrev}' almanac 2>/dev/null | grep -q '^ii' && fail "almanac is still installed"
  return 0
}
remove
grep -q '^/usr/bin/almanacd$' "$cache/installed-files.txt" || fail "dpkg -L almanac did not list /usr/bin/almanacd"
left=$(while read -r path; do
  if [ -e "$root$path" ] && [ ! -d "$root$path" ]; then echo "$path"; fi
done < "$cache/installed-files.txt")
[ -z "$left" ] || fail "apt remove left the package's files: $left"
ok "apt remove almanac: none of the $(grep -c . "$cache/installed-files.txt") paths dpkg -L listed is left (shared folders aside)"
# Its Depends and Recommends stay (apt autoremove's business, and they change /etc and the
# certificates as any package's do); with them in place, install and remove once more: the
# tree must come back exactly as it was.
listing > "$cache/settled.txt"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./tmp/$(basename "$deb")" > "$cache/apt-install.log" 2>&1 \
  || { tail -n 20 "$cache/apt-install.log" >&2; fail "apt install ./$(basename "$deb") a second time"; }
remove
listing > "$cache/after.txt"
changed=$(diff "$cache/settled.txt" "$cache/after.txt" || true)
[ -z "$changed" ] || fail "after apt install and apt remove the tree differs: $changed"
ok "apt install then apt remove almanac leaves the tree as it was, file for file"
in_root env DEBIAN_FRONTEND=noninteractive apt-get autoremove --purge -y -q > "$cache/apt-autoremove.log" 2>&1 \
  || { tail -n 20 "$cache/apt-autoremove.log" >&2; fail "apt autoremove --purge"; }
named=$(listing | grep -i almanac || true)
[ -z "$named" ] || fail "after apt remove and autoremove --purge, files named almanac remain: $named"
ok "after apt autoremove --purge nothing named almanac is left outside the homes"
echo "deb-check: all passed"
