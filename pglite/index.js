// ulid for PGlite: pass it as PGlite's extensions.ulid, then CREATE EXTENSION ulid.
// PGlite unpacks dist/ulid.tar.gz (the control file, the SQL scripts and the
// library built for each PostgreSQL major PGlite runs) into its file system;
// init installs the library for the one running (install.js).
import { installLibrary } from './install.js';

export const ulid = {
	name: 'ulid',
	setup: async (pg, emscriptenOpts) => ({
		emscriptenOpts,
		bundlePath: new URL('./dist/ulid.tar.gz', import.meta.url),
		init: () => installLibrary(pg),
	}),
};
