#!/usr/bin/env bash
# Fetch real Java library sources from Debian's source archive into a cache directory (never the
# repository): one git repository per library, for the code-index benchmark, evaluation and the
# integration tests (which skip when the cache is absent).
#
#   scripts/fetch_java_sources.sh [PACKAGE...]     default: libcommons-lang3-java libcommons-cli-java (Debian source package names)
#   DUALRAG_JAVA_SOURCES=/other/dir scripts/fetch_java_sources.sh
#
# Uses a private apt configuration under the cache (a deb-src list and its own package lists),
# so the machine's apt sources are left alone. `apt-get source --download-only` fetches the
# .dsc and tarballs; the upstream tarball is unpacked with tar (no dpkg-dev needed), then
# committed into a fresh git repository at <cache>/<package>/ (tag `debian-<version>`).
set -euo pipefail
CACHE="${DUALRAG_JAVA_SOURCES:-$HOME/.cache/dualrag/java-sources}"
PACKAGES=("$@")
[ ${#PACKAGES[@]} -gt 0 ] || PACKAGES=(libcommons-lang3-java libcommons-cli-java)
SUITE="${DEBIAN_SUITE:-bookworm}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

APT="$CACHE/.apt-$SUITE"
mkdir -p "$APT/lists/partial" "$APT/archives/partial" "$APT/etc/sources.list.d" "$APT/etc/preferences.d"
echo "deb-src $MIRROR $SUITE main" > "$APT/etc/sources.list"
OPTS=(-o "Dir::Etc::SourceList=$APT/etc/sources.list" -o "Dir::Etc::SourceParts=$APT/etc/sources.list.d"
      -o "Dir::Etc::Preferences=$APT/etc/preferences" -o "Dir::Etc::PreferencesParts=$APT/etc/preferences.d"
      -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache::Archives=$APT/archives"
      -o "APT::Sandbox::User=root" -o "Acquire::Languages=none")
if [ -z "$(ls -A "$APT/lists" 2>/dev/null | grep -v partial || true)" ] || [ -n "${REFRESH:-}" ]; then
  apt-get "${OPTS[@]}" -qq update
fi

for pkg in "${PACKAGES[@]}"; do
  dest="$CACHE/$pkg"
  if [ -d "$dest/.git" ]; then echo "$pkg: present at $dest"; continue; fi
  work="$CACHE/.download/$pkg"
  rm -rf "$work" && mkdir -p "$work"
  (cd "$work" && apt-get "${OPTS[@]}" -qq source --download-only "$pkg" >/dev/null)
  orig=$(ls "$work"/*.orig.tar.* 2>/dev/null | head -1)
  [ -n "$orig" ] || { echo "$pkg: no upstream tarball downloaded" >&2; exit 1; }
  version=$(basename "$orig" | sed -E 's/^[^_]+_(.*)\.orig\.tar\..*$/\1/')
  rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
  tar -xf "$orig" -C "$dest.tmp" --strip-components=1
  git -C "$dest.tmp" init -q -b main
  git -C "$dest.tmp" -c user.name=dualrag -c user.email=dualrag@example.invalid add -A
  git -C "$dest.tmp" -c user.name=dualrag -c user.email=dualrag@example.invalid commit -q -m "$pkg $version (Debian $SUITE source)"
  git -C "$dest.tmp" tag "debian-$version"
  mv "$dest.tmp" "$dest"
  echo "$pkg $version: $(git -C "$dest" ls-files '*.java' | wc -l) Java files at $dest"
done
