#!/usr/bin/env bash
# Fetch cJSON's source from Debian's archive (the registry copy, with Debian's security
# patches applied on unpack) into third_party/cjson/. Nothing third-party is committed.
# Uses a private apt state directory so /etc/apt is never touched; works without root.
set -euo pipefail
dest=${1:-third_party/cjson}
[ -f "$dest/cJSON.c" ] && [ -f "$dest/cJSON.h" ] && exit 0
command -v dpkg-source >/dev/null || { echo "fetch-cjson: dpkg-source missing; run: apt-get install -y dpkg-dev" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/parts" "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/src"
: > "$tmp/sources.list"
found=0
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  sed 's/^Types:.*/Types: deb-src/' "$f" > "$tmp/parts/$(basename "$f")"
  found=1
done
if [ -f /etc/apt/sources.list ]; then
  grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >> "$tmp/sources.list" || true
  [ -s "$tmp/sources.list" ] && found=1
fi
[ "$found" = 1 ] || { echo "fetch-cjson: no apt sources found to derive deb-src entries from" >&2; exit 1; }
opts=(-o Dir::Etc::sourcelist="$tmp/sources.list" -o Dir::Etc::sourceparts="$tmp/parts"
      -o Dir::State::lists="$tmp/lists" -o Dir::Cache="$tmp/cache"
      -o APT::Sandbox::User=root -o Debug::NoLocking=1 -qq)
apt-get "${opts[@]}" update
(cd "$tmp/src" && apt-get "${opts[@]}" source cjson >/dev/null)
srcdir=$(find "$tmp/src" -maxdepth 1 -mindepth 1 -type d -name 'cjson-*' | head -n1)
[ -n "$srcdir" ] || { echo "fetch-cjson: apt-get source cjson produced no source tree" >&2; exit 1; }
mkdir -p "$dest"
cp "$srcdir/cJSON.c" "$srcdir/cJSON.h" "$srcdir/LICENSE" "$dest/"
version=$(ls "$tmp/src"/cjson_*.dsc | sed 's/.*cjson_//; s/\.dsc$//')
echo "$version" > "$dest/DEBIAN_VERSION"
echo "fetch-cjson: cJSON $version -> $dest"
