#!/usr/bin/python3
"""META.json against the PGXN Meta Spec v1, and against the source it describes.

    /usr/bin/python3 test/check_meta.py [REPO]

Validates REPO/META.json (default: this checkout's) with Debian's
python3-jsonschema against test/pgxn-meta-spec-v1.schema.json, a schema
written from the spec's text, after proving that the schema rejects a few
broken copies of META.json (so that a schema that accepts everything fails
here).  Then checks what the spec cannot: version and provides.ulid.version
are ulid.control's default_version as X.Y.Z, the provided file and docfile
exist, the Makefile builds the installed script from the provided file, the
abstract is the control file's comment, and the PostgreSQL range is the one
src/ulid.c and the README state.  Prints TAP lines; exits non-zero on any failure.
"""
import copy
import json
import os
import re
import sys

try:
    import jsonschema
except ImportError:
    print("not ok 1 - python3-jsonschema is importable")
    print("#   run this with Debian's /usr/bin/python3 after apt-get install python3-jsonschema")
    print("1..1")
    sys.exit(1)

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, ".."))
results = []


def check(name, ok, why=""):
    results.append(bool(ok))
    print("%s %d - %s" % ("ok" if ok else "not ok", len(results), name))
    if not ok and why:
        for line in str(why).splitlines():
            print("#   " + line)
    return ok


def finish():
    print("1..%d" % len(results))
    sys.exit(0 if all(results) else 1)


def read(path):
    with open(os.path.join(repo, path), encoding="utf-8") as f:
        return f.read()


def errors(validator, instance):
    """Every schema error, one line each: where, then what."""
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)", e.message)
            for e in sorted(validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path)))]


with open(os.path.join(here, "pgxn-meta-spec-v1.schema.json"), encoding="utf-8") as f:
    schema = json.load(f)
try:
    jsonschema.Draft7Validator.check_schema(schema)
    check("the schema is a valid draft-07 JSON Schema", True)
except jsonschema.SchemaError as e:
    check("the schema is a valid draft-07 JSON Schema", False, e.message)
    finish()
validator = jsonschema.Draft7Validator(schema)

try:
    meta = json.loads(read("META.json"))
    check("META.json is JSON", True)
except (OSError, ValueError) as e:
    check("META.json is JSON", False, e)
    finish()

problems = errors(validator, meta)
check("META.json follows the PGXN Meta Spec v1", not problems, "\n".join(problems))


# The schema must have teeth: each of these breaks one rule of the spec.
def without(key):
    return lambda m: m.pop(key)


def setting(path, value):
    def f(m):
        *parents, last = path
        for p in parents:
            m = m[p]
        m[last] = value
    return f


broken = [
    ("no name (required)", without("name")),
    ("no provides (required)", without("provides")),
    ("version '1.1' (not SemVer)", setting(["version"], "1.1")),
    ("version '01.1.0' (leading zero)", setting(["version"], "01.1.0")),
    ("license 'PostgreSQL License' (not a License String)", setting(["license"], "PostgreSQL License")),
    ("license as a Map to a non-URI", setting(["license"], {"PostgreSQL": "see LICENSE"})),
    ("provides.ulid without file", lambda m: m["provides"]["ulid"].pop("file")),
    ("provides.ulid.file an absolute path", setting(["provides", "ulid", "file"], "/usr/share/ulid.sql")),
    ("name 'u' (a Term has 2 characters or more)", setting(["name"], "u")),
    ("name with a space", setting(["name"], "ulid type")),
    ("PostgreSQL range '>= 15' (not a Version)", setting(["prereqs", "runtime", "requires", "PostgreSQL"], ">= 15")),
    ("PostgreSQL range '=> 15.0.0' (no such operator)", setting(["prereqs", "runtime", "requires", "PostgreSQL"], "=> 15.0.0")),
    ("a phase 'install' (not a phase)", setting(["prereqs", "install"], {"requires": {"plpgsql": 0}})),
    ("a relationship 'needs'", setting(["prereqs", "runtime", "needs"], {"plpgsql": 0})),
    ("release_status 'final'", setting(["release_status"], "final")),
    ("meta-spec version '2.0.0'", setting(["meta-spec", "version"], "2.0.0")),
    ("a top-level key 'homepage' (not in the spec, not x_)", setting(["homepage"], "https://example.org/")),
    ("a tag with a slash", setting(["tags"], ["ulid/uuid"])),
    ("no_index directory 't' (PGXN's schema: a path has 2 characters or more)",
     setting(["no_index"], {"directory": ["t"]})),
]
accepted_too = [
    ("a custom key x_ci", setting(["x_ci"], {"anything": True})),
    ("the range '>= 15.0.0, != 16.1.0, < 20.0.0'", setting(["prereqs", "runtime", "requires", "PostgreSQL"], ">= 15.0.0, != 16.1.0, < 20.0.0")),
    ("license as a Map", setting(["license"], {"PostgreSQL": "https://www.postgresql.org/about/licence"})),
    ("maintainer as one String", setting(["maintainer"], "someone <someone@example.org>")),
]
if not problems:
    missed = []
    for what, breaks in broken:
        m = copy.deepcopy(meta)
        try:
            breaks(m)
        except (KeyError, TypeError) as e:
            missed.append("%s: cannot apply to this META.json (%r)" % (what, e))
            continue
        if validator.is_valid(m):
            missed.append(what)
    check("the schema rejects %d broken copies of META.json" % len(broken), not missed,
          "accepted: " + "\n".join(missed))
    refused = []
    for what, change in accepted_too:
        m = copy.deepcopy(meta)
        change(m)
        refused.extend("%s: %s" % (what, p) for p in errors(validator, m))
    check("the schema accepts %d valid variants (custom keys, ranges, license Map, one maintainer)" % len(accepted_too),
          not refused, "\n".join(refused))

# What the spec cannot know: the source this META.json describes.
control = read("ulid.control")
m = re.search(r"^default_version\s*=\s*'([0-9]+\.[0-9]+(?:\.[0-9]+)?)'\s*$", control, re.M)
if not check("ulid.control has default_version X.Y or X.Y.Z", m is not None, control):
    finish()
sql_version = m.group(1)
release = sql_version if sql_version.count(".") == 2 else sql_version + ".0"
provided = meta.get("provides", {}).get("ulid")
if not isinstance(provided, dict):
    provided = {}
check("META.json name is ulid and it provides the extension ulid",
      meta.get("name") == "ulid" and "ulid" in meta.get("provides", {}), "name %r, provides %r" % (meta.get("name"), list(meta.get("provides", {}))))
check("META.json version is %s (default_version %s)" % (release, sql_version), meta.get("version") == release,
      "META.json version %r" % meta.get("version"))
check("provides.ulid.version is %s" % release, provided.get("version") == release,
      "provides.ulid.version %r" % provided.get("version"))

install_script = "sql/ulid.sql"
file = provided.get("file", "")
check("provides.ulid.file %s exists" % file, file and os.path.isfile(os.path.join(repo, file)),
      "no file %r in %s" % (file, repo))
check("provides.ulid.file is the install script of default_version (%s)" % install_script, file == install_script,
      "provides.ulid.file %r" % file)
built = re.search(r"^sql/ulid--\$\(EXTVERSION\)\.sql: (\S+)$", read("Makefile"), re.M)
check("provides.ulid.file is installed (the Makefile builds ulid--$(EXTVERSION).sql from it)",
      built is not None and built.group(1) == file, built.group(0) if built else "no rule for ulid--$(EXTVERSION).sql")
docfile = provided.get("docfile", "")
check("provides.ulid.docfile %s exists" % docfile, docfile and os.path.isfile(os.path.join(repo, docfile)),
      "no file %r in %s" % (docfile, repo))
comment = re.search(r"^comment\s*=\s*'(.*)'\s*$", control, re.M)
check("provides.ulid.abstract is ulid.control's comment",
      comment is not None and provided.get("abstract") == comment.group(1),
      "abstract %r, comment %r" % (provided.get("abstract"), comment.group(1) if comment else None))

# The PostgreSQL range: its lower bound is the oldest major src/ulid.c builds for
# (its #error), its upper bound the major after the newest one the README lists.
rng = meta.get("prereqs", {}).get("runtime", {}).get("requires", {}).get("PostgreSQL")
low = re.search(r"^#if PG_VERSION_NUM < (\d+)0000\s*\n#error", read("src/ulid.c"), re.M)
readme_majors = [int(x) for x in re.findall(r"^\| (\d+) \| ", read("README.md").split("## Supported versions", 1)[-1], re.M)]
want = None
if low and readme_majors:
    want = ">= %d.0.0, < %d.0.0" % (int(low.group(1)), max(readme_majors) + 1)
check("runtime requires PostgreSQL %s (src/ulid.c's oldest major, the README's newest)" % want,
      want is not None and rng == want,
      "META.json has %r; src/ulid.c's #error below %s, README's majors %s" % (rng, low.group(1) if low else None, readme_majors))
check("release_status is stable only for a version without a pre-release part",
      meta.get("release_status", "stable") != "stable" or "-" not in str(meta.get("version")),
      "version %r, release_status %r" % (meta.get("version"), meta.get("release_status")))

no_index = meta.get("no_index", {}).get("directory", [])
missing = [d for d in ([no_index] if isinstance(no_index, str) else no_index) if not os.path.isdir(os.path.join(repo, d))]
check("every no_index directory exists", not missing, "missing: %s" % missing)

finish()
