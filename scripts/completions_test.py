#!/usr/bin/env python3
"""The shell completions offer exactly the commands and options of the tool.

  completions_test.py NCCL_DOCTOR SOURCE_ROOT

Compares each command's long options in `nccl-doctor CMD --help` with the
bash and zsh completion files, checks their syntax, and completes a few
words with bash itself. Exit 1 on a difference.
"""
import re
import shutil
import subprocess
import sys

COMMANDS = ["check", "rules", "explain", "summary", "graph", "diff", "probe", "preflight"]


def help_options(tool, cmd):
    text = subprocess.run([tool, cmd, "--help"], capture_output=True, text=True, check=True).stdout
    return {m.group(2) for m in re.finditer(r"^\s+(-\w,)?(--[a-z][a-z-]*)", text, re.M)}


def bash_options(text, cmd):
    m = re.search(r"^\s+%s\) opts=\"([^\"]*)\"" % cmd, text, re.M)
    return set(m.group(1).split()) if m else set()


def zsh_options(text, cmd):
    m = re.search(r"^    %s\)\n(.*?);;" % cmd, text, re.M | re.S)
    if not m:
        return set()
    return set(re.findall(r"(--[a-z][a-z-]*)(?=[\['}])", m.group(1)))


def complete_with_bash(script, line):
    words = line.split(" ")
    program = f"""
source {script}
COMP_WORDS=({' '.join(repr(w) for w in words)})
COMP_CWORD={len(words) - 1}
_nccl_doctor
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    out = subprocess.run(["bash", "-c", program], capture_output=True, text=True)
    return set(out.stdout.split())


def main(tool, root):
    bash_file = f"{root}/scripts/completions/nccl-doctor.bash"
    zsh_file = f"{root}/scripts/completions/_nccl-doctor"
    bash_text = open(bash_file).read()
    zsh_text = open(zsh_file).read()
    failures = []
    for cmd in COMMANDS:
        want = help_options(tool, cmd)
        for shell, got in (("bash", bash_options(bash_text, cmd)), ("zsh", zsh_options(zsh_text, cmd))):
            if got != want:
                failures.append(f"{shell} {cmd}: missing {sorted(want - got)}, extra {sorted(got - want)}")
    if subprocess.run(["bash", "-n", bash_file]).returncode != 0:
        failures.append("bash: syntax error")
    if not shutil.which("zsh"):
        print("note: no zsh here; the zsh completion's syntax is not checked (its option lists are)")
    elif subprocess.run(["zsh", "-n", zsh_file]).returncode != 0:
        failures.append("zsh: syntax error")
    for line, want in (("nccl-doctor ch", {"check"}), ("nccl-doctor pr", {"probe", "preflight"}),
                       ("nccl-doctor check --fa", {"--fail-on"}),
                       ("nccl-doctor preflight --format p", {"prometheus"})):
        got = complete_with_bash(bash_file, line)
        if got != want:
            failures.append(f"bash completes '{line}' to {sorted(got)}, expected {sorted(want)}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
