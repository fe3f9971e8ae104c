// Gives the built bundle fingerprinted names and precompressed copies
// (docs/adr/0036-a-light-cached-front-end.md). Run by scripts/build-site.sh:
//
//   node scripts/fingerprint-bundle.mjs PKG_DIR [--fast]
//
// In PKG_DIR, maxy.js, maxy_bg.wasm and maxy.css become maxy.<hash>.js,
// maxy.<hash>_bg.wasm and maxy.<hash>.css (<hash>: the first 16 hex digits of
// the SHA-256 of the three files), each with a .br and a .gz copy, and
// bundle.txt names the bundle (`maxy.<hash>`) for the server. The server
// sends those names with `Cache-Control: immutable`: a name never gets other
// bytes. The two bundles built before this one are kept, so a page loaded
// from a server started before this build still finds its files.
// --fast (debug builds) compresses at quick levels instead of the smallest.
//
// Node's own zlib does brotli and gzip: nothing to install.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import zlib from 'node:zlib';

const [pkg, flag] = process.argv.slice(2);
if (!pkg) {
  console.error('usage: fingerprint-bundle.mjs PKG_DIR [--fast]');
  process.exit(2);
}
const fast = flag === '--fast';
const NAME = 'maxy';
const FILES = [['.js', `${NAME}.js`], ['_bg.wasm', `${NAME}_bg.wasm`], ['.css', `${NAME}.css`]];
const KEEP_EARLIER = 2;

const hash = createHash('sha256');
for (const [, file] of FILES) hash.update(readFileSync(join(pkg, file)));
const stem = `${NAME}.${hash.digest('hex').slice(0, 16)}`;

// Earlier bundles, newest first, by their wasm's age.
const fingerprinted = /^maxy\.([0-9a-f]{16})(?:\.js|_bg\.wasm|\.css)(?:\.br|\.gz)?$/;
const earlier = [...new Set(readdirSync(pkg).map((f) => f.match(fingerprinted)?.[1]).filter(Boolean))]
  .filter((h) => `${NAME}.${h}` !== stem)
  .map((h) => {
    let mtime = 0;
    try { mtime = statSync(join(pkg, `${NAME}.${h}_bg.wasm`)).mtimeMs; } catch { /* partial bundle: oldest */ }
    return [h, mtime];
  })
  .sort((a, b) => b[1] - a[1]);
for (const [h] of earlier.slice(KEEP_EARLIER)) {
  for (const f of readdirSync(pkg)) if (f.match(fingerprinted)?.[1] === h) rmSync(join(pkg, f));
}

const brotli = (bytes) => zlib.brotliCompressSync(bytes, {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: fast ? 5 : zlib.constants.BROTLI_MAX_QUALITY,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  },
});
const gzip = (bytes) => zlib.gzipSync(bytes, { level: fast ? 6 : 9 });

const sizes = [];
for (const [suffix, file] of FILES) {
  const target = join(pkg, `${stem}${suffix}`);
  renameSync(join(pkg, file), target);
  const bytes = readFileSync(target);
  const br = brotli(bytes);
  const gz = gzip(bytes);
  writeFileSync(`${target}.br`, br);
  writeFileSync(`${target}.gz`, gz);
  sizes.push(`${stem}${suffix} ${bytes.length} B (brotli ${br.length}, gzip ${gz.length})`);
}
writeFileSync(join(pkg, 'bundle.txt'), `${stem}\n`);
for (const line of sizes) console.log(line);
