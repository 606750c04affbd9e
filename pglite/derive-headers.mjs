// The two generated server headers that differ between a 32-bit x86 build
// of PostgreSQL and PGlite's wasm32 one, for a major whose source no
// reachable archive has (bin/pglite; PostgreSQL 19 today):
//
//   node pglite/derive-headers.mjs pg_config REF_I386 REF_WASM32 NEW_I386 [SYM=VALUE|SYM=...]
//   node pglite/derive-headers.mjs probes NEW_I386_PROBES_H
//
// pg_config writes NEW_I386 (the new major's pg_config.h from Debian's i386
// postgresql-server-dev package) to stdout with the changes that configure
// made for wasm32 on another major: each symbol whose value in REF_WASM32
// (that major configured by emconfigure) differs from REF_I386 (the same
// major's Debian i386 header), and whose value in NEW_I386 is still the
// i386 one, takes the wasm32 value.  wasm32 and i386 are both ILP32; what
// changes is the alignment of 8-byte types (ALIGNOF_DOUBLE, ALIGNOF_INT64_T,
// MAXIMUM_ALIGNOF: 8, not 4), __int128, the printf archetype of clang, and
// the libraries and CPU features the wasm build does without.  Symbols new
// in the new major keep their i386 value unless given as SYM=VALUE (a
// #define) or SYM= (an #undef), which bin/pglite sets from compile probes
// with emcc, as configure would.  A report goes to stderr: every symbol
// changed and every new one.
//
// probes writes the dummy utils/probes.h that a build without DTrace has
// (every TRACE_POSTGRESQL_* macro a no-op), from the probe list in the
// comments of Debian's DTrace-generated one.
import { readFileSync } from 'node:fs';

const [mode, ...args] = process.argv.slice(2);

// One entry a symbol: its line, as written in the header.
function symbols(text) {
  const map = new Map();
  for (const line of text.split('\n')) {
    const d = /^#define ([A-Za-z0-9_]+)(?:\s|$)/.exec(line);
    const u = /^\/\* #undef ([A-Za-z0-9_]+) \*\/$/.exec(line);
    if (d) map.set(d[1], line);
    else if (u) map.set(u[1], line);
  }
  return map;
}

if (mode === 'pg_config' && args.length >= 3) {
  const [refI386, refWasm, newI386] = args.slice(0, 3).map((f) => symbols(readFileSync(f, 'utf8')));
  const newText = readFileSync(args[2], 'utf8');
  const given = new Map(args.slice(3).map((a) => {
    const [sym, ...v] = a.split('=');
    const value = v.join('=');
    return [sym, value === '' ? `/* #undef ${sym} */` : `#define ${sym} ${value}`];
  }));
  const report = [];
  const out = newText.split('\n').map((line) => {
    const m = /^#define ([A-Za-z0-9_]+)(?:\s|$)/.exec(line) || /^\/\* #undef ([A-Za-z0-9_]+) \*\/$/.exec(line);
    if (!m) return line;
    const sym = m[1];
    if (given.has(sym)) {
      report.push(`probed: ${given.get(sym)}`);
      return given.get(sym);
    }
    if (!refI386.has(sym)) {
      report.push(`new, kept as on i386: ${line}`);
      return line;
    }
    const before = refI386.get(sym), wasm = refWasm.get(sym);
    if (wasm !== undefined && wasm !== before && line === before) {
      report.push(`wasm32: ${line}  ->  ${wasm}`);
      return wasm;
    }
    if (wasm !== undefined && wasm !== before) report.push(`changed on i386 since, kept: ${line}`);
    return line;
  });
  for (const sym of given.keys()) {
    if (!newI386.has(sym)) {
      console.error(`derive-headers: ${sym} is not in the new pg_config.h`);
      process.exit(1);
    }
  }
  process.stdout.write(out.join('\n'));
  for (const r of report) console.error(r);
} else if (mode === 'probes' && args.length === 1) {
  const text = readFileSync(args[0], 'utf8');
  const lines = ['/* Dummy DTrace probes: made by pglite/derive-headers.mjs for a build without DTrace. */'];
  let n = 0;
  for (const [, name, params] of text.matchAll(/^\/\* (TRACE_POSTGRESQL_[A-Z0-9_]+) \(([^)]*)\) \*\/$/gm)) {
    const count = params.trim() === '' ? 0 : params.split(',').length;
    const formals = Array.from({ length: count }, (_, i) => `INT${i + 1}`).join(', ');
    lines.push(`#define ${name}(${formals}) do {} while (0)`, `#define ${name}_ENABLED() (0)`);
    n++;
  }
  if (n === 0) {
    console.error(`derive-headers: no probe listed in ${args[0]}`);
    process.exit(1);
  }
  process.stdout.write(lines.join('\n') + '\n');
  console.error(`${n} probes`);
} else {
  console.error('usage: node derive-headers.mjs pg_config REF_I386 REF_WASM32 NEW_I386 [SYM=VALUE...]\n'
    + '       node derive-headers.mjs probes NEW_I386_PROBES_H');
  process.exit(2);
}
