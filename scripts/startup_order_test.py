#!/usr/bin/env python3
"""The code a short run executes sits together at the start of the binary.

  python3 scripts/startup_order_test.py BINARY src/startup-order.ld ordered|unordered

Checks that the linker placed the functions src/startup-order.ld lists in
the binary's .text.nd_startup section, and that the list still names the
binary's functions: renamed or removed ones are silently not placed, and
when too many are gone the list needs regenerating (scripts/startup_order.py).
"""

import re
import shutil
import subprocess
import sys

# Functions come and go with every change; below this share the start-up
# touches noticeably more pages of code than with a fresh list.
MIN_PLACED_SHARE = 0.75


def main():
    binary, script, mode = sys.argv[1:4]
    if mode != "ordered":
        print("skip: this build places code as the linker likes (startup_order is off in debug, sanitizer and fuzz builds)")
        return 77
    for tool in ("nm", "readelf"):
        if not shutil.which(tool):
            print(f"skip: no {tool} to read the binary's symbols")
            return 77
    listed = []
    for line in open(script, encoding="utf-8"):
        match = re.match(r"\s*\*\(\.text\.(\S+)", line)
        if match:
            listed.append(match.group(1))
    if not listed:
        print(f"FAIL: {script} lists no function")
        return 1

    sections = subprocess.run(["readelf", "-S", "-W", binary], capture_output=True, text=True, check=True).stdout
    match = re.search(r"\.text\.nd_startup\s+PROGBITS\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", sections)
    if not match:
        print("FAIL: the binary has no .text.nd_startup section: the linker ignored the order script")
        return 1
    start, size = int(match.group(1), 16), int(match.group(2), 16)

    addresses = {}
    symbols = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in symbols.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTwW":
            addresses[fields[2]] = int(fields[0], 16)
    placed = [name for name in listed if start <= addresses.get(name, -1) < start + size]
    share = len(placed) / len(listed)
    print(f".text.nd_startup: {size // 1024} KB, {len(placed)} of the {len(listed)} listed functions placed there ({share:.0%})")
    if share < MIN_PLACED_SHARE:
        missing = [name for name in listed if name not in placed][:10]
        print(f"FAIL: under {MIN_PLACED_SHARE:.0%}: regenerate the list (scripts/startup_order.py); not placed, e.g.: "
              + " ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
