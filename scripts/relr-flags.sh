#!/bin/sh
# Prints the linker flag that packs a position-independent executable's relative relocations
# (DT_RELR, `-z pack-relative-relocs`) when this machine's glibc loads such binaries (2.36 on:
# Debian 12, Ubuntu 23.04, Fedora 37), and nothing elsewhere: glibc 2.35 refuses to start a
# binary that needs GLIBC_ABI_DT_RELR. `make install` builds on the machine it installs on.
version=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed 's/^glibc //')
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
case "$major$minor" in *[!0-9]*|"") exit 0 ;; esac
if [ "$major" -gt 2 ] || { [ "$major" -eq 2 ] && [ "$minor" -ge 36 ]; }; then
  echo "-Xlinker -z -Xlinker pack-relative-relocs"
fi
