#!/usr/bin/env bash
# Turns what `make install` staged under ROOT (PREFIX=/usr) into almanac_VERSION_ARCH.deb in
# OUTDIR: compresses the man pages, adds README, copyright and changelog under
# /usr/share/doc/almanac, computes Depends with dpkg-shlibdeps, builds with dpkg-deb and runs
# lintian, which must report no errors (the warnings left are explained in docs/packaging.md).
#   deb.sh ROOT OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
root=$1 outdir=$2
doc="$root/usr/share/doc/almanac"

version=$("$root/usr/bin/almanac" --version)
arch=$(dpkg --print-architecture)
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
# The changelog's newest entry names the version: a release bumps both together.
changelog_version=$(sed -n '1s/^almanac (\([^)]*\)).*/\1/p' packaging/deb/changelog)
if [ "$changelog_version" != "$version" ]; then
  echo "deb.sh: almanac --version says $version but packaging/deb/changelog's newest entry is $changelog_version — add an entry for $version" >&2
  exit 1
fi

gzip -9n "$root"/usr/share/man/man1/*.1
install -Dm644 README.md "$doc/README.md"
install -Dm644 packaging/deb/copyright "$doc/copyright"
# A native package (no Debian revision): the changelog is changelog.gz.
gzip -9nc packaging/deb/changelog > "$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"

# dpkg-shlibdeps reads debian/control from the folder it runs in: give it a minimal one.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
printf 'Source: almanac\n\nPackage: almanac\nArchitecture: any\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O "$root/usr/bin/almanacd" "$root/usr/bin/almanac" | sed -n 's/^shlibs:Depends=//p')
# libcurl is loaded at the first request (dlopen; docs/performance.md, "Memory"), so no
# NEEDED entry tells dpkg-shlibdeps about it; the HTTP client needs 7.85 (CURLOPT_PROTOCOLS_STR).
depends="$depends, libcurl4 (>= 7.85.0)"
# Packed relative relocations (RELR, scripts/relr-flags.sh) need glibc 2.36 (GLIBC_ABI_DT_RELR),
# a version with no symbol in it, which dpkg-shlibdeps does not count.
if readelf -d "$root/usr/bin/almanacd" "$root/usr/bin/almanac" | grep -q '(RELR)'; then
  depends=$(echo "$depends" | sed -E 's/libc6 \(>= [0-9.]+\)/libc6 (>= 2.36)/')
fi

mkdir -p "$root/DEBIAN"
installed_size=$(du -k -s --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@DEPENDS@|$depends|" \
    -e "s|@INSTALLED_SIZE@|$installed_size|" packaging/deb/control.in > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 755 {} +

deb="$outdir/almanac_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
echo "Depends: $depends" >&2
# lintian's exit status is non-zero for errors only (--fail-on error).
lintian --fail-on error --info "$deb" >&2 || { echo "deb.sh: lintian reports errors in $deb" >&2; exit 1; }
echo "$deb"
