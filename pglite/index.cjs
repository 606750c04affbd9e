'use strict';
// The CommonJS form of index.js.  The bundle's URL is taken from this file's
// own location: its path in Node, the script's address in a browser, as
// PGlite's own CommonJS build does.  install.js is an ES module, imported
// when PGlite calls init.
const base =
	typeof document === 'undefined'
		? new URL(`file:${__filename}`).href
		: (document.currentScript && document.currentScript.src) || new URL('main.js', document.baseURI).href;

exports.ulid = {
	name: 'ulid',
	setup: async (pg, emscriptenOpts) => ({
		emscriptenOpts,
		bundlePath: new URL('./dist/ulid.tar.gz', base),
		init: async () => (await import('./install.js')).installLibrary(pg),
	}),
};
