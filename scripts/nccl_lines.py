#!/usr/bin/env python3
"""The line formats of each NCCL generation, as NCCL prints them, and the
launcher envelopes around them: shared by scripts/gen_testlogs.py (the
committed test logs), scripts/ring_matrix_test.py and bench/gen_biglog.py.
"""
import functools
from dataclasses import dataclass, field


@functools.lru_cache(maxsize=None)
def ver(s):
    return tuple(int(x) for x in s.split("."))


@dataclass
class Job:
    version: str
    hosts: list
    gpus_per_host: int
    channels: int = 2
    cuda: str = "12.2"
    # (sender_host_index, receiver_host_index) -> network name for inter links
    net_for_pair: dict = field(default_factory=dict)
    net: str = "IB"
    gdr: bool = True
    intra: str = "p2p"      # p2p, shm, net
    intra_for_host: dict = field(default_factory=dict)  # host index -> intra override (a defect on one host)
    ring_orders: list = None  # per channel list of ranks
    nnodes_line: bool = True
    graph_lines: bool = False
    trees: bool = True
    env: list = field(default_factory=list)  # (host index or None, "NCCL_X set by environment to V")
    socket_bootstrap: bool = True
    using_network: str = None
    pxn: bool = False
    runtime_connect: bool = None  # default: version >= 2.22
    comm_id: int = 0x52e965372ad155ed
    warn_lines: list = field(default_factory=list)  # (rank, loc, msg)
    drop_ranks: set = field(default_factory=set)  # ranks whose lines are absent
    # "block": host h holds ranks h*g .. h*g+g-1; "cyclic" (srun --distribution=cyclic):
    # host h holds ranks h, h+H, h+2H ..., so rank 0's ring listing shows high ranks early.
    placement: str = "block"

    @property
    def v(self):
        return ver(self.version)

    @property
    def nranks(self):
        return len(self.hosts) * self.gpus_per_host

    def host_of(self, r):
        if self.placement == "cyclic":
            return r % len(self.hosts)
        return r // self.gpus_per_host

    def dev_of(self, r):
        if self.placement == "cyclic":
            return r // len(self.hosts)
        return r % self.gpus_per_host

    def rank_at(self, host, dev):
        if self.placement == "cyclic":
            return dev * len(self.hosts) + host
        return host * self.gpus_per_host + dev

    def intra_of(self, h):
        return self.intra_for_host.get(h, self.intra)

    def pid_of(self, r):
        return 2771 + 37 * r

    def bus_of(self, r):
        return [0x18000, 0x2a000, 0x3a000, 0x5d000, 0x9a000, 0xab000, 0xba000, 0xdb000,
                0x1b000, 0x1c000, 0x1d000, 0x1e000, 0x3b000, 0x3c000, 0x3d000, 0x3e000][self.dev_of(r) % 16]

    def ring(self, ch):
        if self.ring_orders:
            return self.ring_orders[ch % len(self.ring_orders)]
        # Within a host by device, hosts in order, as NCCL links the nodes of a ring.
        return [self.rank_at(h, d) for h in range(len(self.hosts)) for d in range(self.gpus_per_host)]


def header(job, r, tid_offset=0):
    h = job.hosts[job.host_of(r)]
    pid = job.pid_of(r)
    return f"{h}:{pid}:{pid + tid_offset} [{job.dev_of(r)}] NCCL INFO "


def bracket(job, r):
    v = job.v
    if v < (2, 5):
        return f"[{job.dev_of(r)}]"
    if v < (2, 18, 3):
        return f"[{job.bus_of(r):x}]"
    return f"[{job.dev_of(r)}]"


def transport(job, s, r, side):
    hs, hr = job.host_of(s), job.host_of(r)
    v = job.v
    intra = job.intra_of(hs)
    if hs == hr and intra == "p2p":
        mech = "CUMEM" if v >= (2, 19) else "IPC"
        return f"P2P/{mech}" + ("/read" if v >= (2, 8) and job.gpus_per_host >= 2 and v >= (2, 12) else "")
    if hs == hr and intra == "shm":
        return "direct shared memory" if v < (2, 13) else "SHM/direct/direct"
    net = job.net_for_pair.get((hs, hr), job.net_for_pair.get((hr, hs), job.net))
    dev = job.dev_of(r if side == "receive" else s) % 4
    t = f"NET/{net}/{dev}"
    if job.pxn and side == "send" and v >= (2, 12):
        t += f"({s})"
    if job.gdr and not net.startswith("Socket"):
        t += "/GDRDMA"
    return t


def connection_line(job, ch, s, r, side, printer):
    v = job.v
    hs, hr = job.host_of(s), job.host_of(r)
    intra = job.intra_of(hs)
    is_net = hs != hr or intra == "net"
    keyword = "Ring" if v < (2, 7) else "Channel"
    chan = f"{ch:02d}"
    if is_net and v >= (2, 12):
        chan += "/0"
    elif not is_net and v >= (2, 14) and intra == "p2p":
        chan += "/0"
    if v < (2, 4, 99) and is_net:
        ends = f"{s} -> {r}"
    else:
        ends = f"{s}{bracket(job, s)} -> {r}{bracket(job, r)}"
    dir_text = f" [{side}]" if is_net else ""
    return header(job, printer) + f"{keyword} {chan} : {ends}{dir_text} via {transport(job, s, r, side)}"


def init_line(job, r, phase):
    v = job.v
    ptr = f"0x{0x55d7869cef50 + 0x1000 * r:x}"
    api = ""
    if v >= (2, 21):
        api = "ncclCommInitRank "
    prefix = f"[Rank {r}] " if v >= (2, 29) and phase == "START" else ""
    if v < (2, 5):
        body = f"comm {ptr} rank {r} nranks {job.nranks} cudaDev {job.dev_of(r)} nvmlDev {job.dev_of(r)}"
    elif v < (2, 16):
        body = f"comm {ptr} rank {r} nranks {job.nranks} cudaDev {job.dev_of(r)} busId {job.bus_of(r):x}"
    elif v < (2, 18, 3):
        body = (f"comm {ptr} rank {r} nranks {job.nranks} cudaDev {job.dev_of(r)} busId {job.bus_of(r):x} "
                f"commId 0x{job.comm_id:x}")
    else:
        body = (f"comm {ptr} rank {r} nranks {job.nranks} cudaDev {job.dev_of(r)} nvmlDev {job.dev_of(r)} "
                f"busId {job.bus_of(r):x} commId 0x{job.comm_id:x}")
    return header(job, r) + f"{prefix}{api}{body} - Init {phase}"


def dump_line_fixed(prefix, values):
    """NCCL 2.4-2.22 `dumpLine` (2.4 src/init.cc, 2.5-2.22 src/graph/rings.cc),
    byte for byte: a 115-byte line of spaces, `strncpy(line, prefix, 15)`, then
    `sprintf(line + strlen(prefix) + 4*i, " %3d", values[i])` for the first 20
    ranks. Each sprintf's NUL is overwritten by the next slot, so a rank of
    four digits loses its last digit to the next slot's leading space (the
    last slot printed keeps it)."""
    maxwidth, prefixlen_max = 20, 15
    strlength = prefixlen_max + 5 * maxwidth
    line = bytearray(b" " * strlength + b"\0")
    p = prefix.encode()
    # strncpy copies at most 15 bytes and pads a shorter prefix with NULs.
    line[:prefixlen_max] = (p + b"\0" * prefixlen_max)[:prefixlen_max]
    for i, value in enumerate(values[:maxwidth]):
        text = b" %3d\0" % value
        off = len(p) + 4 * i
        line[off:off + len(text)] = text
    return line[:line.index(0)].decode()


def dump_line_snprintf(prefix, values):
    """NCCL 2.23+ `dumpLine` (src/graph/rings.cc), byte for byte: a 128-byte
    buffer, `n = snprintf(line, 128, "%s", prefix)`, then
    `n += snprintf(line + n, 128 - n, " %*d", width, values[i])` while
    `n < 127`, the width being the digits of nranks-1; if more was wanted
    (`n >= 128`) `snprintf(line + 124, 4, "...")`. So the message is at most
    127 bytes, `...` can cut a rank number in two, and a listing that fills
    127 bytes exactly is cut without any `...`."""
    size = 128
    line = bytearray(size)

    def snprintf(off, room, text):
        data = text.encode()
        k = min(len(data), room - 1)
        line[off:off + k] = data[:k]
        line[off + k] = 0
        return len(data)

    width = len("%d" % (len(values) - 1))
    n = snprintf(0, size, prefix)
    for value in values:
        if n >= size - 1:
            break
        n += snprintf(n, size - n, " %*d" % (width, value))
    if n >= size:
        snprintf(size - 4, 4, "...")
    return line[:line.index(0)].decode()


def listing(job, ch):
    """Rank 0's ring listing of channel `ch` as ncclBuildRings prints it; the
    prefix is the caller's: `Channel %02d : ` (2.4, buildRings in init.cc),
    `Channel %02d/%02d : ` (2.5-2.22) and `Channel %02d/%02d :` (2.23+), the
    second number being the channel count."""
    v = job.v
    ranks = job.ring(ch)
    if v < (2, 5):
        return header(job, 0) + dump_line_fixed(f"Channel {ch:02d} : ", ranks)
    if v < (2, 23):
        return header(job, 0) + dump_line_fixed(f"Channel {ch:02d}/{job.channels:02d} : ", ranks)
    return header(job, 0) + dump_line_snprintf(f"Channel {ch:02d}/{job.channels:02d} :", ranks)


def trees_line(job, r):
    # A chain per host whose head hangs off the previous host's head: every
    # child is listed by its parent, as NCCL prints a real tree.
    v = job.v
    g = job.gpus_per_host
    local = job.dev_of(r)
    host = job.host_of(r)
    up = job.rank_at(host, local - 1) if local > 0 else (-1 if host == 0 else job.rank_at(host - 1, 0))
    kids = []
    if local < g - 1:
        kids.append(job.rank_at(host, local + 1))
    if local == 0 and host < len(job.hosts) - 1:
        kids.append(job.rank_at(host + 1, 0))
    down = "/".join(str(k) for k in (kids + [-1, -1, -1])[:3])
    items = []
    for ch in range(job.channels):
        if v < (2, 5):
            items.append(f"[{ch}] {up}->{r}->{down}")
        elif v < (2, 8):
            items.append(f"[{ch}] {down}->{r}->{up}|{up}->{r}->{down}")
        else:
            items.append(f"[{ch}] {down}->{r}->{up}")
    return header(job, r) + "Trees " + " ".join(items)


def ip_of(job, h):
    return f"10.1.0.{h + 10}"


def generate(job):
    v = job.v
    out = []
    ranks = [r for r in range(job.nranks) if r not in job.drop_ranks]
    runtime = job.runtime_connect if job.runtime_connect is not None else v >= (2, 22)
    # Banner: raw stdout up to 2.21, an INFO line from 2.22.
    for r in ranks:
        if v < (2, 22):
            if r == 0:
                out.append(f"NCCL version {job.version}+cuda{job.cuda}")
        else:
            out.append(header(job, r) + f"NCCL version {job.version}+cuda{job.cuda}")
    for r in ranks:
        h = job.host_of(r)
        if job.socket_bootstrap:
            out.append(header(job, r) + f"NET/Socket : Using [0]ib0:{ip_of(job, h)}<0>")
        if v >= (2, 13):
            out.append(header(job, r) + "cudaDriverVersion 12040")
        for host_index, text in job.env:
            if host_index is None or host_index == h:
                out.append(header(job, r) + text)
        nets = {job.net} | set(job.net_for_pair.values())
        if any(n.startswith("IB") for n in nets) and not job.using_network == "Socket":
            sep = " [RO]; OOB" if v >= (2, 12) else " ; OOB"
            out.append(header(job, r) + f"NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB{sep} ib0:{ip_of(job, h)}<0>")
        if v >= (2, 6):
            out.append(header(job, r) + f"Using network {job.using_network or job.net}")
    for r in ranks:
        if v >= (2, 18, 3):
            out.append(init_line(job, r, "START"))
    # Each channel's ring with every rank's place in it, computed once: jobs reach 8192+ ranks.
    rings = [job.ring(ch) for ch in range(job.channels)]
    places = [{x: i for i, x in enumerate(ring)} for ring in rings] if v >= (2, 10) and job.graph_lines else []
    for r in ranks:
        if v >= (2, 20):
            out.append(header(job, r) + f"comm 0x{0x55d7869cef50 + 0x1000 * r:x} rank {r} nRanks {job.nranks} "
                       f"nNodes {len(job.hosts)} localRanks {job.gpus_per_host} localRank {job.dev_of(r)} MNNVL 0")
        if v < (2, 5):
            out.append(header(job, r) + "Using 256 threads, Min Comp Cap 7, Trees enabled up to size 3200000")
        if v >= (2, 10) and job.graph_lines:
            for ch in range(job.channels):
                ring = rings[ch]
                i = places[ch][r]
                out.append(header(job, r) + f"Ring {ch:02d} : {ring[i - 1]} -> {r} -> {ring[(i + 1) % len(ring)]}")
    if 0 in ranks:
        for ch in range(job.channels):
            out.append(listing(job, ch))
    for r in ranks:
        if job.trees:
            out.append(trees_line(job, r))
    if v >= (2, 17) and 0 in ranks:
        if v >= (2, 20):
            out.append(header(job, 0) + f"{job.channels} coll channels, 0 collnet channels, 0 nvls channels, "
                       f"{job.channels * 2} p2p channels, 2 p2p channels per peer")
        else:
            out.append(header(job, 0) + f"{job.channels} coll channels, 0 nvls channels, {job.channels * 2} p2p channels, 2 p2p channels per peer")

    def connections():
        lines = []
        present = set(ranks)
        for ch in range(job.channels):
            ring = job.ring(ch)
            for i, s in enumerate(ring):
                r = ring[(i + 1) % len(ring)]
                is_net = job.host_of(s) != job.host_of(r) or job.intra_of(job.host_of(s)) == "net"
                if s in present:
                    lines.append((s, connection_line(job, ch, s, r, "send", s)))
                if is_net and r in present:
                    lines.append((r, connection_line(job, ch, s, r, "receive", r)))
        # Ranks print in parallel: interleave by rank, keeping each rank's order.
        by_rank = {}
        for rank, line in lines:
            by_rank.setdefault(rank, []).append(line)
        order = sorted(by_rank)
        longest = max((len(ls) for ls in by_rank.values()), default=0)
        merged = [by_rank[rank][k] for k in range(longest) for rank in order if k < len(by_rank[rank])]
        if runtime:
            merged = [l.replace(f":{job.pid_of(0)} [", f":{job.pid_of(0)} [") for l in merged]
        return merged

    if not runtime:
        out.extend(connections())
        if v >= (2, 8):
            for r in ranks:
                out.append(header(job, r) + ("Connected all rings, use ring PXN 0 GDR 1" if v >= (2, 24) else "Connected all rings"))
        for r in ranks:
            out.append(init_line(job, r, "COMPLETE"))
    else:
        for r in ranks:
            out.append(init_line(job, r, "COMPLETE"))
        out.extend(connections())
        for r in ranks:
            out.append(header(job, r) + ("Connected all rings, use ring PXN 0 GDR 1" if v >= (2, 24) else "Connected all rings"))
    for rank, loc, msg in job.warn_lines:
        out.append("")
        pid = job.pid_of(rank)
        out.append(f"{job.hosts[job.host_of(rank)]}:{pid}:{pid} [{job.dev_of(rank)}] {loc} NCCL WARN {msg}")
    return out


# Line `line` of rank `rank` (local rank `local_rank` on `host`) as each launcher prints it; i = line index.
ENVELOPES = {
    "openmpi4-tag": lambda i, line, rank, local_rank, host: f"[1,{rank}]<stdout>:{line}",
    "openmpi4-timestamp": lambda i, line, rank, local_rank, host:
        f"Thu May  7 10:39:{i % 60:02d} 2020[1,{rank}]<stdout>:{line}",
    "openmpi5-tag-timestamp": lambda i, line, rank, local_rank, host:
        f"[Thu May  7 10:39:{i % 60:02d} 2020][1,{rank}]<stdout>: {line}",
    "srun-label": lambda i, line, rank, local_rank, host: f"{rank:2d}: {line}",
    "hydra": lambda i, line, rank, local_rank, host: f"[{rank}] {line}",
    "torchrun": lambda i, line, rank, local_rank, host: f"[default{local_rank}]:{line}",
    "pdsh": lambda i, line, rank, local_rank, host: f"{host}: {line}",
    "kubernetes-cri": lambda i, line, rank, local_rank, host:
        f"2024-03-18T15:46:{i % 60:02d}.238135024Z stdout F {line}",
    "ansi-crlf": lambda i, line, rank, local_rank, host: (f"\x1b[0;32m{line}\x1b[0m" if i % 2 else line) + "\r",
}
ENVELOPE_NAMES = list(ENVELOPES)


def envelope(name, i, line, rank, local_rank, host):
    """Line `line` of rank `rank` as launcher `name` prints it."""
    if name not in ENVELOPES:
        raise ValueError(f"unknown envelope {name}")
    return ENVELOPES[name](i, line, rank, local_rank, host)
