"""Check that the README's client snippets are code the client tests run.

Usage: check_snippets.py REPO_ROOT.  Reads the "From Python and Node" section
of README.md; every ```python block must occur in test/clients/psycopg_test.py and
every ```js block in test/clients/node/test.js, line for line, ignoring
indentation and blank lines.  Prints "ok - NAME" or "FAILED - NAME: WHY".
"""

import os
import re
import sys

HEADING = "From Python and Node"


def section(text):
    """The lines of the HEADING section, down to the next heading of its level or above."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"(#+) (.*)", line)
        if m and m.group(2).strip() == HEADING:
            level = len(m.group(1))
            for j in range(i + 1, len(lines)):
                n = re.match(r"(#+) ", lines[j])
                if n and len(n.group(1)) <= level and not in_fence(lines[i:j]):
                    return lines[i:j]
            return lines[i:]
    return None


def in_fence(lines):
    return sum(1 for line in lines if line.startswith("```")) % 2 == 1


def blocks(lines):
    """(language, [lines]) for each fenced block."""
    out, lang, body = [], None, []
    for line in lines:
        if lang is None:
            m = re.match(r"```(\w+)", line)
            if m:
                lang, body = m.group(1), []
        elif line.startswith("```"):
            out.append((lang, body))
            lang = None
        else:
            body.append(line)
    return out


def normalized(lines):
    return [line.strip() for line in lines if line.strip()]


def contains(haystack, needle):
    return any(haystack[i:i + len(needle)] == needle for i in range(len(haystack) - len(needle) + 1))


def main():
    root = sys.argv[1]
    tests = {
        "python": os.path.join(root, "test/clients/psycopg_test.py"),
        "js": os.path.join(root, "test/clients/node/test.js"),
    }
    code = {lang: normalized(open(path).read().splitlines()) for lang, path in tests.items()}
    docs = {}
    readme = os.path.join(root, "README.md")
    if os.path.exists(readme):
        lines = section(open(readme).read())
        if lines is not None:
            docs["README.md"] = lines
    if not docs:
        print(f"FAILED - client snippets: no '{HEADING}' section in README.md")
        return
    for name, lines in docs.items():
        found = blocks(lines)
        counts = {lang: sum(1 for l, _ in found if l == lang) for lang in tests}
        if not all(counts.values()):
            print(f"FAILED - {name}: snippets: expected python and js blocks, found {counts}")
            continue
        for k, (lang, body) in enumerate(found, 1):
            label = f"{name}: {lang} block {k} ({normalized(body)[0][:40]}...) is run by {os.path.basename(tests.get(lang, '?'))}"
            if lang not in tests:
                print(f"FAILED - {label}: no test runs {lang} blocks")
            elif contains(code[lang], normalized(body)):
                print(f"ok - {label}")
            else:
                missing = next((line for line in normalized(body) if line not in code[lang]), "lines out of order")
                print(f"FAILED - {label}: not found; first missing line: {missing}")


if __name__ == "__main__":
    main()
