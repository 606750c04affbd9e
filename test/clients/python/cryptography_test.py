"""Public ids computed without the database, with Python's cryptography; run
by test/clients/python/run with /usr/bin/python3 (Debian's
python3-cryptography), psycopg 3 for the server's side.

ulid_encrypt(id, key) is AES-128 (FIPS-197) of the ulid's 16 bytes, big-endian
as the type stores them, as one block under a 16-byte key; the 16 bytes out
are the uuid.  ulid_decrypt(public_id, key) undoes it.  This program does
both with cryptography's AES in ECB mode, no padding, and compares them with
the server's, the key always a bind parameter: the public ids of ids the
server made, the server's public ids turned back into ids, rows found by
ulid_decrypt(%s, %s) of public ids made here.  Then the mistakes the
comparison catches: the bytes in the other order, a padded cipher, a key of
another length, the key sent as hex text.  Connects through the libpq
environment to a database where CREATE EXTENSION ulid has run, in a schema
of its own, public_ids.  Prints "ok - cryptography: WHAT" or
"FAILED - cryptography: WHAT : WHY" per check.  The code blocks of
docs/clients/python.md's "Public ids without the database" appear verbatim
below (test/check_docs.py checks).
"""

import os
import random

import ulidcheck
from ulidcheck import VECTORS, b32, check, expect_equal, expect_sqlstate, run_alone, unb32

ulidcheck.CLIENT = "cryptography"

import cryptography
import psycopg
from cryptography.hazmat.primitives import padding


# --- docs/clients/python.md snippet: public ids ---------------------------------
import uuid

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def aes128(key):
    """AES-128 of one 16-byte block: ECB with no padding is the block cipher alone."""
    if len(key) != 16:  # algorithms.AES would take 24 or 32 bytes, as AES-192 or AES-256
        raise ValueError(f"key must be 16 bytes, not {len(key)}")
    return Cipher(algorithms.AES(key), modes.ECB())


def public_id(ulid_text, key):
    """ulid_encrypt(id, key): the uuid.UUID of a ULID's 26 characters."""
    if len(ulid_text) != 26 or ulid_text[0] > "7":
        raise ValueError(f"invalid ULID: {ulid_text!r}")
    n = 0
    for c in ulid_text.upper():
        n = n * 32 + CROCKFORD.index(c)  # ValueError if c is not Base32
    encryptor = aes128(key).encryptor()
    return uuid.UUID(bytes=encryptor.update(n.to_bytes(16, "big")) + encryptor.finalize())


def ulid_of(public, key):
    """ulid_decrypt(public, key): the ULID's 26 characters of a uuid.UUID."""
    decryptor = aes128(key).decryptor()
    n = int.from_bytes(decryptor.update(public.bytes) + decryptor.finalize(), "big")
    return "".join(CROCKFORD[(n >> 5 * i) & 31] for i in range(25, -1, -1))
# --- end of docs/clients/python.md snippet --------------------------------------

# FIPS-197, appendix C.1: this key enciphers the block 00112233...ff to 69c4e0d8...
FIPS_KEY = bytes.fromhex("000102030405060708090a0b0c0d0e0f")
FIPS_BLOCK = bytes.fromhex("00112233445566778899aabbccddeeff")
FIPS_OUT = uuid.UUID("69c4e0d8-6a7b-0430-d8cd-b78070b4c55a")


def known(conn):
    """The published vector, through the recipe and through the server."""
    fips_ulid = b32(FIPS_BLOCK)
    expect_equal("FIPS-197 C.1: public_id() of the block 00112233...ff", public_id(fips_ulid, FIPS_KEY), FIPS_OUT)
    expect_equal("FIPS-197 C.1: ulid_of() of 69c4e0d8-...", ulid_of(FIPS_OUT, FIPS_KEY), fips_ulid)
    expect_equal("FIPS-197 C.1: ulid_encrypt(%s::ulid, %s) on the server agrees",
                 conn.execute("SELECT ulid_encrypt(%s::ulid, %s)", (fips_ulid, FIPS_KEY)).fetchone()[0], FIPS_OUT)
    expect_equal("public_id() reads lower case as the server does",
                 public_id(fips_ulid.lower(), FIPS_KEY), FIPS_OUT)
    for bad, why in ((fips_ulid[:-1], "25 characters"), ("8" + fips_ulid[1:], "first above 7"),
                     (fips_ulid[:-1] + "U", "U is not Base32")):
        try:
            public_id(bad, FIPS_KEY)
            check(f"public_id() raises ValueError: {why}", False, "no error")
        except ValueError:
            check(f"public_id() raises ValueError: {why}", True)


def agree(conn, rng, key, other_key):
    """The recipe against the server on ids the server made."""
    conn.execute("INSERT INTO orders (item) SELECT 'item ' || g FROM generate_series(1, 500) g")
    conn.execute("INSERT INTO orders (id, item) VALUES (%s, 'min'), (%s, 'spec'), (%s, 'max')",
                 tuple(t for t, _ in (VECTORS[1], VECTORS[0], VECTORS[2])))
    rows = conn.execute("SELECT id, ulid_encrypt(id, %s), item FROM orders ORDER BY id", (key,)).fetchall()
    check("the server's public ids are uuid.UUID, 503 of them, all distinct",
          len({p for _, p, _ in rows}) == 503 and all(isinstance(p, uuid.UUID) for _, p, _ in rows), len(rows))
    mine = [public_id(i, key) for i, _, _ in rows]
    bad = [(i, str(p), str(m)) for (i, p, _), m in zip(rows, mine) if p != m]
    check("public_id(id, key) equals ulid_encrypt(id, %s) for 500 generated ids, the smallest and largest ULID",
          not bad, bad[:3])
    bad = [(i, str(p)) for i, p, _ in rows if ulid_of(p, key) != i]
    check("ulid_of(the server's public id, key) gives the id back, for all 503", not bad, bad[:3])

    # Rows found by public ids made here, the key a bind parameter; prepared
    # on the server for half of them.
    sample = rng.sample(rows, 40)
    got = [conn.execute("SELECT item FROM orders WHERE id = ulid_decrypt(%s, %s)", (public_id(i, key), key),
                        prepare=n % 2 == 0).fetchall() for n, (i, _, _) in enumerate(sample)]
    expect_equal("WHERE id = ulid_decrypt(%s, %s) with public ids made in Python finds the 40 rows",
                 got, [[(item,)] for _, _, item in sample])
    conn.execute("SET enable_seqscan = off")
    plan = "\n".join(r[0] for r in conn.execute(
        "EXPLAIN SELECT item FROM orders WHERE id = ulid_decrypt(%s, %s)", (mine[0], key)))
    conn.execute("RESET enable_seqscan")
    check("... served by the primary key (EXPLAIN with the parameters bound)", "orders_pkey" in plan, plan)

    # A public id made under another key decrypts, to an id that is no row's.
    stranger = public_id(rows[0][0], other_key)
    expect_equal("a public id made under another key finds no row",
                 conn.execute("SELECT item FROM orders WHERE id = ulid_decrypt(%s, %s)", (stranger, key)).fetchall(), [])
    check("... and ulid_of() with the key gives some other ULID", ulid_of(stranger, key) != rows[0][0])
    return rows


def mistakes(conn, rows, key):
    """What the comparison with the server catches."""
    # The ulid's bytes in the other order: the cipher works, the ids differ.
    def little_endian(text, key):
        e = aes128(key).encryptor()
        return uuid.UUID(bytes=e.update(unb32(text)[::-1]) + e.finalize())

    # (The smallest and the largest ULID read the same both ways.)
    asymmetric = [(i, p) for i, p, _ in rows if unb32(i) != unb32(i)[::-1]]
    expect_equal(f"little-endian bytes: none of the {len(asymmetric)} other public ids is the server's",
                 [i for i, p in asymmetric if little_endian(i, key) == p], [])
    check("little-endian bytes: FIPS-197's vector fails too",
          little_endian(b32(FIPS_BLOCK), FIPS_KEY) != FIPS_OUT)

    # A padded cipher (PKCS7, what most AES wrappers do by default): 32
    # bytes out, not a uuid; and a padded decipher gets no id back.
    padder = padding.PKCS7(128).padder()
    block = padder.update(FIPS_BLOCK) + padder.finalize()
    e = Cipher(algorithms.AES(FIPS_KEY), modes.ECB()).encryptor()
    padded = e.update(block) + e.finalize()
    try:
        uuid.UUID(bytes=padded)
        check("PKCS7 padding: 32 bytes out, which uuid.UUID refuses", False, padded.hex())
    except ValueError:
        check("PKCS7 padding: 32 bytes out, which uuid.UUID refuses", len(padded) == 32, padded.hex())
    lost = 0
    for i, p, _ in rows:
        d = Cipher(algorithms.AES(key), modes.ECB()).decryptor()
        unpadder = padding.PKCS7(128).unpadder()
        try:
            out = unpadder.update(d.update(p.bytes) + d.finalize()) + unpadder.finalize()
            lost += len(out) < 16  # the padding checked out: bytes of the id were taken for it
        except ValueError:
            lost += 1  # invalid padding
    expect_equal("PKCS7 unpadding: none of the 503 server public ids gives its 16 bytes back", lost, 503)

    # A key of another length: the recipe and the server both refuse it,
    # with the same words; cryptography's AES alone would take it as AES-256.
    long_key = key * 2
    try:
        public_id(rows[0][0], long_key)
        mine = "no error"
    except ValueError as err:
        mine = str(err)
    err = expect_sqlstate("a 32-byte key: the server raises 22023",
                          lambda: conn.execute("SELECT ulid_encrypt(%s::ulid, %s)", (rows[0][0], long_key)),
                          "22023", lambda e: e.sqlstate)
    expect_equal("... and public_id() raises ValueError with the server's message",
                 mine, err.diag.message_primary if err else None)
    e = Cipher(algorithms.AES(long_key), modes.ECB()).encryptor()
    check("... which cryptography's AES alone takes, as AES-256",
          len(e.update(unb32(rows[0][0])) + e.finalize()) == 16)

    # The key as hex text: a str goes untyped, read as bytea's text input,
    # so 32 hex digits are 32 bytes; bytes.fromhex() makes the 16.
    err = expect_sqlstate("the key as hex text (a str of 32 digits): 22023",
                          lambda: conn.execute("SELECT ulid_encrypt(%s::ulid, %s)", (rows[0][0], key.hex())),
                          "22023", lambda e: e.sqlstate)
    expect_equal("... key must be 16 bytes, not 32", err.diag.message_primary if err else None,
                 "key must be 16 bytes, not 32")


def docs_usage(conn):
    # docs/clients/python.md snippet: public ids, with psycopg.
    key = bytes.fromhex(os.environ["PUBLIC_ID_KEY"])  # 16 bytes, kept out of the code
    cur = conn.execute("SELECT id, ulid_encrypt(id, %s) FROM orders WHERE item = %s", (key, "tea"))
    order_id, shown = cur.fetchone()  # shown: the uuid.UUID an API shows, public_id(order_id, key)
    cur = conn.execute("SELECT item FROM orders WHERE id = ulid_decrypt(%s, %s)", (shown, key))
    row = cur.fetchone()  # ('tea',)
    # end of snippet
    expect_equal("docs: the tea's public id, computed in Python both ways, and its row by ulid_decrypt",
                 (shown, ulid_of(shown, key), row), (public_id(order_id, key), order_id, ("tea",)))


def recipe_alone():
    """The recipe block of the docs, copied alone into a fresh interpreter, runs."""
    code = ulidcheck.snippet(__file__, "public ids") + """
key = bytes.fromhex("000102030405060708090a0b0c0d0e0f")
shown = public_id("0024H36H2NCSVRH6DAQF6DVVQZ", key)  # the 16 bytes 00112233...ff
print(shown, ulid_of(shown, key))
"""
    status, out, err = run_alone(code)
    expect_equal("the docs' recipe alone, in a fresh interpreter: it imports what it uses",
                 (status, out.strip(), err),
                 (0, "69c4e0d8-6a7b-0430-d8cd-b78070b4c55a 0024H36H2NCSVRH6DAQF6DVVQZ", ""))


def main():
    seed = ulidcheck.seed(f"cryptography {cryptography.__version__}, psycopg {psycopg.__version__}")
    rng = random.Random(seed)
    key, other_key = rng.randbytes(16), rng.randbytes(16)
    with psycopg.connect(autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS public_ids CASCADE")
        conn.execute("CREATE SCHEMA public_ids")
        conn.execute("SET search_path = public_ids, public")
        conn.execute("CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text)")
        known(conn)
        rows = agree(conn, rng, key, other_key)
        mistakes(conn, rows, key)
        conn.execute("INSERT INTO orders (item) VALUES ('tea')")
        os.environ["PUBLIC_ID_KEY"] = key.hex()
        docs_usage(conn)
        recipe_alone()
        conn.execute("DROP SCHEMA public_ids CASCADE")


if __name__ == "__main__":
    ulidcheck.run(main)
