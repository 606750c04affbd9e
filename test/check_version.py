#!/usr/bin/python3
"""One version number: ulid.control's default_version, and everything that repeats it.

    /usr/bin/python3 test/check_version.py [REPO]

default_version (X.Y, or X.Y.Z) is the only place the version is written by
hand.  The release version is it as X.Y.Z (1.1 is release 1.1.0).  Checked
against it: the Makefile reads it (EXTVERSION, which also becomes the
library's PG_MODULE_MAGIC_EXT version, checked on 18+ by the loaded_module
regression test), its install script exists and is in DATA, the newest
CHANGELOG.md entry, META.json (version and provides), the newest
debian/changelog entry, the version tle/ulid.sql registers with pg_tle, and
the npm package's (pglite/package.json).  Prints TAP lines; exits non-zero on any failure.
"""
import json
import os
import re
import subprocess
import sys

repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
results = []


def check(name, ok, why=""):
    results.append(ok)
    print("%s %d - %s" % ("ok" if ok else "not ok", len(results), name))
    if not ok and why:
        for line in str(why).splitlines():
            print("#   " + line)


def read(path):
    with open(os.path.join(repo, path), encoding="utf-8") as f:
        return f.read()


control = read("ulid.control")
m = re.search(r"^default_version\s*=\s*'([0-9]+\.[0-9]+(?:\.[0-9]+)?)'\s*$", control, re.M)
check("ulid.control has default_version X.Y or X.Y.Z", m is not None, control)
if m is None:
    sys.exit(1)
sql_version = m.group(1)
release = sql_version if sql_version.count(".") == 2 else sql_version + ".0"
print("# default_version %s, release %s" % (sql_version, release))

makefile = read("Makefile")
check("the Makefile reads EXTVERSION from ulid.control",
      re.search(r"^EXTVERSION = \$\(shell sed .*\$\(EXTENSION\)\.control\)$", makefile, re.M) is not None,
      "no line 'EXTVERSION = $(shell sed ... $(EXTENSION).control)'")
check("the library's version is EXTVERSION (PG_MODULE_MAGIC_EXT)",
      "-DULID_VERSION='\"$(EXTVERSION)\"'" in makefile and
      "PG_MODULE_MAGIC_EXT(.name = \"ulid\",.version = ULID_VERSION)" in read("src/ulid.c"))
install_script = "ulid--%s.sql" % sql_version
check("%s is built from sql/ulid.sql (DATA_built), which exists" % install_script,
      os.path.exists(os.path.join(repo, "sql", "ulid.sql")) and
      re.search(r"^DATA_built = sql/ulid--\$\(EXTVERSION\)\.sql$", makefile, re.M) is not None and
      re.search(r"^sql/ulid--\$\(EXTVERSION\)\.sql: sql/ulid\.sql$", makefile, re.M) is not None)
older = sorted(f for f in os.listdir(repo) if re.match(r"^ulid--[0-9.]+\.sql$", f))
check("no full script of the default version beside the frozen ones (%s)" % ", ".join(older),
      install_script not in older, "%s is committed: it is made from sql/ulid.sql" % install_script)

# The trusted-language edition registers itself under the same version.
tle = read("tle/ulid.sql")
tm = re.search(r"pgtle\.install_extension\(\s*'ulid',\s*'([^']*)'", tle)
check("tle/ulid.sql registers ulid %s with pg_tle" % sql_version, tm is not None and tm.group(1) == sql_version,
      tm.group(1) if tm else "no pgtle.install_extension('ulid', ...)")

changelog = read("CHANGELOG.md")
entries = re.findall(r"^## ([0-9]+\.[0-9]+\.[0-9]+) \((\d{4}-\d{2}-\d{2}|unreleased)\)$", changelog, re.M)
headings = re.findall(r"^## .*$", changelog, re.M)
check("CHANGELOG.md: every entry is '## X.Y.Z (YYYY-MM-DD)' or '(unreleased)'",
      len(entries) == len(headings) and len(entries) > 0, "\n".join(headings))
check("CHANGELOG.md: the newest entry is %s" % release, bool(entries) and entries[0][0] == release,
      entries[0] if entries else "no entry")
check("CHANGELOG.md: one entry a release", len({e[0] for e in entries}) == len(entries))

meta_path = os.path.join(repo, "META.json")
if os.path.exists(meta_path):
    meta = json.loads(read("META.json"))
    check("META.json version is %s" % release, meta.get("version") == release, meta.get("version"))
    provided = meta.get("provides", {}).get("ulid", {})
    check("META.json provides ulid %s in sql/ulid.sql" % release,
          provided.get("version") == release and provided.get("file") == "sql/ulid.sql", provided)
else:
    check("META.json exists", False)

# The npm package for PGlite is released with the extension it carries.
if os.path.exists(os.path.join(repo, "pglite", "package.json")):
    npm_version = json.loads(read("pglite/package.json")).get("version")
    check("pglite/package.json version is %s" % release, npm_version == release, npm_version)

deb = os.path.join(repo, "debian", "changelog")
if os.path.exists(deb):
    first = read("debian/changelog").splitlines()[0]
    dm = re.match(r"^\S+ \(([^)-]+)-[^)]+\) ", first)
    check("debian/changelog's newest entry is %s-N" % release, dm is not None and dm.group(1) == release, first)
else:
    check("debian/changelog exists", False)

# What the build system itself computes, if a pg_config is at hand.
try:
    out = subprocess.run(["make", "-s", "-C", repo, "-f", "Makefile", "-f", "-", "print-extversion"],
                         input="print-extversion:\n\t@echo $(EXTVERSION)\n", capture_output=True, text=True, timeout=60)
    check("make computes EXTVERSION %s" % sql_version, out.stdout.strip() == sql_version, out.stdout + out.stderr)
except (OSError, subprocess.TimeoutExpired) as e:
    check("make computes EXTVERSION %s" % sql_version, False, e)

sys.exit(0 if all(results) else 1)
