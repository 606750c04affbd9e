// The library for the PostgreSQL that PGlite runs, installed when PGlite
// starts (the init hook of index.js and index.cjs).
//
// PGlite unpacks an extension's bundle into its file system and compiles
// each lib/postgresql/*.so it holds, so that CREATE EXTENSION finds it
// ready.  A library links against the server functions of one PostgreSQL
// major (PostgreSQL 19 gives every Datum 8 bytes, so the same function has
// another WebAssembly signature in 18 and 19), and PGlite's releases are on
// different majors.  So this package's bundle holds one library a major as
// lib/postgresql/ulid-pgMAJOR.wasm, which PGlite leaves alone, and this
// installs the one for the running server as ulid.so, through the same
// preload PGlite uses for its own bundles.  A bundle of one release (built
// by bin/pglite --pglite VERSION) has ulid.so already and needs nothing.
export async function installLibrary(pg) {
	const mod = pg.mod;
	const dir = `${mod.WASM_PREFIX ?? '/pglite'}/lib/postgresql`;
	if (mod.FS.analyzePath(`${dir}/ulid.so`).exists) return;
	const { rows } = await pg.query(
		"SELECT pg_catalog.current_setting('server_version_num')::pg_catalog.int4 / 10000 AS major",
	);
	const major = rows[0].major;
	const file = `${dir}/ulid-pg${major}.wasm`;
	if (!mod.FS.analyzePath(file).exists) {
		const have = mod.FS.readdir(dir)
			.map((f) => /^ulid-pg(\d+)\.wasm$/.exec(f)?.[1])
			.filter(Boolean)
			.sort();
		throw new Error(
			`pglite-ulid: this PGlite runs PostgreSQL ${major}, and the package has the extension ` +
				`built for PostgreSQL ${have.join(' and ') || '(none)'} only; install a pglite-ulid ` +
				'release made for this PGlite (its peer dependency names the PGlite releases it supports)',
		);
	}
	const data = mod.FS.readFile(file);
	await new Promise((resolve, reject) => {
		mod.FS.createPreloadedFile(dir, 'ulid.so', data, true, true, resolve, () =>
			reject(new Error(`pglite-ulid: ${file} did not load into this PGlite`)), false);
	});
}
