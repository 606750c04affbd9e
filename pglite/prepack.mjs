// npm's prepack: refuse to pack the package without what makes it work.
//
// dist/ulid.tar.gz must hold the control file and one library for each
// PGlite release in VERSIONS (bin/pglite --pack builds it and packs); and
// the LICENSE, copied from the repository's root when it is not here.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { untar } from './tar.mjs';

const fail = (why) => {
  console.error(`pglite-ulid: not packing: ${why}`);
  process.exit(1);
};
if (!existsSync('dist/ulid.tar.gz')) fail('no dist/ulid.tar.gz: build it with bin/pglite --pack, which packs too');
const files = [...untar(readFileSync('dist/ulid.tar.gz')).keys()];
const libraries = files.filter((f) => /^lib\/postgresql\/ulid-pg\d+\.wasm$/.test(f));
const releases = readFileSync('VERSIONS', 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
if (!files.includes('share/postgresql/extension/ulid.control')) fail('dist/ulid.tar.gz has no ulid.control');
if (libraries.length !== releases.length) {
  fail(`dist/ulid.tar.gz has ${libraries.length} libraries (${libraries.join(', ')}), ` +
    `VERSIONS lists ${releases.length} PGlite releases: build it with bin/pglite --pack`);
}
if (!existsSync('LICENSE')) {
  if (existsSync('../LICENSE') && existsSync('../ulid.control')) copyFileSync('../LICENSE', 'LICENSE');
  else fail('no LICENSE (bin/pglite --pack puts it here)');
}
console.error(`pglite-ulid: packing ${libraries.join(', ')} with ${files.length - libraries.length} other files`);
