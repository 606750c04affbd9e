// The ULID codec that test.js and drizzle.mjs share, and that
// docs/clients/node.md shows: text to bytes and uuid, and bytes back to text
// (the snippet below, verbatim; test/check_docs.py checks).
'use strict';

// docs/clients/node.md snippet: from text to bytes and uuid, and back.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
// The value of each character code, -1 where it is not Base32. As on the
// server: either case, and Crockford's aliases I and L for 1, O for 0.
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 32; i++) {
  VALUE[CROCKFORD.charCodeAt(i)] = VALUE[CROCKFORD.toLowerCase().charCodeAt(i)] = i;
}
for (const c of 'IiLl') VALUE[c.charCodeAt(0)] = 1;
for (const c of 'Oo') VALUE[c.charCodeAt(0)] = 0;

// The 16 bytes of a ULID from its 26 characters; throws on any text that
// ulid input on the server refuses.
function ulidToBytes(text) {
  const first = text.length === 26 ? VALUE[text.charCodeAt(0)] : -1;
  if (!(first >= 0 && first <= 7)) throw new Error(`invalid ULID: "${text}"`); // the first carries 3 bits
  const bytes = Buffer.alloc(16);
  let acc = first;
  let bits = 3;
  let j = 0;
  for (let i = 1; i < 26; i++) {
    const v = VALUE[text.charCodeAt(i)]; // undefined above code 127
    if (!(v >= 0)) throw new Error(`invalid ULID: "${text}"`);
    acc = (acc << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[j++] = acc >> bits;
      acc &= (1 << bits) - 1;
    }
  }
  return bytes;
}

// The uuid with the same 16 bytes: what id::uuid returns.
function ulidToUuid(text) {
  const hex = ulidToBytes(text).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// The other way: the 26 characters of a ULID's 16 bytes.
function bytesToUlid(bytes) {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  for (let i = 0; i < 26; i++) {
    text = CROCKFORD[Number(n & 31n)] + text;
    n >>= 5n;
  }
  return text;
}
// End of docs/clients/node.md snippet.

module.exports = { CROCKFORD, ulidToBytes, ulidToUuid, bytesToUlid };
