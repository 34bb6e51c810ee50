#!/usr/bin/env python3
"""gen_rules.py on a page with every construct it knows and some it does not:
the man page must lint clean and the C++ literal must round-trip the bytes."""

import os
import re
import subprocess
import sys
import tempfile

PAGE = """# ND9999 test-page

Severity: error

## Summary
A `--flag`, **bold**, a backslash \\ and "quotes",
.a line starting with a dot, 'and a quote, unicode \u00fc \u2014 and a tab\there.

## Triggers
- item one with `NCCL_IB_HCA=mlx5_0`
- item two

```
code line
.dotted code

  indented after a blank line
```

| var | meaning |
|---|---|
| NCCL_NET | network |

## See also
ND3001
"""


def main():
    gen, mandoc = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "ND9999.md")
        with open(page, "w", encoding="utf-8") as f:
            f.write(PAGE)
        man = os.path.join(tmp, "out.7")
        subprocess.run([sys.executable, gen, "man", man, "0.0.0", page], check=True)
        lint = subprocess.run([mandoc, "-Tlint", "-Wwarning", man], capture_output=True, text=True)
        if lint.returncode != 0:
            print(lint.stdout + lint.stderr)
            print(open(man, encoding="utf-8").read())
            return 1
        rendered = subprocess.run([mandoc, "-Tascii", man], capture_output=True, text=True, check=True).stdout
        for expected in ["ND9999 test-page", "item one with NCCL_IB_HCA=mlx5_0", ".dotted code",
                         ".a line starting with", "NCCL_NET; network"]:
            if expected not in re.sub(".\b", "", rendered):
                print(f"rendered page lacks {expected!r}:\n{rendered}")
                return 1
        cpp = os.path.join(tmp, "pages.cpp")
        subprocess.run([sys.executable, gen, "cpp", cpp, page], check=True)
        text = open(cpp, encoding="utf-8").read()
        # Undo the C escapes the generator uses and compare with the page.
        body = text[text.index('{"ND9999",') + len('{"ND9999",'):text.rindex("},")]
        literal = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', body))
        decoded = bytes(literal, "ascii").decode("unicode_escape").encode("latin-1").decode("utf-8")
        if decoded != PAGE:
            print("C++ literal does not round-trip the page")
            return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
