#!/usr/bin/env node
// web/serve.mjs: serves the page on 127.0.0.1, with the two things it loads
// mounted beside it, so that nothing comes from anywhere else:
//
//   /               web/
//   /vendor/pglite/ PGlite's dist/ (pglite.js, pglite.wasm, pglite.data, ...)
//   /vendor/ulid/   the npm package in pglite/ (index.js, dist/ulid.tar.gz)
//
//   node web/serve.mjs [--port N] [--package DIR] [--pglite DIR]
//
// --package is the ulid package's folder (default pglite/ of this checkout,
// where bin/pglite writes the bundle); --pglite is PGlite's dist/ (default:
// @electric-sql/pglite as npm installed it for the package's folder, else
// for test/web/, where bin/setup installs the pinned version).  Prints the
// page's address.  test/web/page_test.mjs imports serve() from here.
import { createReadStream, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, extname, join, normalize, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const types = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.mjs': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json',
	'.map': 'application/json',
	'.svg': 'image/svg+xml',
	// instantiateStreaming() wants this type; a .gz is sent as it is, never
	// with a Content-Encoding, since PGlite unpacks the bundle itself.
	'.wasm': 'application/wasm',
	'.gz': 'application/gzip',
}

// The file a request's path names, or null: the longest mount that prefixes
// it, and never a path that climbs out of its mount.
function lookup(mounts, path) {
	const prefix = Object.keys(mounts)
		.filter((p) => path.startsWith(p))
		.sort((a, b) => b.length - a.length)[0]
	if (prefix === undefined) return null
	const root = mounts[prefix]
	try {
		let file = normalize(join(root, decodeURIComponent(path.slice(prefix.length))))
		if (file !== root && !file.startsWith(root + sep)) return null
		if (statSync(file).isDirectory()) file = join(file, 'index.html')
		return statSync(file).isFile() ? file : null
	} catch {
		return null
	}
}

// Serves mounts ({'/url/prefix/': '/dir'}) on host:port (port 0: any free
// one); resolves to {url, close()} once listening.
export function serve(mounts, { host = '127.0.0.1', port = 0 } = {}) {
	const dirs = Object.fromEntries(Object.entries(mounts).map(([p, d]) => [p, resolve(d)]))
	const server = createServer((req, res) => {
		const path = new URL(req.url, 'http://x').pathname
		const file = req.method === 'GET' || req.method === 'HEAD' ? lookup(dirs, path) : null
		if (file === null) {
			res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
			return
		}
		res.writeHead(200, {
			'content-type': types[extname(file)] ?? 'application/octet-stream',
			'cache-control': 'no-cache',
		})
		if (req.method === 'HEAD') res.end()
		else createReadStream(file).pipe(res)
	})
	return new Promise((ok, fail) => {
		server.once('error', fail)
		server.listen(port, host, () => {
			const { port } = server.address()
			ok({ url: `http://${host}:${port}/`, close: () => new Promise((done) => server.close(done)) })
		})
	})
}

// PGlite's dist/ as npm installed it for the first of dirs that has it.
function resolvePGlite(dirs) {
	for (const dir of dirs) {
		try {
			return dirname(createRequire(join(dir, 'package.json')).resolve('@electric-sql/pglite'))
		} catch {}
	}
	throw new Error(`no @electric-sql/pglite installed for ${dirs.join(' or ')}: npm ci in test/web, or give --pglite`)
}

// The mounts for the page, from the package's folder and PGlite's dist/.
export function pageMounts({ pkg, pglite }) {
	const web = dirname(fileURLToPath(import.meta.url))
	pkg = resolve(pkg ?? join(web, '..', 'pglite'))
	pglite ??= resolvePGlite([pkg, join(web, '..', 'test', 'web')])
	return { '/': web, '/vendor/pglite/': pglite, '/vendor/ulid/': pkg }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const opt = {}
	const args = process.argv.slice(2)
	for (let i = 0; i < args.length; i += 2) {
		const name = { '--port': 'port', '--package': 'pkg', '--pglite': 'pglite' }[args[i]]
		if (name === undefined || args[i + 1] === undefined) {
			console.error('usage: node web/serve.mjs [--port N] [--package DIR] [--pglite DIR]')
			process.exit(2)
		}
		opt[name] = args[i + 1]
	}
	const { url } = await serve(pageMounts(opt), { port: Number(opt.port ?? 8080) })
	console.log(url)
}
