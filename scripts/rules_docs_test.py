#!/usr/bin/env python3
"""The man page's RULES section and the README's Rules table list every rule
of `nccl-doctor rules`, in ID order, under the family names it gives.

  rules_docs_test.py NCCL_DOCTOR SOURCE_ROOT
"""
import json
import re
import subprocess
import sys


def main(tool, root):
    rules = json.loads(subprocess.run([tool, "rules", "--format", "json"], capture_output=True, text=True,
                                      check=True).stdout)["rules"]
    want = [(r["id"], r["family"]) for r in rules]
    failures = []
    if [r for r, _ in want] != sorted(r for r, _ in want):
        failures.append("`rules` is not in ID order")

    man = open(f"{root}/man/nccl-doctor.1").read()
    section = man[man.index(".SH RULES\n"):]
    section = section[:section.index("\n.SH ", 1)]
    got, family = [], None
    for line in section.splitlines():
        if line.startswith(".SS "):
            family = line[4:].split()[0]
        m = re.match(r'\.BR (ND\d{4}) ', line)
        if m:
            got.append((m.group(1), family))
    if got != want:
        failures.append(f"man RULES: {got} != {want}")

    readme = open(f"{root}/README.md").read()
    rows = re.findall(r"^\| (ND\d{4}) \| [a-z0-9-]+ \| (\w+) \| \w+ \|$", readme, re.M)
    got_readme = [(rid, fam) for rid, fam in rows]
    if got_readme != want:
        failures.append(f"README Rules table: {got_readme} != {want}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
