#!/usr/bin/python3
"""One version number: ulid.control's default_version, and everything that repeats it.

    /usr/bin/python3 test/check_version.py [REPO]

default_version (X.Y, or X.Y.Z) is the only place the version is written by
hand.  The release version is it as X.Y.Z (1.1 is release 1.1.0).  Checked
against it: the Makefile reads it (EXTVERSION, which also becomes the
library's PG_MODULE_MAGIC_EXT version, checked on 18+ by the loaded_module
regression test), its install script is built from sql/ulid.sql and is
neither in DATA nor committed, and .gitignore ignores it and no other script
(the versioned scripts are in sql/, each in DATA, none at the root), the newest
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

# The versioned scripts, frozen full ones and updates, are in sql/ and each is
# in DATA; the built one of the default version is neither in DATA nor
# committed.  What sql/ holds is what git tracks there (a script built on
# another branch may lie beside them), or, outside a checkout (the PGXN
# archive), its files but the built one.
script = re.compile(r"^ulid--[0-9.]+(--[0-9.]+)?\.sql$")
at_root = sorted(f for f in os.listdir(repo) if script.match(f))
check("no versioned script at the root (they are in sql/)", not at_root, ", ".join(at_root))
dm = re.search(r"^DATA = ((?:.*\\\n)*.*)$", makefile, re.M)
data = dm.group(1).replace("\\\n", " ").split() if dm else []
in_git = subprocess.run(["git", "-C", repo, "rev-parse", "--show-prefix"], capture_output=True, text=True)
in_git = in_git.returncode == 0 and in_git.stdout.strip() == ""
if in_git:
    tracked = subprocess.run(["git", "-C", repo, "ls-files", "sql"], capture_output=True, text=True).stdout.split()
    in_sql = sorted(f[4:] for f in tracked if f.startswith("sql/") and "/" not in f[4:])
else:
    in_sql = sorted(f for f in os.listdir(os.path.join(repo, "sql")) if f != install_script)
in_sql = ["sql/" + f for f in in_sql if script.match(f)]
check("the Makefile's DATA is sql/'s versioned scripts (%s)" % ", ".join(f[4:] for f in in_sql),
      dm is not None and sorted(data) == in_sql and all(os.path.isfile(os.path.join(repo, f)) for f in data),
      "DATA: %s\nin sql/ (tracked by git, in a checkout): %s" % (" ".join(data), " ".join(in_sql)))
built = "sql/" + install_script
check("no full script of the default version beside the frozen ones", built not in data and built not in in_sql,
      "%s is in DATA or committed: it is made from sql/ulid.sql" % built)
# .gitignore (left out of the PGXN archive) hides the built script, and
# would hide no frozen one from git add.
if in_git and os.path.exists(os.path.join(repo, ".gitignore")):
    def ignored(path):
        return subprocess.run(["git", "-C", repo, "check-ignore", "-q", "--no-index", path]).returncode == 0
    hidden = [f for f in data if ignored(f)]
    check(".gitignore ignores %s and no script in DATA" % built, ignored(built) and not hidden,
          "%s%s" % ("" if ignored(built) else "%s is not ignored (the /sql/ulid--X.Y.sql line is another version's)\n" % built,
                    "ignored: " + " ".join(hidden) if hidden else ""))

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
