// Files out of PGlite's file package, for bin/pglite:
//
//   node pglite/unpack-data.mjs PGLITE_DIST PREFIX DEST
//
// writes each file of PGLITE_DIST/pglite.data whose path begins with PREFIX
// (say /pglite/lib/postgresql/pgxs/) to DEST followed by that path, and
// prints the paths.  pglite.data is an Emscripten file package: the files'
// bytes end to end, their paths and offsets listed in pglite.js's
// loadPackage call as {filename:"...",start:N,end:M}.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [dist, prefix, dest] = process.argv.slice(2);
if (!dist || !prefix || !dest) {
  console.error('usage: node unpack-data.mjs PGLITE_DIST PREFIX DEST');
  process.exit(2);
}
const js = readFileSync(join(dist, 'pglite.js'), 'utf8');
const data = readFileSync(join(dist, 'pglite.data'));
const entry = /\{filename:"([^"]+)",start:(\d+),end:(\d+)\}/g;
let n = 0;
for (const [, path, start, end] of js.matchAll(entry)) {
  if (!path.startsWith(prefix)) continue;
  if (+end > data.length) throw new Error(`${path}: past the end of pglite.data`);
  mkdirSync(dirname(join(dest, path)), { recursive: true });
  writeFileSync(join(dest, path), data.subarray(+start, +end));
  console.log(path);
  n++;
}
if (n === 0) {
  console.error(`no file of pglite.data begins with ${prefix}`);
  process.exit(1);
}
