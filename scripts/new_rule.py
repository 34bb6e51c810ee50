#!/usr/bin/env python3
"""Creates every file a new rule needs and registers it.

  new_rule.py [--root DIR] [--dry-run] ID SLUG SEVERITY NEEDS "summary"

  ID        ND + 4 digits, unused; its prefix picks the family folder (FAMILIES)
  SLUG      lower-case words joined by '-', unused (the class and file names follow it)
  SEVERITY  info, warning or error (the rule's default)
  NEEDS     log, node or cluster: what the rule reads; must match the family

Writes checks/<family>/<snake_slug>.cpp and _test.cpp, man/rules/ID.md and
one bad-* and one good-* fixture in testdata/rules/ID/, and adds the rule to
its family's <family>_rules.h, register.cpp and to checks/meson.build, each
in ID order. What it writes fails the tests until the FILL IN parts are done.
--dry-run lists the files it would write and change, and writes nothing.
"""

import argparse
import os
import re
import sys

# ID prefix -> (folder under checks/, what its rules read). The longest
# matching prefix wins: ND3120 is health's, though ND31xx is config's.
FAMILIES = {
    "ND10": ("input", "log"),
    "ND11": ("health", "log"),
    "ND20": ("topology", "log"),
    "ND21": ("rail", "log"),
    "ND30": ("transport", "log"),
    "ND31": ("config", "log"),
    "ND312": ("health", "log"),
    "ND40": ("hardware", "node"),
    "ND50": ("cross", "cluster"),
    "ND60": ("gpu", "log"),
}

SECTIONS = ["Summary", "Why it matters", "Triggers", "Does not trigger", "How to fix", "Options", "Limitations",
            "See also"]


class UsageError(Exception):
    pass


def family_of(rule_id):
    best = max((p for p in FAMILIES if rule_id.startswith(p)), key=len, default=None)
    if best is None:
        raise UsageError(f"{rule_id}: no family has this ID prefix; add one to FAMILIES in {sys.argv[0]}")
    return FAMILIES[best]


def class_name(slug):
    return "".join(word.capitalize() for word in slug.split("-"))


def snake(slug):
    return slug.replace("-", "_")


def cpp_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# --- What gets written ---------------------------------------------------------

def rule_source(a, family):
    cls = class_name(a.slug)
    info = (f'  static constexpr RuleInfo kInfo{{"{a.id}", "{a.slug}", Severity::{a.severity.capitalize()}, '
            f'Needs::{a.needs.capitalize()},\n                                  {cpp_string(a.summary)}}};')
    if a.needs == "node":
        base, method = "NodeRule", "check_node"
        params = "const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out"
        todo = ("  // FILL IN: judge `node` (and ctx.options.expect); one make_finding(kInfo, message) per\n"
                "  // problem, with add_evidence(f, sysfs_path, value). NodeRule names the node in each finding.\n"
                "  (void)ctx;\n  (void)node;\n  (void)out;\n")
        access = "\n protected:\n"
    else:
        base, method = "Rule", "check"
        params = "const CheckContext& ctx, FindingSink& out"
        reads = "ctx.model" if a.needs == "log" else "ctx.nodes (and ctx.problems, ctx.options.expect)"
        todo = (f"  // FILL IN: judge {reads};\n"
                "  // one make_finding(kInfo, message) per problem, with its evidence.\n"
                "  (void)ctx;\n  (void)out;\n")
        access = ""
    return f"""// {a.id} {a.slug}: {a.summary}.
#include "checks/{family}/{family}_rules.h"

namespace nd {{
namespace {{

class {cls} final : public {base} {{
 public:
{info}
  const RuleInfo& info() const override {{ return kInfo; }}
{access}  void {method}({params}) const override;
}};

}}  // namespace

void {cls}::{method}({params}) const {{
{todo}}}

std::unique_ptr<Rule> make_{snake(a.slug)}() {{ return std::make_unique<{cls}>(); }}

}}  // namespace nd
"""


def rule_test(a):
    if a.needs == "log":
        setup = ('  auto m = model_from({\n'
                 '      "FILL IN: one NCCL log line per literal, e.g. gpuA:100:100 [0] NCCL INFO ...",\n'
                 '  });\n'
                 f'  auto found = run_rule("{a.slug}", m);\n')
        include = '#include "checks/check_fixture.h"\n#include "src/model/model_fixture.h"\n'
    elif a.needs == "node":
        setup = ('  // FILL IN: a sysfs scenario of testdata/sysfs/ that shows the problem.\n'
                 '  NodeSnapshot n = node_fixture("broken", "ok");\n'
                 f'  auto found = run_node_rule("{a.slug}", n);\n')
        include = '#include "checks/node_fixture.h"\n'
    else:
        setup = ('  // FILL IN: nodes that show the problem.\n'
                 '  std::vector<NodeSnapshot> nodes = {healthy_node("n1"), healthy_node("n2")};\n'
                 f'  auto found = run_cluster_rule("{a.slug}", nodes);\n')
        include = '#include "checks/node_fixture.h"\n'
    return f"""#include <doctest/doctest.h>

{include}
using namespace nd;

TEST_CASE("{a.slug}: FILL IN what the rule sees and what it says") {{
{setup}  CHECK(messages(found) == std::vector<std::string>{{"FILL IN: severity: the exact message"}});
}}
"""


def doc_page(a):
    severity = {"log": f"Severity: {a.severity}",
                "node": f"Severity: {a.severity}. Family: hardware (ND4xxx), from `nccl-doctor preflight`.",
                "cluster": f"Severity: {a.severity}. Family: cluster (ND5xxx), from "
                           "`nccl-doctor preflight --aggregate`."}[a.needs]
    body = "\n".join(f"## {s}\n{a.summary[0].upper() + a.summary[1:]}.\n" if s == "Summary" else f"## {s}\nFILL IN\n"
                     for s in SECTIONS)
    return f"# {a.id} {a.slug}\n\n{severity}\n\nFix: FILL IN (one line, shown under each finding)\n\n{body}"


def fixtures(a):
    if a.needs == "log":
        line = "gpuA:100:100 [0] NCCL INFO FILL IN: the lines of a job that {} this rule\n"
        return {"bad-FILL-IN.log": line.format("fires"), "good-FILL-IN.log": line.format("does not fire")}
    if a.needs == "node":
        # A sysfs scenario of testdata/sysfs/, how verbs behaves (ok, none, not-installed), --expect.
        return {"bad-FILL-IN.json": '{"sysfs": "FILL IN", "verbs": "ok", "expect": ""}\n',
                "good-FILL-IN.json": '{"sysfs": "dgx-h100-ib", "verbs": "ok", "expect": ""}\n'}
    # Probe records as `nccl-doctor probe --format json` prints them, one a line;
    # --expect for them in NAME.jsonl.expect.
    return {"bad-FILL-IN.jsonl": "FILL IN: records that fire this rule\n",
            "good-FILL-IN.jsonl": "FILL IN: records that do not\n"}


# --- Edits of the lists ----------------------------------------------------------

def insert_sorted(text, pattern, new_line, rule_id, path):
    """Inserts new_line among the lines matching pattern (group 1: an ID), in ID order."""
    lines = text.split("\n")
    hits = [(i, m.group(1)) for i, line in enumerate(lines) if (m := re.search(pattern, line))]
    if not hits:
        # A family's first rule: the header lists factories just before its
        # namespace ends, register.cpp calls them just before its body does.
        end = next((i for i, line in enumerate(lines) if line in ("}  // namespace nd", "}")), None)
        if end is None:
            raise UsageError(f"{path}: found no line like '{pattern}' to add the rule to")
        if path.endswith(".h") and lines[end - 1] == "":
            lines.insert(end, new_line)
            lines.insert(end + 1, "")
        else:
            lines.insert(end, new_line)
        return "\n".join(lines)
    at = next((i for i, other in hits if other > rule_id), hits[-1][0] + 1)
    lines.insert(at, new_line)
    return "\n".join(lines)


def plan(a, root):
    family, needs = family_of(a.id)
    if needs != a.needs:
        raise UsageError(f"{a.id} belongs to {family}/, whose rules read {needs}, not {a.needs}")
    checks = os.path.join(root, "checks")
    used = {}
    for dirpath, _, names in os.walk(checks):
        for name in names:
            if name.endswith(".cpp") and not name.endswith("_test.cpp"):
                with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                    for rid, slug in re.findall(r'RuleInfo kInfo\{"(ND\d{4})", "([a-z0-9-]+)"', f.read()):
                        used[rid] = used[slug] = os.path.relpath(os.path.join(dirpath, name), root)
    for key in (a.id, a.slug):
        if key in used:
            raise UsageError(f"{key} is taken by {used[key]} (IDs and slugs are never reused)")
    if os.path.exists(os.path.join(root, "man", "rules", a.id + ".md")):
        raise UsageError(f"man/rules/{a.id}.md exists: {a.id} was used before (IDs are never reused)")

    name = snake(a.slug)
    creates = {
        f"checks/{family}/{name}.cpp": rule_source(a, family),
        f"checks/{family}/{name}_test.cpp": rule_test(a),
        f"man/rules/{a.id}.md": doc_page(a),
    }
    for fixture, text in fixtures(a).items():
        creates[f"testdata/rules/{a.id}/{fixture}"] = text
    for path in creates:
        if os.path.exists(os.path.join(root, path)):
            raise UsageError(f"{path} exists")

    edits = {}
    header = f"checks/{family}/{family}_rules.h"
    edits[header] = lambda t: insert_sorted(t, r"^std::unique_ptr<Rule> make_\w+\(\);  // (ND\d{4})$",
                                            f"std::unique_ptr<Rule> make_{name}();  // {a.id}", a.id, header)
    register = f"checks/{family}/register.cpp"
    edits[register] = lambda t: insert_sorted(t, r"^  r\.add\(make_\w+\(\)\);  // (ND\d{4})$",
                                              f"  r.add(make_{name}());  // {a.id}", a.id, register)
    meson = "checks/meson.build"
    edits[meson] = lambda t: add_to_meson(t, family, name, a.id, root)
    return creates, edits


def add_to_meson(text, family, name, rule_id, root):
    """Adds `name` to the family's list in checks/meson.build, in ID order."""
    m = re.search(r"^  '" + family + r"' : \[([^\]]*)\],?$", text, re.M)
    if not m:
        raise UsageError(f"checks/meson.build: no '{family}' list in the rules dictionary")
    names = re.findall(r"'(\w+)'", m.group(1))
    ids = {n: rule_id_of(root, family, n) for n in names}
    ids[name] = rule_id
    ordered = [f"'{n}'" for n in sorted(names + [name], key=lambda n: ids[n])]
    # One name after another, wrapped under the first as the file has them.
    head = f"  '{family}' : ["
    lines, line = [], head
    for i, n in enumerate(ordered):
        item = n + ("," if i + 1 < len(ordered) else "],")
        if len(line) + len(item) + 1 > 115 and line != head:
            lines.append(line.rstrip())
            line = " " * len(head)
        line += item + " "
    lines.append(line.rstrip())
    return text[:m.start()] + "\n".join(lines) + text[m.end():]


def rule_id_of(root, family, name):
    with open(os.path.join(root, "checks", family, name + ".cpp"), encoding="utf-8") as f:
        m = re.search(r'RuleInfo kInfo\{"(ND\d{4})"', f.read())
    if not m:
        raise UsageError(f"checks/{family}/{name}.cpp declares no rule")
    return m.group(1)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   help="repository root (default: the one holding this script)")
    p.add_argument("--dry-run", action="store_true", help="list what would be written, write nothing")
    p.add_argument("id")
    p.add_argument("slug")
    p.add_argument("severity", choices=["info", "warning", "error"])
    p.add_argument("needs", choices=["log", "node", "cluster"])
    p.add_argument("summary")
    a = p.parse_args(argv)
    try:
        if not re.fullmatch(r"ND\d{4}", a.id):
            raise UsageError(f"{a.id}: an ID is ND and four digits")
        if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", a.slug):
            raise UsageError(f"{a.slug}: a slug is lower-case words joined by '-'")
        if not a.summary or a.summary.endswith("."):
            raise UsageError("the summary is one line without a final period")
        creates, edits = plan(a, a.root)
        new_texts = {}
        for path, edit in edits.items():
            with open(os.path.join(a.root, path), encoding="utf-8") as f:
                new_texts[path] = edit(f.read())
    except UsageError as e:
        print(f"new_rule.py: {e}", file=sys.stderr)
        return 2
    if a.dry_run:
        for path in creates:
            print(f"create {path}")
        for path in edits:
            print(f"change {path}")
        return 0
    for path, text in creates.items():
        full = os.path.join(a.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
    for path, text in new_texts.items():
        with open(os.path.join(a.root, path), "w", encoding="utf-8") as f:
            f.write(text)
    family = family_of(a.id)[0]
    source = f"checks/{family}/{snake(a.slug)}"
    print(f"""Created {a.id} {a.slug} ({class_name(a.slug)}) and registered it. Now fill in every FILL IN:
  {source}.cpp: the check
  {source}_test.cpp: exact messages for real input
  man/rules/{a.id}.md: every section
  testdata/rules/{a.id}/: the fixtures, renamed after what they show (bad-*, good-*)
Then: meson setup --reconfigure build-plain (the doc page is new) and meson test -C build-plain.
The catalogue test fails until the bad fixture fires the rule and the good one does not.""")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
