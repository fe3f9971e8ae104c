#!/usr/bin/env bash
# Builds the whole site without cargo-leptos (docs/adr/0002-site-build-without-cargo-leptos.md):
#   1. the hydrate() bundle: frontend -> wasm32 -> wasm-bindgen -> target/site/pkg/maxy.js + maxy_bg.wasm
#   2. the stylesheet: Tailwind 4 CLI -> target/site/pkg/maxy.css
#   3. fingerprinted names and brotli/gzip copies of the three:
#      target/site/pkg/maxy.<hash>.js, maxy.<hash>_bg.wasm, maxy.<hash>.css (+ .br, .gz)
#      and target/site/pkg/bundle.txt naming them (scripts/fingerprint-bundle.mjs)
#   4. static assets: public/ -> target/site/
#   5. the server binary: target/<profile>/maxy
# Usage: scripts/build-site.sh [--release]
# Needs: the wasm32-unknown-unknown target, wasm-bindgen 0.2.130 and `npm ci`
# (scripts/install-deps.sh installs all three).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

release=false
[[ "${1:-}" == "--release" ]] && release=true
export PATH="$ROOT/node_modules/.bin:$PATH"
site="$ROOT/target/site"
pkg="$site/pkg"
mkdir -p "$pkg"

if $release; then
  wasm_profile=wasm-release server_flag=(--release)
else
  wasm_profile=debug server_flag=()
fi

say "building the wasm bundle ($wasm_profile)"
if $release; then
  cargo build -p frontend --lib --target wasm32-unknown-unknown --profile wasm-release
else
  cargo build -p frontend --lib --target wasm32-unknown-unknown
fi
wasm-bindgen --target web --no-typescript --out-dir "$pkg" --out-name maxy \
  "$ROOT/target/wasm32-unknown-unknown/$wasm_profile/frontend.wasm"
if $release; then
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
    -o "$pkg/maxy_bg.wasm" "$pkg/maxy_bg.wasm"
fi

say "building the stylesheet"
minify=(); $release && minify=(--minify)
tailwindcss -i style/main.css -o "$pkg/maxy.css" "${minify[@]}" 2>/dev/null

say "fingerprinting and compressing the bundle"
fast=(--fast); $release && fast=()
node scripts/fingerprint-bundle.mjs "$pkg" "${fast[@]}"

cp -r public/. "$site/"

say "building the server"
cargo build -p server --bin maxy "${server_flag[@]}"
say "site ready in target/site ($(du -h "$pkg/$(cat "$pkg/bundle.txt")_bg.wasm" | cut -f1) of wasm)"
