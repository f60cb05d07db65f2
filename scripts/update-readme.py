#!/usr/bin/env python3
"""Refreshes the examples of README.md from the built program.

In each ```console block, every line "$ bouton ARGS" is run (with
build/bouton standing for bouton) and the lines after it, up to the next
"$ " line or the end of the block, are replaced by what it prints.
tests/cli/readme.sh checks that they stay true.  A maintainer's tool: run
it after changing an output, then review the diff.
"""
import os
import re
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.join(root, sys.argv[1] if len(sys.argv) > 1 else "build/bouton")
path = os.path.join(root, "README.md")
lines = open(path, encoding="utf-8").read().split("\n")
work = tempfile.mkdtemp()  # commands run in a scratch folder, as in the test
out, i, inblock = [], 0, False
while i < len(lines):
    line = lines[i]
    if line.startswith("```console"):
        inblock = True
        out.append(line)
        i += 1
        continue
    if inblock and line.startswith("```"):
        inblock = False
        out.append(line)
        i += 1
        continue
    if inblock and line.startswith("$ "):
        cmd = line[2:]
        out.append(line)
        i += 1
        while i < len(lines) and not lines[i].startswith("$ ") and not lines[i].startswith("```"):
            i += 1
        if cmd.startswith("bouton ") or "| bouton " in cmd:
            shcmd = re.sub(r"(^|\| )bouton ", lambda m: m.group(1) + '"$BOUTON" ', cmd)
            res = subprocess.run(["sh", "-c", shcmd], capture_output=True, text=True,
                                 env=dict(os.environ, BOUTON=binary), cwd=work)
            text = res.stdout + res.stderr
            if text.endswith("\n"):
                text = text[:-1]
            if text:
                out.extend(text.split("\n"))
        continue
    out.append(line)
    i += 1
open(path, "w", encoding="utf-8").write("\n".join(out))
