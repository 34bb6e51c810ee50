#!/usr/bin/env python3
"""Every rule is laid out the way scripts/new_rule.py lays out a new one, and
what new_rule.py writes is laid out so and compiles.

  new_rule_test.py SOURCE_ROOT [CXX...]

Layout: the class is the PascalCase of the slug, the file checks/<family>/
<snake_slug>.cpp with its _test.cpp beside it, the family the one of the ID
(new_rule.FAMILIES), and the factory in <family>_rules.h, register.cpp and
checks/meson.build, each in ID order. With a compiler command, the files
new_rule.py writes for a log, a node and a cluster rule must compile with the
project's warnings.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

# No __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import new_rule  # noqa: E402

# The project's warnings (meson.build: warning_level=2, werror and the extras).
CXX_FLAGS = ["-std=c++20", "-Wall", "-Wextra", "-Werror", "-Wshadow", "-Wnon-virtual-dtor",
             "-Wmissing-declarations", "-fsyntax-only"]

failures = []


def fail(message):
    failures.append(message)
    print(f"FAIL: {message}")


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def rules_in(root):
    """(id, slug, class, path) of every rule defined under checks/."""
    found = []
    for dirpath, _, names in os.walk(os.path.join(root, "checks")):
        for name in sorted(names):
            if not name.endswith(".cpp") or name.endswith("_test.cpp"):
                continue
            path = os.path.relpath(os.path.join(dirpath, name), root)
            text = read(root, path)
            for m in re.finditer(r'class (\w+) final : public (?:Node)?Rule \{\n public:\n'
                                 r'  static constexpr RuleInfo kInfo\{"(ND\d{4})", "([a-z0-9-]+)", '
                                 r'Severity::\w+, Needs::(\w+),', text):
                found.append((m.group(2), m.group(3), m.group(1), path, m.group(4).lower()))
            if text.count("RuleInfo kInfo{") != len([f for f in found if f[3] == path]):
                fail(f"{path}: a rule declared unlike `class X final : public Rule {{ public: static constexpr "
                     f"RuleInfo kInfo{{...}}`")
    return sorted(found)


def ordered_ids(text, pattern):
    return [m.group(1) for m in re.finditer(pattern, text, re.M)]


def check_layout(root):
    """Returns the number of rules checked; reports every deviation."""
    rules = rules_in(root)
    if len({r[0] for r in rules}) != len(rules) or len({r[1] for r in rules}) != len(rules):
        fail("an ID or a slug is declared twice")
    meson = read(root, "checks/meson.build")
    per_family = {}
    for rule_id, slug, cls, path, needs in rules:
        family, family_needs = new_rule.family_of(rule_id)
        name = new_rule.snake(slug)
        per_family.setdefault(family, []).append((rule_id, name))
        where = f"{rule_id} {slug}"
        if cls != new_rule.class_name(slug):
            fail(f"{where}: class {cls}, expected {new_rule.class_name(slug)}")
        if path != f"checks/{family}/{name}.cpp":
            fail(f"{where}: in {path}, expected checks/{family}/{name}.cpp")
        if needs != family_needs:
            fail(f"{where}: Needs::{needs.capitalize()}, but {family}/ holds {family_needs} rules")
        if not os.path.exists(os.path.join(root, f"checks/{family}/{name}_test.cpp")):
            fail(f"{where}: no checks/{family}/{name}_test.cpp")
    for family, entries in per_family.items():
        ids = sorted(rule_id for rule_id, _ in entries)
        header = read(root, f"checks/{family}/{family}_rules.h")
        register = read(root, f"checks/{family}/register.cpp")
        for rule_id, name in entries:
            if f"std::unique_ptr<Rule> make_{name}();  // {rule_id}\n" not in header:
                fail(f"{rule_id}: checks/{family}/{family}_rules.h lacks make_{name}()")
            if f"  r.add(make_{name}());  // {rule_id}\n" not in register:
                fail(f"{rule_id}: checks/{family}/register.cpp does not add make_{name}()")
        if ordered_ids(header, r"^std::unique_ptr<Rule> make_\w+\(\);  // (ND\d{4})$") != ids:
            fail(f"checks/{family}/{family}_rules.h: factories not exactly the family's rules in ID order")
        if ordered_ids(register, r"^  r\.add\(make_\w+\(\)\);  // (ND\d{4})$") != ids:
            fail(f"checks/{family}/register.cpp: not exactly the family's rules in ID order")
        m = re.search(r"^  '" + family + r"' : \[([^\]]*)\]", meson, re.M)
        listed = re.findall(r"'(\w+)'", m.group(1)) if m else []
        if listed != [name for _, name in sorted(entries)]:
            fail(f"checks/meson.build: '{family}' lists {listed}, expected the family's rules in ID order")
    return len(rules)


def run_new_rule(root, *args):
    script = os.path.join(root, "scripts", "new_rule.py")
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


def check_scaffold(source_root, cxx):
    with tempfile.TemporaryDirectory() as tmp:
        for part in ["checks", "src", "parsers", "man", "scripts", os.path.join("testdata", "rules")]:
            shutil.copytree(os.path.join(source_root, part), os.path.join(tmp, part),
                            ignore=shutil.ignore_patterns("__pycache__"))
        before = check_layout(tmp)

        dry = run_new_rule(tmp, "--dry-run", "ND2099", "rank-gap", "warning", "log", "ranks are missing")
        want = ["create checks/topology/rank_gap.cpp", "create checks/topology/rank_gap_test.cpp",
                "create man/rules/ND2099.md", "create testdata/rules/ND2099/bad-FILL-IN.log",
                "create testdata/rules/ND2099/good-FILL-IN.log", "change checks/topology/topology_rules.h",
                "change checks/topology/register.cpp", "change checks/meson.build"]
        if dry.returncode != 0 or dry.stdout.splitlines() != want:
            fail(f"--dry-run printed {dry.stdout!r} {dry.stderr!r}")
        if os.path.exists(os.path.join(tmp, "checks/topology/rank_gap.cpp")):
            fail("--dry-run wrote a file")

        made = []
        for args in [("ND2099", "rank-gap", "warning", "log", "ranks of a communicator are missing"),
                     ("ND4099", "nic-too-hot", "error", "node", "a NIC runs above its thermal limit"),
                     ("ND5099", "clock-skew", "info", "cluster", "node clocks disagree")]:
            result = run_new_rule(tmp, *args)
            if result.returncode != 0:
                fail(f"new_rule.py {' '.join(args)}: {result.stderr}")
                continue
            family = new_rule.family_of(args[0])[0]
            name = new_rule.snake(args[1])
            made += [f"checks/{family}/{name}.cpp", f"checks/{family}/{name}_test.cpp"]
            page = read(tmp, f"man/rules/{args[0]}.md")
            if not page.startswith(f"# {args[0]} {args[1]}\n"):
                fail(f"man/rules/{args[0]}.md: title")
            for section in new_rule.SECTIONS:
                if f"\n## {section}\n" not in page:
                    fail(f"man/rules/{args[0]}.md lacks ## {section}")
            fixtures = sorted(os.listdir(os.path.join(tmp, "testdata", "rules", args[0])))
            if [f[:5] for f in fixtures] != ["bad-F", "good-"]:
                fail(f"testdata/rules/{args[0]}: {fixtures}")
        after = check_layout(tmp)
        if after != before + 3:
            fail(f"{after} rules after adding three to {before}")

        for args, why in [(("ND3001", "brand-new", "error", "log", "s"), "a taken ID"),
                          (("ND3099", "inter-node-socket", "error", "log", "s"), "a taken slug"),
                          (("ND4098", "not-a-log-rule", "error", "log", "s"), "a family that reads nodes"),
                          (("ND9001", "no-family", "error", "log", "s"), "an ID of no family"),
                          (("ND301", "short-id", "error", "log", "s"), "a short ID"),
                          (("ND3097", "Bad_Slug", "error", "log", "s"), "a slug that is not lower-case words")]:
            result = run_new_rule(tmp, *args)
            if result.returncode != 2 or not result.stderr.startswith("new_rule.py: "):
                fail(f"{why} was not refused: {result.returncode} {result.stderr!r}")

        if cxx:
            for path in made:
                result = subprocess.run(cxx + CXX_FLAGS + ["-I", tmp, f'-DND_SOURCE_ROOT="{tmp}"', path],
                                        cwd=tmp, capture_output=True, text=True)
                if result.returncode != 0:
                    fail(f"{path} does not compile:\n{result.stderr}")


def main(argv):
    if len(argv) < 1:
        print(__doc__, file=sys.stderr)
        return 2
    source_root, cxx = argv[0], argv[1:]
    n = check_layout(source_root)
    if n == 0:
        fail("no rules found")
    check_scaffold(source_root, cxx)
    if failures:
        return 1
    print(f"ok: {n} rules laid out as new_rule.py lays them out; its output is too"
          + (" and compiles" if cxx else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
