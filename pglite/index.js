// ulid for PGlite: pass it as PGlite's extensions.ulid, then CREATE EXTENSION ulid.
// PGlite unpacks dist/ulid.tar.gz (the library built for its WebAssembly
// server, the control file and the SQL scripts) into its file system.
export const ulid = {
	name: 'ulid',
	setup: async (_pg, emscriptenOpts) => ({
		emscriptenOpts,
		bundlePath: new URL('./dist/ulid.tar.gz', import.meta.url),
	}),
};
