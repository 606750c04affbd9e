import type { PGliteInterface } from '@electric-sql/pglite';

/** The ulid extension for PGlite: `PGlite.create({ extensions: { ulid } })`. */
declare const ulid: {
	name: string;
	setup: (_pg: PGliteInterface, emscriptenOpts: any) => Promise<{
		emscriptenOpts: any;
		bundlePath: URL;
	}>;
};

export { ulid };
