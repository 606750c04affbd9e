// Whether a side module (ulid.so built by bin/pglite) can load into a
// PGlite build, checked before any user tries:
//
//   node pglite/check-imports.mjs ULID_SO PGLITE_DIST [--warn]
//
// PGLITE_DIST is the dist directory of an @electric-sql/pglite release
// (pglite.wasm, pglite.js and the contrib bundles).
//
// 1. Imports.  pglite.wasm is linked with -sMAIN_MODULE=2: it exports only
//    the server symbols that PGlite's own extensions import, and its dynamic
//    linker resolves a side module's imports against those exports, the
//    JavaScript library functions of pglite.js (its wasmImports) and the
//    invoke_* trampolines it makes on demand.  Every function the module
//    imports from "env", every data symbol it reads through "GOT.mem" and
//    every function whose address it takes through "GOT.func" must be found
//    there (or among the module's own exports); weak imports may be absent.
//    A missing data symbol or function address fails dlopen ("could not
//    load dynamic lib ... TypeError"); a missing function called directly
//    loads, then its first call ends the query with no rows and no error,
//    and the next query never returns (PGlite 0.5.17).
// 2. Signatures.  A function found among pglite.wasm's exports must have
//    the WebAssembly type the module imports it with, parameters and
//    results, or instantiation fails ("LinkError: imported function does
//    not match the expected type"): PostgreSQL 19 makes Datum 8 bytes on
//    every platform, so a module built with 18's headers imports makeConst
//    and every other function that takes or returns a Datum with i32 where
//    19's pglite.wasm has i64.  An invoke_* trampoline must have the type
//    its name spells (v, i, j, f, d: void, i32, i64, f32, f64; its first
//    parameter the i32 function pointer).  The types of JavaScript library
//    functions and of functions reached by address (GOT.func) are not in
//    the binary to compare.
// 3. The magic block.  The module is instantiated with stub imports and its
//    Pg_magic_func read: the ABI fields (major version, FUNC_MAX_ARGS,
//    INDEX_MAX_KEYS, NAMEDATALEN, FLOAT8PASSBYVAL, the ABI tag) must equal
//    those of a contrib module that ships with this PGlite, or the server
//    refuses the library as incompatible.
//
// Exit status 1 on a failure of any (with --warn, a missing import or a
// signature only warns and the status stays 0), 2 on bad arguments.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { untar } from './tar.mjs';

const args = process.argv.slice(2);
const warnOnly = args.includes('--warn');
const [soPath, dist] = args.filter((a) => a !== '--warn');
if (!soPath || !dist) {
  console.error('usage: node check-imports.mjs ULID_SO PGLITE_DIST [--warn]');
  process.exit(2);
}

// The dylink.0 custom section: memory and table sizes, and which imports
// are weak (WASM_DYLINK_IMPORT_INFO, flag WASM_SYMBOL_BINDING_WEAK).
function dylink(module) {
  const sections = WebAssembly.Module.customSections(module, 'dylink.0');
  const info = { memorySize: 0, memoryAlign: 0, tableSize: 0, weak: new Set() };
  if (sections.length === 0) return info;
  const b = new Uint8Array(sections[0]);
  let p = 0;
  const u32 = () => {
    let r = 0, shift = 0, byte;
    do {
      byte = b[p++];
      r |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return r >>> 0;
  };
  const str = () => {
    const n = u32();
    const s = Buffer.from(b.subarray(p, p + n)).toString('utf8');
    p += n;
    return s;
  };
  while (p < b.length) {
    const type = b[p++];
    const size = u32();
    const end = p + size;
    if (type === 1) {
      info.memorySize = u32();
      info.memoryAlign = u32();
      info.tableSize = u32();
    } else if (type === 4) {
      for (let n = u32(); n > 0; n--) {
        const mod = str(), field = str(), flags = u32();
        if (flags & 1) info.weak.add(`${mod}.${field}`);
      }
    }
    p = end;
  }
  return info;
}

// Function types from the binary (the JavaScript API gives none): each
// function import's and each function export's, as "(i32, i64) -> i64".
function signatures(bytes) {
  const b = bytes;
  let p = 8;
  const u32 = () => {
    let r = 0, shift = 0, byte;
    do {
      byte = b[p++];
      r += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return r;
  };
  const name = () => {
    const n = u32();
    const s = Buffer.from(b.subarray(p, p + n)).toString('utf8');
    p += n;
    return s;
  };
  const valtypes = { 0x7f: 'i32', 0x7e: 'i64', 0x7d: 'f32', 0x7c: 'f64', 0x7b: 'v128', 0x70: 'funcref', 0x6f: 'externref' };
  const limits = () => {
    const flags = u32();
    u32();
    if (flags & 1) u32();
  };
  const types = [], funcTypes = [], imports = new Map(), exports = new Map();
  while (p < b.length) {
    const id = b[p++];
    const size = u32();
    const end = p + size;
    if (id === 1) {
      for (let n = u32(); n > 0; n--) {
        if (b[p++] !== 0x60) throw new Error('type section: not a function type');
        const params = [], results = [];
        for (let k = u32(); k > 0; k--) params.push(valtypes[b[p++]] ?? '?');
        for (let k = u32(); k > 0; k--) results.push(valtypes[b[p++]] ?? '?');
        types.push(`(${params.join(', ')}) -> ${results.join(', ') || 'void'}`);
      }
    } else if (id === 2) {
      for (let n = u32(); n > 0; n--) {
        const mod = name(), field = name(), kind = b[p++];
        if (kind === 0) {
          const t = types[u32()];
          funcTypes.push(t);
          imports.set(`${mod}.${field}`, t);
        } else if (kind === 1) {
          p++;
          limits();
        } else if (kind === 2) {
          limits();
        } else if (kind === 3) {
          p += 2;
        } else if (kind === 4) {
          p++;
          u32();
        } else {
          throw new Error(`import section: kind ${kind}`);
        }
      }
    } else if (id === 3) {
      for (let n = u32(); n > 0; n--) funcTypes.push(types[u32()]);
    } else if (id === 7) {
      for (let n = u32(); n > 0; n--) {
        const field = name(), kind = b[p++], index = u32();
        if (kind === 0) exports.set(field, funcTypes[index]);
      }
    }
    p = end;
  }
  return { imports, exports };
}

// What an invoke_* trampoline's name says its type is.
function invokeType(name) {
  const letters = { v: null, i: 'i32', j: 'i64', f: 'f32', d: 'f64', p: 'i32' };
  const code = name.slice('invoke_'.length);
  if (!/^[vijfdp][ijfdp]*$/.test(code)) return undefined;
  const params = ['i32', ...[...code.slice(1)].map((c) => letters[c])];
  return `(${params.join(', ')}) -> ${letters[code[0]] ?? 'void'}`;
}

// The names pglite.js's dynamic linker finds without the wasm: the keys of
// its wasmImports object (JavaScript library functions).
function jsLibraryNames(pgliteJs) {
  const start = pgliteJs.indexOf('var wasmImports={');
  if (start < 0) throw new Error('pglite.js: no wasmImports object found');
  const body = pgliteJs.slice(start + 'var wasmImports={'.length, pgliteJs.indexOf('}', start));
  return new Set(body.split(',').map((kv) => kv.split(':')[0].trim()));
}

const soBytes = readFileSync(soPath);
const so = new WebAssembly.Module(soBytes);
const main = new WebAssembly.Module(readFileSync(join(dist, 'pglite.wasm')));
const mainExports = new Map(WebAssembly.Module.exports(main).map((e) => [e.name, e.kind]));
const jsNames = jsLibraryNames(readFileSync(join(dist, 'pglite.js'), 'utf8'));
const own = new Map(WebAssembly.Module.exports(so).map((e) => [e.name, e.kind]));
const info = dylink(so);
// What every side module gets from the loader itself.
const fromLoader = new Set(['memory', '__indirect_function_table', '__stack_pointer',
  '__memory_base', '__table_base']);

const mainBytes = readFileSync(join(dist, 'pglite.wasm'));
const soTypes = signatures(soBytes), mainTypes = signatures(mainBytes);

const missing = [];
const mismatched = [];
const imports = WebAssembly.Module.imports(so);
for (const { module, name, kind } of imports) {
  if (module === 'env' && fromLoader.has(name)) continue;
  if (info.weak.has(`${module}.${name}`)) continue;
  let found;
  if (module === 'GOT.mem') {
    found = mainExports.get(name) === 'global' || own.get(name) === 'global';
  } else if (module === 'GOT.func' || (module === 'env' && kind === 'function')) {
    found = mainExports.get(name) === 'function' || own.get(name) === 'function' ||
      jsNames.has(name) || (module === 'env' && name.startsWith('invoke_'));
  } else if (module === 'env' && kind === 'global') {
    found = mainExports.get(name) === 'global';
  } else {
    found = false;
  }
  if (found && module === 'env' && kind === 'function') {
    const ours = soTypes.imports.get(`env.${name}`);
    const theirs = name.startsWith('invoke_') && !mainExports.has(name)
      ? invokeType(name)
      : mainTypes.exports.get(name);
    if (theirs !== undefined && ours !== theirs) mismatched.push({ name, ours, theirs });
  }
  if (!found) {
    const how = module === 'GOT.mem' ? 'data (GOT.mem)'
      : module === 'GOT.func' ? 'address (GOT.func)' : `${kind} (${module})`;
    missing.push({ name, how });
  }
}
// One line a symbol, sorted, so that two runs diff cleanly.
const byName = new Map();
for (const m of missing) byName.set(m.name, [...(byName.get(m.name) || []), m.how]);
const names = [...byName.keys()].sort();
const counts = `${imports.length} imports, ${mainExports.size} exports of pglite.wasm`;
if (names.length > 0) {
  console.error(`${soPath}: ${names.length} symbols that pglite.wasm does not export (${counts}):`);
  for (const n of names) console.error(`  ${n}  ${byName.get(n).join(', ')}`);
} else {
  console.error(`imports: all resolved (${counts})`);
}

mismatched.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
if (mismatched.length > 0) {
  console.error(`${soPath}: ${mismatched.length} functions imported with another signature than pglite.wasm's:`);
  for (const m of mismatched) console.error(`  ${m.name}  imports ${m.ours}, pglite.wasm has ${m.theirs}`);
} else {
  const compared = [...soTypes.imports.keys()].filter((k) => k.startsWith('env.') &&
    (mainTypes.exports.has(k.slice(4)) || (k.startsWith('env.invoke_') && invokeType(k.slice(4))))).length;
  console.error(`signatures: all equal (${compared} functions compared)`);
}

// Pg_magic_func's struct: len, then the ABI fields (5 ints and 32 bytes);
// name and version follow as pointers (PG_MODULE_MAGIC_EXT).
function magic(bytes) {
  const mod = new WebAssembly.Module(bytes);
  const d = dylink(mod);
  const memory = new WebAssembly.Memory({ initial: 256 });
  const table = new WebAssembly.Table({ initial: d.tableSize + 1, element: 'anyfunc' });
  const base = 1024;
  const i32 = (value, mutable) => new WebAssembly.Global({ value: 'i32', mutable }, value);
  const env = {
    memory, __indirect_function_table: table, __stack_pointer: i32(base + d.memorySize + 65536, true),
    __memory_base: i32(base, false), __table_base: i32(1, false),
  };
  const imports = { env, 'GOT.mem': {}, 'GOT.func': {} };
  for (const { module, name, kind } of WebAssembly.Module.imports(mod)) {
    if (module === 'env' && name in env) continue;
    imports[module] ??= {};
    imports[module][name] = kind === 'function'
      ? () => { throw new Error(`${name} called`); }
      : i32(0, true);
  }
  const ex = new WebAssembly.Instance(mod, imports).exports;
  ex.__wasm_apply_data_relocs?.();
  const p = ex.Pg_magic_func();
  const view = new DataView(memory.buffer);
  const len = view.getInt32(p, true);
  const abi = Buffer.from(new Uint8Array(memory.buffer, p, 4 + 20 + 32));
  const ints = [0, 1, 2, 3, 4, 5].map((i) => view.getInt32(p + 4 * i, true));
  const extra = abi.subarray(24).toString('utf8').replace(/\0.*$/s, '');
  const cstr = (q) => (q ? Buffer.from(new Uint8Array(memory.buffer, q, 64)).toString('utf8').replace(/\0.*$/s, '') : '');
  const name = len >= 64 ? cstr(view.getUint32(p + 56, true)) : '';
  const version = len >= 64 ? cstr(view.getUint32(p + 60, true)) : '';
  return { abi, text: `len ${len}, version ${ints[1]}, FUNC_MAX_ARGS ${ints[2]}, INDEX_MAX_KEYS ${ints[3]}, NAMEDATALEN ${ints[4]}, FLOAT8PASSBYVAL ${ints[5]}, ABI "${extra}"${name ? `, ${name} ${version}` : ''}` };
}

let magicFailed = false;
try {
  const ours = magic(soBytes);
  // A contrib module of this PGlite: amcheck if it ships, else the first.
  const bundles = readdirSync(dist).filter((f) => f.endsWith('.tar.gz')).sort();
  const pick = bundles.includes('amcheck.tar.gz') ? 'amcheck.tar.gz' : bundles[0];
  const [soName, refBytes] = [...untar(readFileSync(join(dist, pick)))].find(([n]) => n.endsWith('.so'));
  const ref = magic(refBytes);
  if (Buffer.compare(ours.abi, ref.abi) === 0) {
    console.error(`magic block: ${ours.text}; the ABI fields equal ${pick}'s ${soName}`);
  } else {
    console.error(`magic block differs from ${pick}'s ${soName}:\n  ours:   ${ours.text}\n  theirs: ${ref.text}`);
    magicFailed = true;
  }
} catch (e) {
  console.error(`magic block: could not be read (${e.message})`);
  magicFailed = true;
}

process.exit(magicFailed || ((names.length > 0 || mismatched.length > 0) && !warnOnly) ? 1 : 0);
