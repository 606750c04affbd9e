// The regular files of a gzip tar (ustar), by name: what check-imports.mjs
// and prepack.mjs read of PGlite's bundles and ours.
import { gunzipSync } from 'node:zlib';

export function untar(gz) {
  const t = gunzipSync(gz), files = new Map();
  for (let p = 0; p + 512 <= t.length;) {
    const name = t.subarray(p, p + 100).toString('utf8').replace(/\0.*$/s, '');
    if (!name) break;
    const prefix = t.subarray(p + 345, p + 500).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(t.subarray(p + 124, p + 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    const type = String.fromCharCode(t[p + 156] || 48);
    if (type === '0' || type === '\0') files.set(prefix ? `${prefix}/${name}` : name, t.subarray(p + 512, p + 512 + size));
    p += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
