"""Keep every snippet in README.md and docs/*.md true.

Run against a server given by the libpq environment (PGHOST, PGPORT, PGUSER,
PGDATABASE), as the test runner does:

    bin/tempcluster -- /usr/bin/python3 test/check_docs.py [ROOT] [DOC.md ...]

ROOT is the source tree (default: the one this file is in); with no DOC,
README.md and docs/*.md, and the checks on whole documents below.

Every document gets a fresh database, docs_<name>, with CREATE EXTENSION ulid
already run, and one psql session that runs its ```sql blocks in order, with
TimeZone UTC and DateStyle ISO.  A block fails if it raises an error, unless
the document shows that error as its output.  The conventions, all in the
Markdown source:

  ```sql ... ```        run; one check
  ```text ... ```       right after an sql block (blank lines between are
                        allowed): the output psql prints for that block,
                        which must match line for line (trailing blanks
                        ignored).  Without it the output is not compared.
  <!-- setup            SQL (and psql meta-commands) the reader need not see,
  ...                   run before the next block; an error in it fails that
  -->                   block.  "<!-- setup on NAME" runs it on NAME (below).
  <!-- engine NAME -->  the sql blocks from here on (to "<!-- engine none -->")
                        need an engine such as citus or timescaledb, or
                        servers of their own (replication): they are not
                        run here but by that TAP test, with --engine NAME
                        --database DB, in the database it prepared
                        (t/012_citus.pl, t/013_timescaledb.pl,
                        t/016_convert_replication.pl).
  <!-- on NAME -->      run the next block in a second fresh database,
                        docs_<name>_NAME (another server, in the document's
                        story); the document's own database comes back after
                        it, in a new session, so SET does not carry over.
  ```python, ```java,   must appear, line for line (indentation and blank
  ```go, ```rust,       lines aside), in one file of that language under
  ```js, ```ruby,       test/clients/, which the client tests run
  ```php, ```prisma     (t/007_clients.pl); for js, test/pglite/ too
                        (bin/test pglite).  A prisma block is a Prisma
                        schema, in a .prisma file.

Other fences are not run, and must be one of the kinds below (UNRUN): any
other language is a failure, so that a client block fenced ```javascript or
```py is not skipped unnoticed.  Besides the snippets it checks
that README.md names every user-facing object of the install script (the
support functions it may leave out are derived from the script) and that
every object of the installed extension has a COMMENT, that relative
links resolve, that no document repeats a sentence, and that no document
cites an issue number.  Prints TAP:
"ok N - DOC: first line of block" or "not ok N - ..." followed by the error or
a diff; exits non-zero on any failure.
"""

import difflib
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The client languages the docs show, and the extensions of the files under
# test/clients/ that hold their code.
CLIENT_TESTS = {
    "python": (".py",),
    "java": (".java",),
    "go": (".go",),
    "rust": (".rs",),
    "js": (".js", ".mjs", ".cjs"),
    "ruby": (".rb",),
    "php": (".php",),
    "prisma": (".prisma",),
}
# Fences shown but not run: shell, configuration, and code no test runs
# (TypeScript types; the page says so).  A bare ``` too.
UNRUN = ("", "text", "sh", "ini", "toml", "ts")
ERROR_LINE = re.compile(r"^(ERROR|FATAL|PANIC):|^psql:.*(error|FATAL)", re.M)
MARK = "@@check_docs %d@@"
DATABASE = None     # --database: run in this database instead of fresh ones

results = []


def report(ok, name, detail=""):
    results.append(ok)
    print("%s %d - %s" % ("ok" if ok else "not ok", len(results), name), flush=True)
    if not ok and detail:
        for line in detail.rstrip("\n").splitlines():
            print("#   " + line)


# ---------------------------------------------------------------------------
# Parsing

class Snippet:
    def __init__(self, lang, text, line):
        self.lang = lang
        self.text = text
        self.line = line
        self.expected = None    # the text block shown as its output
        self.setup = []         # [(database or None, sql)]
        self.on = None          # database name for an <!-- on NAME --> block
        self.engine = None      # the engine of an <!-- engine NAME --> stretch

    def title(self):
        first = next((l.strip() for l in self.text.splitlines() if l.strip()), "(empty)")
        return first if len(first) <= 70 else first[:67] + "..."


def parse(path):
    """The document's snippets, in order, with their output and setup attached."""
    lines = open(path, encoding="utf-8").read().splitlines()
    snippets = []
    pending_setup, pending_on = [], None
    engine = None
    last_sql = None     # an sql block that a text block may still follow
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^```(\w*)\s*$", line)
        if fence:
            lang = fence.group(1)
            j = i + 1
            while j < len(lines) and not re.match(r"^```\s*$", lines[j]):
                j += 1
            body = "\n".join(lines[i + 1:j]) + "\n"
            if lang == "text" and last_sql is not None:
                last_sql.expected = body
                last_sql = None
            elif lang == "sql" or lang in CLIENT_TESTS or lang not in UNRUN:
                s = Snippet(lang, body, i + 1)
                s.setup, s.on, s.engine = pending_setup, pending_on, engine
                pending_setup, pending_on = [], None
                snippets.append(s)
                last_sql = s if lang == "sql" else None
            else:
                last_sql = None
            i = j + 1
            continue
        stretch = re.match(r"^<!--\s*engine\s+(\w+)\s*-->\s*$", line)
        if stretch:
            engine = None if stretch.group(1) == "none" else stretch.group(1)
            i += 1
            continue
        comment = re.match(r"^<!--\s*(setup|on)\b(.*)$", line)
        if comment:
            j = i
            while j < len(lines) - 1 and "-->" not in lines[j]:
                j += 1
            text = "\n".join(lines[i:j + 1])
            text = text[text.index(comment.group(1)) + len(comment.group(1)):text.rindex("-->")]
            if comment.group(1) == "on":
                pending_on = text.strip()
            else:
                on = re.match(r"[ \t]+on[ \t]+(\w+)", text)
                db = None
                if on:
                    db, text = on.group(1), text[on.end():]
                pending_setup.append((db, text.strip("\n") + "\n"))
            i = j + 1
            continue
        if line.strip():
            last_sql = None
        i += 1
    if pending_setup:
        s = Snippet("sql", "", len(lines))
        s.setup = pending_setup
        snippets.append(s)
    return snippets


# ---------------------------------------------------------------------------
# SQL

def psql(args, stdin="", db=None):
    env = dict(os.environ, PGTZ="UTC", PGDATESTYLE="ISO, MDY")
    env["PGOPTIONS"] = (env.get("PGOPTIONS", "") + " -c lc_messages=C").strip()
    cmd = ["psql", "-X", "-q"] + (["-d", db] if db else []) + args
    return subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env, timeout=600)


def fresh_database(name):
    out = psql(["-v", "ON_ERROR_STOP=1", "-c", 'DROP DATABASE IF EXISTS "%s"' % name,
                "-c", 'CREATE DATABASE "%s"' % name])
    if out.returncode == 0:
        out = psql(["-v", "ON_ERROR_STOP=1", "-c", "CREATE EXTENSION ulid"], db=name)
    return out.stdout if out.returncode else None


def normalized_output(text):
    lines = [l.rstrip() for l in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def run_sql(doc, snippets):
    """Run the document's sql blocks in one psql session.

    Returns, for each block, (output of its setup, its output), either None
    where psql never got there, and the text psql printed last; or raises
    RuntimeError if a database cannot be made.
    """
    others = {s.on for s in snippets if s.on} | {db for s in snippets for db, _ in s.setup if db}
    if DATABASE:
        # An engine's blocks, in the database its test prepared.
        if others:
            raise RuntimeError("<!-- on NAME --> is not supported in an engine's blocks")
        base, dbs = DATABASE, {None: DATABASE}
    else:
        base = "docs_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(doc))[0].lower())
        dbs = {None: base}
        dbs.update({name: "%s_%s" % (base, name.lower()) for name in others})
        for db in dbs.values():
            err = fresh_database(db)
            if err:
                raise RuntimeError("creating database %s failed:\n%s" % (db, err))

    script, current = [], None

    def connect(name):
        nonlocal current
        if name != current:
            script.append("\\c %s\n" % dbs[name])
            current = name

    connect(None)
    for k, s in enumerate(snippets):
        for db, sql in s.setup:
            connect(db)
            script.append(sql)
        connect(s.on)
        script.append("\\echo '%s'\n" % (MARK % k))
        script.append(s.text)
        script.append("\\echo '%s'\n" % (MARK % k))
        if s.on:
            connect(None)       # a new session, as documented
    out = psql([], "".join(script), db=base).stdout

    # Each block's output lies between its two marks, its setup's before them.
    parts = re.split(r"^@@check_docs (\d+)@@\n", out, flags=re.M)
    before, outputs = {}, {}
    prev = parts[0]
    for j in range(1, len(parts), 2):
        k = int(parts[j])
        if k not in before:
            before[k] = prev
        else:
            outputs[k] = prev
        prev = parts[j + 1]
    return [(before.get(k), outputs.get(k)) for k in range(len(snippets))], prev


def check_sql(doc, snippets):
    """One check per sql block: it ran without error, and printed what the doc shows."""
    try:
        runs, tail = run_sql(doc, snippets)
    except RuntimeError as e:
        for s in snippets:
            report(False, "%s:%d: %s" % (doc, s.line, s.title()), str(e))
        return
    for s, (setup_out, got) in zip(snippets, runs):
        name = "%s:%d: %s" % (doc, s.line, s.title() if s.text else "(setup at the end)")
        if got is None:
            report(False, name, "psql stopped in or before this block:\n" + tail[-2000:])
        elif ERROR_LINE.search(setup_out):
            report(False, name, "its hidden setup failed:\n" + setup_out)
        elif s.expected is None:
            report(not ERROR_LINE.search(got), name, got)
        else:
            want_lines, got_lines = normalized_output(s.expected), normalized_output(got)
            diff = difflib.unified_diff(want_lines, got_lines, "shown in " + doc, "psql printed", lineterm="")
            report(want_lines == got_lines, name, "\n".join(diff))


# ---------------------------------------------------------------------------
# Client code

def code_lines(text):
    return [l.strip() for l in text.splitlines() if l.strip()]


def client_files(lang):
    """The client test files of a language: test/clients/** (and, for js,
    test/pglite/**, which bin/test pglite runs), dependencies and builds aside."""
    found = []
    tops = [os.path.join(ROOT, "test", "clients")]
    if lang == "js":
        tops.append(os.path.join(ROOT, "test", "pglite"))
    for root in tops:
        for top, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "target"))
            found += [os.path.join(top, f) for f in sorted(files) if f.endswith(CLIENT_TESTS[lang])]
    return found


def check_client(doc, s):
    needle = code_lines(s.text)
    n = len(needle)
    if not needle:
        report(False, "%s:%d: an empty %s block" % (doc, s.line, s.lang))
        return
    best = None     # (lines found, path, first line missing) of the closest file
    for path in client_files(s.lang):
        haystack = code_lines(open(path, encoding="utf-8").read())
        rel = os.path.relpath(path, ROOT)
        if any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1)):
            report(True, "%s:%d: %s (in %s)" % (doc, s.line, s.title(), rel))
            return
        have = sum(l in haystack for l in needle)
        if best is None or have > best[0]:
            missing = next((l for l in needle if l not in haystack), "every line is there, but not in this order")
            best = (have, rel, missing)
    name = "%s:%d: %s" % (doc, s.line, s.title())
    if best is None:
        report(False, name, "no %s file under test/clients/" % s.lang)
    else:
        report(False, name, "not run by any client test; closest: %s, first line it lacks: %s" % best[1:])


# ---------------------------------------------------------------------------
# Whole documents

def support_functions(script):
    """The functions the install script makes part of another object: a
    type's I/O or subtype_diff, an operator's function or estimators, an
    operator class's support function, an aggregate's state, final or combine
    function, a planner support function, an event trigger's function.  The
    reference names the object; the catalog's COMMENT documents the part."""
    script = re.sub(r"--[^\n]*", "", script)
    script = re.sub(r"'(?:[^']|'')*'", "''", script)
    keys = ("INPUT|OUTPUT|RECEIVE|SEND|TYPMOD_IN|TYPMOD_OUT|ANALYZE|SUBTYPE_DIFF|CANONICAL|PROCEDURE"
            "|FUNCTION|RESTRICT|JOIN|SFUNC|FINALFUNC|COMBINEFUNC|SERIALFUNC|DESERIALFUNC|MSFUNC"
            "|MINVFUNC|MFINALFUNC")
    found = set(re.findall(r"\b(?:%s)\s*=\s*(\w+)\b(?!\.)" % keys, script))
    found |= set(re.findall(r"\bFUNCTION\s+\d+\s+(?:\([^)]*\)\s*)?(\w+)\s*\(", script))
    found |= set(re.findall(r"\bSUPPORT\s+(\w+)", script))
    found |= set(re.findall(r"\bEXECUTE\s+(?:FUNCTION|PROCEDURE)\s+(\w+)", script))
    return found


def check_reference(readme):
    """README.md names every user-facing object of the install script; the
    support functions it leaves out are documented by their COMMENT."""
    script_name = "sql/ulid.sql"  # installed as ulid--<version>.sql
    script = open(os.path.join(ROOT, script_name), encoding="utf-8").read()
    text = open(readme, encoding="utf-8").read()
    functions = set(re.findall(r"CREATE FUNCTION (\w+)\(", script))
    support = support_functions(script) & functions
    names = functions - support
    names |= set(re.findall(r"CREATE OPERATOR CLASS (\w+)", script))
    names |= set(re.findall(r"CREATE EVENT TRIGGER (\w+)", script))
    names |= set(re.findall(r"CREATE TYPE (\w+) AS RANGE", script))
    names |= {"%s(ulid)" % a for a in re.findall(r"CREATE AGGREGATE (\w+)\(ulid\)", script)}
    names |= {"`%s`" % op for op in re.findall(r"CREATE OPERATOR (\S+) \(", script)}
    missing = sorted(n for n in names if n not in text)
    casts = re.findall(r"CREATE CAST \((?:pg_catalog\.)?(\w+) AS (?:pg_catalog\.)?(\w+)\)", script)
    table = "\n".join(l for l in text.splitlines() if l.startswith("|"))
    for a, b in casts:
        if not re.search(r"\|\s*`%s`\s*\|\s*`%s`" % (a, b), table):
            missing.append("cast %s -> %s" % (a, b))
    report(not missing and len(names) > 10 and len(support) > 10,
           "README.md: the reference names all %d user-facing functions, aggregates, operators, "
           "operator classes, range types and event triggers and %d casts of %s (%d support functions left to their COMMENT)"
           % (len(names), len(casts), script_name, len(support)), "not named: " + ", ".join(missing))


def check_comments():
    """Every object of the installed extension has a COMMENT (array types,
    which core leaves without one too, aside): what \\df+ and \\dT+ show
    of the support functions the README leaves out."""
    err = fresh_database("docs_catalog")
    if err:
        report(False, "every object of the extension has a COMMENT", err)
        return
    out = psql(["-At", "-v", "ON_ERROR_STOP=1", "-c", """
        SELECT pg_describe_object(d.classid, d.objid, d.objsubid)
        FROM pg_depend d JOIN pg_class c ON c.oid = d.classid
        WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
          AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
          AND obj_description(d.objid, c.relname) IS NULL
          AND pg_describe_object(d.classid, d.objid, d.objsubid) NOT LIKE '%[]'
        ORDER BY 1"""], db="docs_catalog")
    members = psql(["-At", "-c", "SELECT count(*) FROM pg_depend WHERE deptype = 'e' AND refobjid = "
                    "(SELECT oid FROM pg_extension WHERE extname = 'ulid')"], db="docs_catalog")
    psql(["-c", "DROP DATABASE docs_catalog"])
    ok = out.returncode == 0 and not out.stdout.strip() and int(members.stdout.strip() or 0) > 100
    report(ok, "every object of the extension (%s) has a COMMENT" % members.stdout.strip(),
           "without one:\n" + out.stdout)


def check_links(doc):
    text = open(doc, encoding="utf-8").read()
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    bad = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"\w+:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(doc), path))):
            bad.append(target)
    report(not bad, "%s: every relative link resolves" % os.path.relpath(doc, ROOT),
           "broken: " + ", ".join(bad))


def check_no_repeated_prose(doc):
    """No sentence of twelve words or more twice in one document: the trace
    of an edit that pasted a paragraph beside its old version."""
    text = open(doc, encoding="utf-8").read()
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    prose = " ".join(l for l in text.splitlines() if not l.lstrip().startswith(("|", "#")))
    seen, repeated = set(), []
    for sentence in re.split(r"(?<=[.:;!?])\s+", re.sub(r"\s+", " ", prose)):
        words = sentence.split()
        if len(words) < 12:
            continue
        key = " ".join(words)
        if key in seen and key not in repeated:
            repeated.append(key)
        seen.add(key)
    report(not repeated, "%s: no sentence repeated" % os.path.relpath(doc, ROOT),
           "\n".join(repeated))


def check_no_issue_numbers(docs):
    found = []
    for doc in docs:
        for n, line in enumerate(open(doc, encoding="utf-8"), 1):
            if re.search(r"\b[Ii]ssues? #?\d+|(?<![\w&])#\d+\b", line):
                found.append("%s:%d: %s" % (os.path.relpath(doc, ROOT), n, line.strip()))
    report(not found, "no document cites an issue number", "\n".join(found))


def main():
    global ROOT, DATABASE
    args = sys.argv[1:]
    engine = None
    while args and args[0] in ("--engine", "--database") and len(args) > 1:
        if args[0] == "--engine":
            engine = args[1]
        else:
            DATABASE = args[1]
        args = args[2:]
    if args and os.path.isdir(args[0]):
        ROOT = os.path.abspath(args.pop(0))
    os.chdir(ROOT)
    if engine:
        # Only the blocks of one engine, run by that engine's TAP test.
        if not DATABASE or not args:
            sys.exit("usage: check_docs.py --engine NAME --database DB [ROOT] DOC.md ...")
        for doc in args:
            sql = [s for s in parse(doc) if s.lang == "sql" and s.engine == engine]
            if sql:
                check_sql(doc, sql)
        failed = results.count(False)
        print("1..%d" % len(results))
        print("# docs (%s): %d passed, %d failed" % (engine, len(results) - failed, failed))
        sys.exit(1 if failed or not results else 0)
    whole = not args
    docs = args or ["README.md"] + sorted(glob.glob("docs/*.md") + glob.glob("docs/*/*.md"))
    for doc in docs:
        snippets = parse(doc)
        # The blocks of an engine run in that engine's TAP test, not here.
        sql = [s for s in snippets if s.lang == "sql" and not s.engine]
        if sql:
            check_sql(doc, sql)
        for s in snippets:
            if s.lang in CLIENT_TESTS:
                check_client(doc, s)
            elif s.lang != "sql":
                report(False, "%s:%d: a ```%s block, which nothing runs" % (doc, s.line, s.lang),
                       "fence client code as one of %s, or shown-only text as one of %s"
                       % (", ".join(sorted(CLIENT_TESTS)), ", ".join(l for l in UNRUN if l)))
        check_links(os.path.join(ROOT, doc))
        check_no_repeated_prose(os.path.join(ROOT, doc))
    if whole:
        check_reference("README.md")
        check_comments()
        others = ["CONTRIBUTING.md", "CHANGELOG.md", "BENCHMARKS.md", "bench/README.md"]
        check_no_issue_numbers([d for d in docs + others if os.path.exists(d)])
    failed = results.count(False)
    print("1..%d" % len(results))
    print("# docs: %d passed, %d failed" % (len(results) - failed, failed))
    sys.exit(1 if failed or not results else 0)


if __name__ == "__main__":
    main()
