"""What the Python client programs share: the check lines and an independent codec.

Each program sets CLIENT, then calls check() or expect_equal() once per
check; the lines follow t/007_clients.pl's contract:
"ok - CLIENT: WHAT" or "FAILED - CLIENT: WHAT : WHY".
"""

import os
import random
import sys

CLIENT = "python"
failures = 0


def check(what, ok, why=""):
    global failures
    if ok:
        print(f"ok - {CLIENT}: {what}", flush=True)
    else:
        failures += 1
        why = " ".join(str(why).split()) or "false"  # one line per check
        print(f"FAILED - {CLIENT}: {what} : {why}", flush=True)


def expect_equal(what, got, want):
    check(what, got == want, f"got {got!r}, want {want!r}")


def expect_sqlstate(what, fn, sqlstate, get_state):
    """fn() must raise an error whose SQLSTATE (read by get_state) is sqlstate."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 -- the driver's error, whatever its class
        expect_equal(what, get_state(e), sqlstate)
        return e
    check(what, False, "no error raised")
    return None


def seed(what):
    """The random seed of a run: ULID_TEST_SEED if set, else a fresh one, printed.

    ULID_TEST_SEED=N replays a run; WHAT (the library and its version) goes in
    the printed line, a diagnostic for t/007_clients.pl.
    """
    value = int(os.environ.get("ULID_TEST_SEED", "0")) or random.randrange(1, 2**32)
    print(f"# {what}, ULID_TEST_SEED={value} replays this run", flush=True)
    return value


def snippet(path, title):
    """The source between "# --- docs/clients/python.md snippet: TITLE" and
    the next "# --- end of" line in the file PATH."""
    lines = open(path, encoding="utf-8").read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("# --- docs/clients/python.md snippet: " + title))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("# --- end of"))
    return "\n".join(lines[start + 1:end]) + "\n"


def run_alone(code):
    """Run CODE in a fresh interpreter (nothing imported for it, libpq's
    environment); return (exit status, stdout, last line of stderr)."""
    import subprocess
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    last = (proc.stderr.strip().splitlines() or [""])[-1]
    return proc.returncode, proc.stdout, last


def done():
    if failures:
        print(f"{CLIENT}: {failures} failed")
        sys.exit(1)


# The test's own Crockford Base32 codec, independent of the extension's C.
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def b32(data):
    n = int.from_bytes(data, "big")
    return "".join(CROCKFORD[(n >> (5 * i)) & 31] for i in range(25, -1, -1))


def unb32(text):
    n = 0
    for c in text.upper():
        n = n * 32 + CROCKFORD.index(c)
    return n.to_bytes(16, "big")


# Known values: the ULID spec's example, the smallest and the largest ULID.
VECTORS = [
    ("01ARYZ6S41TSV4RRFFQ69G5FAV", bytes.fromhex("01563df36481d6764c61efb99302bd5b")),
    ("00000000000000000000000000", bytes(16)),
    ("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", b"\xff" * 16),
]


def run(main):
    """Run main(); a program that breaks is one FAILED line, then exit 1."""
    try:
        main()
    except Exception as e:  # noqa: BLE001
        import traceback
        traceback.print_exc(file=sys.stdout)
        check("the program ran to the end", False, f"{type(e).__name__}: {e}")
    done()
