#!/usr/bin/env python3
"""Writes the NCCL_DEBUG=INFO test logs in testdata/logs/ from the line formats
of each NCCL generation (2.4 `Ring NN : a[n] -> b[n]`,
2.5 busId brackets, 2.7 `Channel NN :`, 2.12 NET `/connIdx`, 2.18.3 nvmlDev
brackets and Init START, 2.22 runtime connection after Init COMPLETE), with
rank 0's ring listing cut as NCCL's dumpLine cuts it (20 ranks up to 2.22,
127 bytes from 2.23).

The logs are committed; rerun this only to change them on purpose:
    python3 scripts/gen_testlogs.py testdata/logs
"""
import os
import sys

from nccl_lines import ENVELOPE_NAMES, Job, envelope, generate, header, ver  # noqa: F401


def two_host_ring(g):
    return None


SCENARIOS = {}


def scenario(path, job, envelope=None, banner=None):
    SCENARIOS[path] = (job, envelope, banner)


def article_rings():
    a = list(range(16))
    b = list(range(31, 15, -1))
    return [list(range(32)), a + b]


# --- NCCL 2.4: the article's lines, DGX-2 pair, IB without GDR ---------------
scenario("2.4.8/two-dgx2-ib-no-gdr", Job("2.4.8", ["dgx2-a", "dgx2-b"], 16, channels=2, cuda="10.0",
                                          gdr=False, ring_orders=article_rings(), trees=False))
scenario("2.4.8/two-node-socket", Job("2.4.8", ["node01", "node02"], 2, channels=2, cuda="10.0", net="Socket",
                                       trees=False, gdr=False))
# --- 2.5/2.6: busId brackets, `Ring NN :` connection keyword ------------------
scenario("2.5.6/two-node-ib-gdr", Job("2.5.6", ["gpu01", "gpu02"], 4, channels=2, cuda="10.1"))
scenario("2.6.4/aws-libfabric", Job("2.6.4", ["ip-192-168-2-54", "ip-192-168-2-77"], 4, channels=2, cuda="10.2",
                                     net="AWS Libfabric", socket_bootstrap=True))
# --- 2.7-2.11: `Channel NN :` --------------------------------------------------
scenario("2.7.8/single-node-shm", Job("2.7.8", ["dgx01"], 4, channels=2, cuda="11.0", intra="shm",
                                       env=[(None, "NCCL_P2P_DISABLE set by environment to 1")]))
scenario("2.11.4/two-node-ib-gdr", Job("2.11.4", ["gpu09", "gpu10"], 4, channels=2, cuda="11.4", graph_lines=True))
# --- 2.12-2.17: NET `/connIdx`, PXN, commId from 2.16 --------------------------
scenario("2.12.12/two-node-ibext-pxn", Job("2.12.12", ["h100-01", "h100-02"], 4, channels=2, cuda="11.7",
                                            net="IBext", pxn=True))
scenario("2.17.1/intra-node-net", Job("2.17.1", ["gpu20", "gpu21"], 2, channels=2, cuda="12.1", intra="net",
                                       env=[(None, "NCCL_P2P_DISABLE set by environment to 1"),
                                            (None, "NCCL_SHM_DISABLE set by environment to 1.")]))
# --- 2.18.3+: nvmlDev brackets, Init START --------------------------------------
scenario("2.18.3/two-node-socket", Job("2.18.3", ["gpu009", "gpu028"], 8, channels=2, cuda="12.2", net="Socket",
                                        using_network="Socket", env=[(None, "NCCL_IB_DISABLE set by environment to 1.")]))
scenario("2.18.3/four-node-one-socket-pair", Job("2.18.3", ["gpu001", "gpu002", "gpu003", "gpu004"], 2, channels=2,
                                                  cuda="12.2", net_for_pair={(1, 2): "Socket"}))
scenario("2.19.3/two-node-ib-gdr", Job("2.19.3", ["a100-01", "a100-02"], 4, channels=2, cuda="12.3"))
scenario("2.20.5/ibext-v8-no-gdr", Job("2.20.5", ["gpu33", "gpu34"], 4, channels=2, cuda="12.4", net="IBext_v8",
                                        gdr=False))
# --- 2.22+: runtime connection after Init COMPLETE --------------------------------
scenario("2.27.7/two-node-ib-gdr-runtime", Job("2.27.7", ["H100-01", "H100-02"], 8, channels=2, cuda="12.9"))
scenario("2.27.7/init-only-no-connections", Job("2.27.7", ["H100-01", "H100-02"], 2, channels=2, cuda="12.9",
                                                 runtime_connect=True))
scenario("2.23.4/unknown-net", Job("2.23.4", ["node-a", "node-b"], 2, channels=2, cuda="12.6", net="MyNet"))


# --- launcher envelopes around one 2.19.3 job (4 ranks on 2 hosts) ------------
import re

ENV_JOB = dict(version="2.19.3", hosts=["gpu01", "gpu02"], gpus_per_host=2, channels=2, cuda="12.3",
               net_for_pair={(0, 1): "Socket"})
HEADER = re.compile(r"^(\S+?):(\d+):(\d+) \[(\d+)\]")


def rank_of(line):
    m = HEADER.match(line)
    if not m:
        return 0
    return ENV_JOB["hosts"].index(m.group(1)) * ENV_JOB["gpus_per_host"] + int(m.group(4))


def host_of_line(line):
    m = HEADER.match(line)
    return m.group(1) if m else ENV_JOB["hosts"][0]


ENVELOPES = {
    name: (lambda i, l, n=name: envelope(n, i, l, rank_of(l), rank_of(l) % ENV_JOB["gpus_per_host"], host_of_line(l)))
    for name in ENVELOPE_NAMES
}
for name, env in ENVELOPES.items():
    scenario(f"2.19.3/envelope-{name}", Job(**ENV_JOB), envelope=env)


def write(root, path, lines, envelope):
    full = os.path.join(root, path + ".log")
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", newline="") as f:
        for i, line in enumerate(lines):
            f.write((envelope(i, line) if envelope else line) + "\n")


def spliced(lines):
    """Unbuffered writers on one pipe: cut some lines and glue the next line on."""
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if "Connected all rings" in line and i + 1 < len(lines) and "Init COMPLETE" not in lines[i + 1]:
            out.append(line[: len(line) // 2] + lines[i + 1])
            out.append(line[len(line) // 2:])
            i += 2
            continue
        if "[send] via" in line and i % 7 == 0:
            out.append("  1%|\u258f         | 24/1752 [01:08<1:22:56,  2.88s/it]" + line)
            i += 1
            continue
        out.append(line)
        i += 1
    return out


def noisy(lines):
    """Training output and nccl-tests rows between the NCCL lines."""
    noise = [
        "# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
        "#  Rank  0 Group  0 Pid   2771 on      gpu01 device  0 [0x18] NVIDIA H100 80GB HBM3",
        "epoch 0 step 10 loss 2.3145 lr 0.0001",
        "[2024-01-01 12:00:00,123] [INFO] [launch.py:142:main] WORLD INFO DICT: {'gpu01': [0, 1]}",
        "",
        "WARNING: Logging before InitGoogleLogging() is written to STDERR",
    ]
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        if i % 5 == 0:
            out.append(noise[i % len(noise)])
    return out


POST = {
    "2.27.7/init-only-no-connections":
        # The log ends at Init COMPLETE: no collective ran yet.
        lambda lines: lines[:max(i for i, l in enumerate(lines) if "Init COMPLETE" in l) + 1],
}

scenario("2.18.3/spliced-lines", Job("2.18.3", ["gpu11", "gpu12"], 2, channels=2, cuda="12.2",
                                      net_for_pair={(0, 1): "Socket"}))
POST["2.18.3/spliced-lines"] = spliced
scenario("2.16.5/noisy-job-output", Job("2.16.5", ["gpu01", "gpu02"], 2, channels=2, cuda="12.0"))
POST["2.16.5/noisy-job-output"] = noisy



# --- topology, placement and binding (ND2xxx) ------------------------------------
def topo_listing_unbound(lines):
    """2.4: the rank-0 listing of channel 01 names rank 1 twice; Open MPI 4
    --report-bindings says no rank is bound."""
    out = ["[node01:4410] MCW rank 0 is not bound (or bound to all available processors)",
           "[node01:4410] MCW rank 1 is not bound (or bound to all available processors)",
           "[node02:5120] MCW rank 2 is not bound (or bound to all available processors)",
           "[node02:5120] MCW rank 3 is not bound (or bound to all available processors)"]
    return out + [l.replace("Channel 01 :    0   1   2   3", "Channel 01 :    0   1   1   3") for l in lines]


def topo_tree_shared_cores(lines):
    """2.7: rank 3 names rank 1 as its channel-1 tree parent (rank 1 has no
    child there); srun --cpu-bind=verbose,map_cpu:0 pins every task to CPU 0."""
    job = SCENARIOS["2.7.8/topology-tree-shared-cores"][0]
    out = []
    for r in range(job.nranks):
        out.append(f"{r}: cpu-bind=MAP  - {job.hosts[job.host_of(r)]}, task  {r}  {job.dev_of(r)} [{job.pid_of(r)}]: mask 0x1 set")
    return out + [l.replace("[1] -1/-1/-1->3->2|2->3->-1/-1/-1", "[1] -1/-1/-1->3->1|1->3->-1/-1/-1") for l in lines]


def topo_duplicate_gpu_sys(lines):
    """2.18.3: ranks 0 and 1 on one GPU of gpu01; the graph search reports SYS
    paths between GPUs and PHB paths to the NICs."""
    out = []
    for l in lines:
        l = l.replace("rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000", "rank 1 nranks 4 cudaDev 0 nvmlDev 0 busId 18000")
        out.append(l)
        if "- Init START" in l:
            head = l[: l.index("NCCL INFO ") + len("NCCL INFO ")]
            out.append(head + "Pattern 4, crossNic 0, nChannels 2, bw 12.000000/12.000000, type SYS/PHB, sameChannels 1")
            out.append(head + "Pattern 1, crossNic 0, nChannels 2, bw 12.000000/12.000000, type SYS/PHB, sameChannels 1")
    return out


def topo_runtime_incomplete(lines):
    """2.27.7 runtime connection: rank 3's output is missing, gpu02 receives
    without GPUDirect what gpu01 sends with it; NCCL sets each rank's affinity
    to its GPU's CPUs (2.27 range lists)."""
    out = []
    for l in lines:
        if " [receive] via NET/IB/" in l and l.startswith("H100-02:"):
            l = l.replace("/GDRDMA", "")
        out.append(l)
        if "NCCL INFO cudaDriverVersion" in l:
            dev = int(l.split("[", 1)[1].split("]", 1)[0])
            head = l[: l.index("NCCL INFO ") + len("NCCL INFO ")]
            out.append(head + f"Setting affinity for GPU {dev} to 0-23,48-71")
    return out


def topo_bound_away(lines):
    """2.28.3: NCCL's affinity line per rank; rank 1 is bound (srun
    --cpu-bind=map_ldom:1) to the socket its GPU is not attached to."""
    out = []
    for l in lines:
        out.append(l)
        if "- Init START" in l:
            head = l[: l.index("NCCL INFO ") + len("NCCL INFO ")]
            dev = int(l.split("[", 1)[1].split("]", 1)[0])
            if "rank 1 " in l:
                out.append(head + f"ncclTopoGetCpuAffinity: Affinity for GPU {dev} is empty, ignoring. "
                           "(GPU affinity = 0-23,48-71 ; CPU affinity = 24-47,72-95).")
            else:
                out.append(head + f"ncclTopoGetCpuAffinity: Affinity for GPU {dev} is 0-23,48-71. "
                           "(GPU affinity = 0-23,48-71 ; CPU affinity = 0-23,48-71).")
    return out


scenario("2.4.8/topology-listing-unbound", Job("2.4.8", ["node01", "node02"], 2, channels=2, cuda="10.0"))
POST["2.4.8/topology-listing-unbound"] = topo_listing_unbound
scenario("2.7.8/topology-tree-shared-cores", Job("2.7.8", ["gpu01", "gpu02"], 2, channels=2, cuda="11.0"))
POST["2.7.8/topology-tree-shared-cores"] = topo_tree_shared_cores
scenario("2.18.3/topology-duplicate-gpu-sys", Job("2.18.3", ["gpu01", "gpu02"], 2, channels=2, cuda="12.2",
                                                   graph_lines=True))
POST["2.18.3/topology-duplicate-gpu-sys"] = topo_duplicate_gpu_sys
scenario("2.27.7/topology-runtime-incomplete", Job("2.27.7", ["H100-01", "H100-02"], 2, channels=2, cuda="12.9",
                                                    graph_lines=True, drop_ranks={3}))
POST["2.27.7/topology-runtime-incomplete"] = topo_runtime_incomplete
scenario("2.28.3/bound-away-from-gpu", Job("2.28.3", ["gpu01", "gpu02"], 2, channels=2, cuda="12.9"))
POST["2.28.3/bound-away-from-gpu"] = topo_bound_away

def write_ranks(root, path, job, lines):
    """NCCL_DEBUG_FILE=%h.%p: one file per process."""
    files = {}
    for line in lines:
        m = re.match(r"^(\S+?):(\d+):", line)
        key = f"{m.group(1)}.{m.group(2)}" if m else f"{job.hosts[0]}.{job.pid_of(0)}"
        files.setdefault(key, []).append(line)
    d = os.path.join(root, path + ".ranks")
    os.makedirs(d, exist_ok=True)
    for key, ls in files.items():
        with open(os.path.join(d, key + ".log"), "w") as f:
            f.write("\n".join(ls) + "\n")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "testdata/logs"
    for path, (job, envelope, _) in SCENARIOS.items():
        lines = generate(job)
        lines = POST.get(path, lambda x: x)(lines)
        write(root, path, lines, envelope)
    job = Job("2.21.5", ["gpu40", "gpu41"], 2, channels=2, cuda="12.4", net="IB", gdr=False)
    write_ranks(root, "2.21.5/per-rank-files", job, generate(job))
    raw = {
        "2.18.3/warn-only.log": [
            "NCCL version 2.18.3+cuda12.2",
            "epoch 0 step 10 loss 2.3145",
            "",
            "gpu01:2771:2771 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.1.0.8<49513> with error 12, opcode 0, len 0, vendor err 129 (Send) localGid ::ffff:10.1.0.7 remoteGid ::ffff:10.1.0.8",
        ],
        "2.18.3/coll-subsys-only.log": [
            "gpu01:2771:2771 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f2f3a000000 recvbuff 0x7f2f3a000000 count 262144 datatype 7 op 0 root 0 comm 0x55d7869cef50 [nranks=4] stream 0x55d786a0f720",
            "gpu01:2808:2808 [1] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f8e2a000000 recvbuff 0x7f8e2a000000 count 262144 datatype 7 op 0 root 0 comm 0x55d7869cff50 [nranks=4] stream 0x55d786a10720",
        ],
        "2.18.3/empty.log": [],
        "2.18.3/not-nccl.log": ["hello world", "epoch 0 step 10 loss 2.3145"],
    }
    for path, lines in raw.items():
        with open(os.path.join(root, path), "w") as f:
            f.write("".join(l + "\n" for l in lines))


if __name__ == "__main__":
    main()
