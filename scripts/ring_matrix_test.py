#!/usr/bin/env python3
"""Ring listings at every size, end to end: for each NCCL generation the
generator writes and each job size, (a) a healthy job gets a pass with no
ring or tree finding (a cut listing may at most give the info note ND2002),
(b) the same job with one host pair over NET/Socket gets exactly that pair
flagged (ND3001) and nothing else above info, (c) the healthy job with ranks
placed cyclically over the hosts passes like (a), (d) so does the healthy job
without GRAPH lines, where the cut listing is the only ring source, and (e)
the first 60 % of the healthy log, as `head` gives it, gets nothing above a
note (an excerpt is no hang).

Rank 0's ring listing is cut by NCCL itself: at 20 ranks up to 2.22, at 127
bytes from 2.23 (28 ranks at 128 ranks, with `...` that may split a rank
number from 1000 ranks on). Up to 2.22 a rank of four digits loses its last
digit to the next slot, which cyclic placement (rank 0's host holds ranks 0,
H, 2H, ...) shows from 1280 ranks on. The generator writes the listing as
NCCL does, so these jobs are what a real healthy job prints.

    ring_matrix_test.py NCCL_DOCTOR

ND_RING_MATRIX_SIZES (comma-separated rank counts, default 8,128,1024,1280,8192)
narrows the sizes, e.g. for a slow sanitizer build.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nccl_lines as fmt  # noqa: E402  (the reference line formats)

BIN = os.path.realpath(sys.argv[1])
# One release per family of line formats the generator writes, with a CUDA
# of its time.
VERSIONS = [
    ("2.4.8", "10.0"),    # `Ring NN : a -> b` connections, `Channel NN :` listing
    ("2.5.6", "10.1"),    # busId brackets, `Ring` keyword, `Channel NN/MM :` listing
    ("2.6.4", "10.2"),    # + `Using network`
    ("2.7.8", "11.0"),    # `Channel NN :` connections
    ("2.12.12", "11.7"),  # NET `/connIdx`, GRAPH ring lines from 2.10
    ("2.18.3", "12.2"),   # nvmlDev brackets, Init START
    ("2.22.3", "12.4"),   # runtime connection after Init COMPLETE
    ("2.23.4", "12.6"),   # snprintf listing: 127 bytes, `...`
    ("2.27.3", "12.9"),   # `Connected all rings, use ring PXN`
    ("2.29.7", "12.9"),   # `[Rank N]` Init START prefix
    ("2.30.3", "13.0"),
]
# Rank counts; 8 GPUs per host, except 8 ranks, which need two hosts for a host
# pair. 1280 (160 hosts) is the smallest with 4-digit ranks on rank 0's host
# under cyclic placement.
SIZES = [8, 128, 1024, 1280, 8192]
KINDS = ("healthy", "socket", "cyclic", "no-graph", "head")
RING_TREE_RULES = {"ND2001", "ND2002", "ND2003", "ND2004", "ND2005"}
ALLOWED_RING_NOTE = ("ND2002", "info")  # "ring not fully visible"
TIMEOUT_S = 300

failures = []


def sizes():
    text = os.environ.get("ND_RING_MATRIX_SIZES", "")
    if not text:
        return SIZES
    return [int(x) for x in text.split(",") if x.strip()]


def make_job(version, cuda, nranks, socket_pair, placement="block", graph=True):
    gpus = 8 if nranks >= 16 else nranks // 2
    if gpus < 1 or nranks % gpus:
        raise ValueError(f"{nranks} ranks do not fill hosts of {gpus} GPUs")
    nhosts = nranks // gpus
    hosts = [f"node{h:04d}" for h in range(nhosts)]
    # The generated rings visit hosts in order: hosts a and a+1 are ring neighbours.
    net_for_pair = {socket_pair: "Socket"} if socket_pair else {}
    # GRAPH ring lines from 2.10 (NCCL_DEBUG_SUBSYS=INIT,GRAPH): the rule sees both sources.
    return fmt.Job(version, hosts, gpus, channels=2, cuda=cuda, net_for_pair=net_for_pair,
                   graph_lines=graph and fmt.ver(version) >= (2, 10), placement=placement)


def check(path):
    p = subprocess.run([BIN, "check", "--color", "never", "--format", "json", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT_S)
    return p.returncode, json.loads(p.stdout), p.stderr.decode("utf-8", "replace")


def describe(f):
    return f"{f['severity']} {f['id']}: {f['message']}"


def problems_healthy(rc, report, err):
    out = []
    if rc != 0 or report.get("verdict") != "pass":
        out.append(f"exit {rc}, verdict {report.get('verdict')}")
    for f in report["findings"]:
        if f["severity"] in ("error", "warning"):
            out.append(describe(f))
        elif f["id"] in RING_TREE_RULES and (f["id"], f["severity"]) != ALLOWED_RING_NOTE:
            out.append(describe(f))
    if err:
        out.append("stderr: " + err.strip())
    return out


def problems_socket(rc, report, err, pair_hosts):
    out = []
    if rc != 1 or report.get("verdict") != "fail":
        out.append(f"exit {rc}, verdict {report.get('verdict')}")
    socket = [f for f in report["findings"] if f["id"] == "ND3001"]
    if len(socket) != 1 or socket[0]["severity"] != "error" or sorted(socket[0]["hosts"]) != pair_hosts:
        out.append(f"want one error ND3001 on {pair_hosts}, got " +
                   ("; ".join(f"{describe(f)} {f['hosts']}" for f in socket) or "none"))
    for f in report["findings"]:
        if f["id"] != "ND3001" and f["severity"] in ("error", "warning"):
            out.append(describe(f))
        elif f["id"] in RING_TREE_RULES and (f["id"], f["severity"]) != ALLOWED_RING_NOTE:
            out.append(describe(f))
    if err:
        out.append("stderr: " + err.strip())
    return out


def listing_problems():
    """The generator's listings against what NCCL's dumpLine writes, worked
    out by hand from the C code."""
    out = []
    cases = [
        # 2.23+: 127 bytes exactly, 28 of 128 ranks, no `...`.
        (fmt.dump_line_snprintf("Channel 00/02 :", list(range(128))),
         "Channel 00/02 :" + "".join(" %3d" % r for r in range(28))),
        # 2.23+: the 22nd number is cut to `   2` by `...`.
        (fmt.dump_line_snprintf("Channel 00/02 :", list(range(1280))),
         "Channel 00/02 :" + "".join(" %4d" % r for r in range(21)) + "   2..."),
        (fmt.dump_line_snprintf("Channel 01/02 :", [0, 3, 1, 2]), "Channel 01/02 : 0 3 1 2"),
        # Up to 2.22: 20 slots of 4 bytes, a 4-digit rank loses its last digit but in the last slot.
        (fmt.dump_line_fixed("Channel 00/02 : ", [0, 1024, 2048, 1]), "Channel 00/02 :    0 102 204   1"),
        (fmt.dump_line_fixed("Channel 00/02 : ", [0, 1024]), "Channel 00/02 :    0 1024"),
        (fmt.dump_line_fixed("Channel 00/02 : ", list(range(32))),
         "Channel 00/02 : " + "".join(" %3d" % r for r in range(20))),
        # 2.4: a 13-byte prefix.
        (fmt.dump_line_fixed("Channel 00 : ", [0, 1]), "Channel 00 :    0   1"),
    ]
    for got, want in cases:
        if got != want:
            out.append(f"listing {got!r}, NCCL writes {want!r}")
    return out


def problems_head(rc, report, err):
    """The first 60 % of a healthy log, as `head` gives it: an excerpt, never
    a hang or a broken ring; nothing but notes."""
    out = []
    if rc != 0 or report.get("verdict") not in ("pass", "inconclusive"):
        out.append(f"exit {rc}, verdict {report.get('verdict')}")
    for f in report["findings"]:
        if f["severity"] in ("error", "warning"):
            out.append(describe(f))
    if err:
        out.append("stderr: " + err.strip())
    return out


def run_case(tmp, version, cuda, nranks, kind):
    # no-graph: the listing is the only ring source (NCCL_DEBUG_SUBSYS without GRAPH).
    job = make_job(version, cuda, nranks, None, "cyclic" if kind == "cyclic" else "block", graph=kind != "no-graph")
    pair = None
    if kind == "socket":
        a = len(job.hosts) // 2 - 1
        pair = (a, a + 1)
        job = make_job(version, cuda, nranks, pair)
    path = os.path.join(tmp, f"{version}-{nranks}-{kind}.log")
    lines = fmt.generate(job)
    if kind == "head":
        lines = lines[:len(lines) * 3 // 5]
    with open(path, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    try:
        rc, report, err = check(path)
    finally:
        os.remove(path)
    if kind == "head":
        return problems_head(rc, report, err)
    if kind in ("healthy", "cyclic", "no-graph"):
        return problems_healthy(rc, report, err)
    return problems_socket(rc, report, err, sorted(job.hosts[h] for h in pair))


def main():
    start = time.monotonic()
    if not sizes():
        print("FAIL ND_RING_MATRIX_SIZES names no size")
        return 1
    problems = listing_problems()
    print(f"{'ok  ' if not problems else 'FAIL'} ring listings as NCCL's dumpLine writes them")
    for p in problems:
        print("     " + p)
    if problems:
        failures.append("listings")
    with tempfile.TemporaryDirectory() as tmp:
        for version, cuda in VERSIONS:
            for nranks in sizes():
                for kind in KINDS:
                    name = f"{version} {nranks:5d} ranks {kind}"
                    t0 = time.monotonic()
                    try:
                        problems = run_case(tmp, version, cuda, nranks, kind)
                    except Exception as e:  # a case that cannot run fails
                        problems = [f"{type(e).__name__}: {e}"]
                    took = time.monotonic() - t0
                    print(f"{'ok  ' if not problems else 'FAIL'} {name} ({took:.2f} s)")
                    for p in problems:
                        print("     " + p)
                    if problems:
                        failures.append(name)
    print(f"{len(failures)} failed; {time.monotonic() - start:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
