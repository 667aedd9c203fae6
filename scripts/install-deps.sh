#!/usr/bin/env bash
# Installs what building and testing midfold needs on Debian/Ubuntu, when missing:
# emscripten (emcc), clang with its sanitizer runtimes, dpkg-dev (to fetch cJSON's
# source), chromium (browser tests), Node's packages (npm ci). Run as root, or it prints the command to run.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v emcc >/dev/null || need+=(emscripten)
command -v clang >/dev/null || need+=(clang)
command -v dpkg-source >/dev/null || need+=(dpkg-dev)
command -v valgrind >/dev/null || need+=(valgrind)
command -v node >/dev/null || need+=(nodejs npm)
# Debian's Chromium for the browser tests (tests/hosts/browser.test.mjs), and a small CJK font so
# the Chinese sample renders in their screenshots.
[ -x /usr/bin/chromium ] || need+=(chromium)
[ "$(dpkg-query -W -f='${Status}' fonts-wqy-microhei 2>/dev/null)" = 'install ok installed' ] || need+=(fonts-wqy-microhei)
# The sanitizer runtime: a tiny program must link with -fsanitize=address,undefined.
if command -v clang >/dev/null; then
  probe=$(mktemp -d)
  echo 'int main(void){return 0;}' > "$probe/p.c"
  clang -fsanitize=address,undefined "$probe/p.c" -o "$probe/p" 2>/dev/null || need+=(libclang-rt-14-dev)
  rm -rf "$probe"
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "install-deps: apt-get install ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "install-deps: missing ${need[*]}; run: sudo apt-get install -y --no-install-recommends ${need[*]}" >&2
    exit 1
  fi
fi
# Node's packages: npm ci when node_modules was not installed from this very lockfile. The
# stamp holds the lockfile's hash, so a fresh checkout or worktree (whose files are all new)
# reinstalls only when the lockfile's content differs, not whenever its mtime is newer.
stamp=node_modules/.midfold-lockfile.sha256
lock=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock" ]; then
  npm ci --no-audit --no-fund
  echo "$lock" > "$stamp"
fi
