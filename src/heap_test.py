#!/usr/bin/env python3
"""The heap nccl-doctor sets up before anything allocates (src/main.cpp).

  heap_test.py NCCL_DOCTOR tuned|untuned

A running `check -` (its input held open) is read from /proc/PID/smaps:
the heap's huge page advice starts at a huge page boundary; malloc wrote one
page below it, no more; and where the kernel gives transparent huge pages to
advised memory, everything allocated since lies in huge pages: a range first
written before the advice would stay in small pages, one fault per 4 KB.
"""

import os
import re
import subprocess
import sys
import time

LINE = (b"gpu009:3030:3030 [0] NCCL INFO ncclCommInitRank comm 0x55d0 rank 0 nranks 2 cudaDev 0 "
        b"nvmlDev 0 busId 18000 commId 0x52e965372ad155ed - Init START\n")


def read(path, default=""):
    try:
        with open(path, encoding="ascii") as f:
            return f.read()
    except OSError:
        return default


def thp_fallbacks():
    match = re.search(r"^thp_fault_fallback (\d+)$", read("/proc/vmstat"), re.M)
    return int(match.group(1)) if match else 0


def heap_areas(pid):
    """The [heap] areas as (start, end, fields, flags), fields in kB."""
    areas = []
    for block in re.split(r"\n(?=[0-9a-f]+-[0-9a-f]+ )", read(f"/proc/{pid}/smaps")):
        header = block.split("\n", 1)[0]
        if not header.endswith("[heap]"):
            continue
        start, end = (int(x, 16) for x in header.split()[0].split("-"))
        fields = {k: int(v) for k, v in re.findall(r"^(\w+):\s+(\d+) kB", block, re.M)}
        flags = re.search(r"^VmFlags:(.*)$", block, re.M).group(1).split()
        areas.append((start, end, fields, flags))
    return areas


def all_sleeping(pid):
    """True once every thread waits (for more input)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    states = [read(f"/proc/{pid}/task/{t}/stat").rsplit(")", 1)[-1].split()[:1] for t in tasks]
    return bool(states) and all(s == ["S"] for s in states)


def main():
    binary, mode = sys.argv[1:3]
    if mode != "tuned":
        print("skip: this build leaves malloc as it is (sanitizer builds, C libraries other than glibc)")
        return 77
    if os.environ.get("MESON_EXE_WRAPPER"):
        # qemu-user keeps the program's heap itself, and the memory in
        # /proc/PID/smaps is the emulator's.
        print("skip: a cross build's binary runs under an emulator (MESON_EXE_WRAPPER)")
        return 77
    if not os.path.exists("/proc/self/smaps"):
        print("skip: no /proc/PID/smaps to read a process's memory from")
        return 77
    page = os.sysconf("SC_PAGE_SIZE")
    huge_page = int(read("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "0") or 0) or page // 8 * page
    thp_mode = re.search(r"\[(\w+)\]", read("/sys/kernel/mm/transparent_hugepage/enabled", "[never]")).group(1)

    fallbacks_before = thp_fallbacks()
    proc = subprocess.Popen([binary, "check", "--color", "never", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        proc.stdin.write(LINE * 200)
        proc.stdin.flush()
        deadline = time.monotonic() + 20
        settled = 0
        while settled < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
            settled = settled + 1 if all_sleeping(proc.pid) else 0
        areas = heap_areas(proc.pid)
        # PR_SET_THP_DISABLE, which some launchers and containers set, is inherited.
        thp_for_process = "THP_enabled:\t0" not in read(f"/proc/{proc.pid}/status")
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    if settled < 3:
        print("FAIL: check - never settled to wait for input")
        return 1

    failures = []
    advised = [a for a in areas if "hg" in a[3]]
    if not advised and not os.path.isdir("/sys/kernel/mm/transparent_hugepage"):
        print("skip: this kernel has no transparent huge pages (the advice fails, the heap is left as it is)")
        return 77
    if not advised:
        failures.append("no heap area carries the huge page advice (VmFlags hg)")
    else:
        start, end, fields, _ = advised[0]
        print(f"advised heap {end - start >> 20} MB at {start:#x}: Rss {fields.get('Rss')} kB, "
              f"AnonHugePages {fields.get('AnonHugePages')} kB (THP {thp_mode}, huge page {huge_page >> 10} kB)")
        below = [a for a in areas if a[1] == start]
        if huge_page <= 64 << 20 and start % huge_page:
            failures.append(f"the advice starts at {start:#x}, not at a {huge_page >> 10} kB boundary")
        # khugepaged may since have merged that page into a huge one (THP always).
        small_below = below[0][2].get("Rss", 0) - below[0][2].get("AnonHugePages", 0) if below else 0
        if small_below * 1024 > page:
            failures.append(f"malloc wrote {small_below} kB below the advised heap, one page expected")
        if thp_mode in ("always", "madvise") and huge_page <= 64 << 20:
            if not thp_for_process:
                print("note: huge pages are off for this process (PR_SET_THP_DISABLE): small pages not checked")
            elif thp_fallbacks() != fallbacks_before:
                print("note: the kernel had no free huge page at some point (thp_fault_fallback grew): "
                      "small pages in the heap not checked")
            elif fields.get("Rss", 0) != fields.get("AnonHugePages", 0) or not fields.get("Rss"):
                failures.append("the advised heap holds small pages: a range was written before the advice")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
