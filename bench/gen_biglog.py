#!/usr/bin/env python3
"""Writes a large, realistic NCCL_DEBUG=INFO log (NCCL_DEBUG_SUBSYS=INIT,COLL)
for the benchmark: the init and connection lines of one job of any size, in
the format of one NCCL generation, followed by COLL per-operation lines
(`AllReduce: opCount ...`, one per call per rank) up to a target size, all
optionally wrapped in a launcher prefix.

The init and connection lines come from scripts/nccl_lines.py, which writes
them from the reference formats; this script adds only the COLL (and optional
TUNING) lines, whose format is

    %s: opCount %lx sendbuff %p recvbuff %p count %zi datatype %d op %d root %d comm %p [nranks=%d] stream %p

(`%zu` from 2.22, the same text for the counts written here), and, on rank 0
with NCCL_DEBUG_SUBSYS=TUNING, `%ld Bytes -> Algo %d proto %d time %f`
(2.20-2.22), `%s: %ld Bytes -> Algo %d proto %d time %f` (2.23) and
`%s: %ld Bytes -> Algo %s proto %s channel{Lo..Hi}={%d..%d}` (2.24+).

Examples:
    python3 bench/gen_biglog.py --hosts 1024 --gpus-per-host 8 --channels 32 --size 2G -o /tmp/big.log
    python3 bench/gen_biglog.py --version 2.27 --launcher srun-label --socket-pair 3,4 --shm-host 7 --size 100M
    python3 bench/gen_biglog.py --hosts 128 --size 256M --per-rank /tmp/ranks
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import nccl_lines as fmt  # noqa: E402  (the reference line formats)

# The generations the benchmark covers, by their short names.
GENERATIONS = {"2.4": "2.4.8", "2.7": "2.7.8", "2.12": "2.12.12", "2.18": "2.18.3", "2.27": "2.27.7"}
# What a training step calls, weighted: gradient buckets dominate.
COLLECTIVES = ["AllReduce"] * 12 + ["AllGather", "AllGather", "ReduceScatter", "Broadcast"]
BUCKET_COUNTS = [262144, 1048576, 6553600, 25165824, 4194304, 131072, 8388608, 16777216]
ALGOS = ["RING", "TREE"]
PROTOS = ["SIMPLE", "LL", "LL128"]


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    text = text.strip().upper().rstrip("B")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def make_job(args):
    version = GENERATIONS.get(args.version, args.version)
    hosts = [f"node{h:04d}" for h in range(args.hosts)]
    net_for_pair = {}
    if args.socket_pair:
        a, b = (int(x) for x in args.socket_pair.split(","))
        # The generated rings visit hosts in order, so only neighbours connect.
        if (b - a) % args.hosts not in (1, args.hosts - 1):
            sys.exit(f"gen_biglog: --socket-pair {a},{b}: hosts must be neighbours in the ring (like 3,4)")
        net_for_pair[(a, b)] = "Socket"
    intra_for_host = {args.shm_host: "shm"} if args.shm_host is not None else {}
    return fmt.Job(version, hosts, args.gpus_per_host, channels=args.channels, cuda="12.2",
                   net=args.net, net_for_pair=net_for_pair, intra_for_host=intra_for_host,
                   comm_id=0x7f1c2e9a40b31d57)


class Writer:
    """Buffers lines, wraps them in the launcher prefix, counts bytes."""

    def __init__(self, out, launcher, job, per_rank=None):
        self.out = out
        self.launcher = launcher
        self.job = job
        self.host_index = {h: i for i, h in enumerate(job.hosts)}
        self.buf = []
        self.bytes = 0
        self.lines = 0
        # --per-rank: each rank's lines in a file of its own, as NCCL_DEBUG_FILE writes them.
        self.per_rank = per_rank
        self.files = {}

    def rank_of_line(self, line):
        # `host:pid:tid [dev] ...`; lines without a header belong to rank 0.
        host, _, rest = line.partition(":")
        if host not in self.host_index:
            return 0
        close = rest.find("] ")
        open_ = rest.find(" [")
        dev = int(rest[open_ + 2:close]) if 0 <= open_ < close else 0
        return self.host_index[host] * self.job.gpus_per_host + dev

    def add(self, line, rank=None):
        if self.per_rank:
            if rank is None:
                rank = self.rank_of_line(line)
            # Buffered per rank and appended in pieces: a thousand files open
            # at once would pass the usual limit of 1024 descriptors.
            pending = self.files.setdefault(rank, [])
            pending.append(line + "\n")
            self.bytes += len(line) + 1
            self.lines += 1
            if len(pending) >= 512:
                self.flush_rank(rank)
            return
        if self.launcher != "none":
            if rank is None:
                rank = self.rank_of_line(line)
            job = self.job
            line = fmt.envelope(self.launcher, self.lines, line, rank, job.dev_of(rank),
                                job.hosts[job.host_of(rank)])
        self.buf.append(line)
        self.bytes += len(line) + 1
        self.lines += 1
        if len(self.buf) >= 8192:
            self.flush()

    def flush_rank(self, rank):
        with open(os.path.join(self.per_rank, f"rank-{rank:05d}.log"), "a") as f:
            f.writelines(self.files[rank])
        self.files[rank] = []

    def close(self):
        self.flush()
        for rank in self.files:
            self.flush_rank(rank)

    def flush(self):
        if self.buf:
            self.out.write("\n".join(self.buf) + "\n")
            self.buf = []


def coll_lines(job, args, w, target, op, limit):
    """COLL lines, one per collective call per rank, from call `op` until call
    `limit` (None: until `target` bytes). Returns the next call number."""
    v = job.v
    rng = random.Random(args.seed)
    nranks = job.nranks
    heads, tails, bufs = [], [], []
    for r in range(nranks):
        # Same comm pointer as the rank's Init line; the main thread prints COLL.
        heads.append(fmt.header(job, r))
        comm = 0x55d7869cef50 + 0x1000 * r
        tails.append(f" comm 0x{comm:x} [nranks={nranks}] stream 0x{0x55d786a0f720 + 0x1000 * r:x}")
        base = 0x7f2f3a000000 + (r % 64) * 0x10000000000
        bufs.append([f"sendbuff 0x{base + k * 0x4000000:x} recvbuff 0x{base + k * 0x4000000:x}" for k in range(4)])
    # Ranks print in parallel: a few interleavings, reused.
    orders = []
    for _ in range(8):
        order = list(range(nranks))
        rng.shuffle(order)
        orders.append(order)
    while (limit is None and w.bytes < target) or (limit is not None and op < limit):
        name = COLLECTIVES[op % len(COLLECTIVES)]
        count = BUCKET_COUNTS[op % len(BUCKET_COUNTS)]
        k = op % 4
        middle = f"{name}: opCount {op:x} "
        rest = f" count {count} datatype 7 op 0 root 0"
        if args.tuning and v >= (2, 20):
            size = count * 2
            if v < (2, 23):
                tune = f"{size} Bytes -> Algo {op % 2} proto {op % 3} time {15.5 + op % 7:f}"
            elif v < (2, 24):
                tune = f"{name}: {size} Bytes -> Algo {op % 2} proto {op % 3} time {15.5 + op % 7:f}"
            else:
                tune = (f"{name}: {size} Bytes -> Algo {ALGOS[op % 2]} proto {PROTOS[op % 3]} "
                        f"channel{{Lo..Hi}}={{0..{job.channels - 1}}}")
            w.add(heads[0] + tune, 0)
        if args.launcher == "none" and not args.per_rank:
            block = [heads[r] + middle + bufs[r][k] + rest + tails[r] for r in orders[op % len(orders)]]
            w.buf.extend(block)
            w.lines += len(block)
            w.bytes += sum(len(x) for x in block) + len(block)
            w.flush()
        else:
            for r in orders[op % len(orders)]:
                w.add(heads[r] + middle + bufs[r][k] + rest + tails[r], r)
        op += 1
    return op


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hosts", type=int, default=16)
    ap.add_argument("--gpus-per-host", type=int, default=8)
    ap.add_argument("--channels", type=int, default=8)
    ap.add_argument("--version", default="2.18", help="2.4, 2.7, 2.12, 2.18, 2.27 or a full version (default 2.18)")
    ap.add_argument("--net", default="IB", help="network of the healthy host pairs (default IB)")
    ap.add_argument("--launcher", default="none", choices=["none"] + fmt.ENVELOPE_NAMES)
    ap.add_argument("--socket-pair", metavar="A,B", help="neighbouring host indices that fall back to NET/Socket")
    ap.add_argument("--shm-host", type=int, metavar="H", help="host index whose GPUs talk over SHM instead of P2P")
    ap.add_argument("--size", default="64M", help="target size, e.g. 2G (default 64M)")
    ap.add_argument("--ops", type=int, help="number of collective calls instead of --size")
    ap.add_argument("--tuning", action="store_true", help="add rank 0's TUNING lines (2.20+)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--per-rank", metavar="DIR", help="write each rank's lines to DIR/rank-NNNNN.log instead")
    args = ap.parse_args()

    job = make_job(args)
    target = parse_size(args.size)
    if args.per_rank:
        os.makedirs(args.per_rank, exist_ok=True)
        for name in os.listdir(args.per_rank):
            if name.startswith("rank-"):
                os.remove(os.path.join(args.per_rank, name))
    out = sys.stdout if args.output == "-" or args.per_rank else open(args.output, "w", newline="", buffering=1 << 20)
    w = Writer(out, args.launcher, job, args.per_rank)
    setup = fmt.generate(job)
    # 2.22+ connects at the first collective: its COLL lines precede the
    # connection lines. Older versions connect during init.
    first_coll = len(setup)
    if job.v >= (2, 22):
        first_coll = max(i for i, l in enumerate(setup) if "Init COMPLETE" in l) + 1
    for line in setup[:first_coll]:
        w.add(line)
    op = 0
    if first_coll < len(setup):
        op = coll_lines(job, args, w, target, 0, 1 if args.ops is None else min(1, args.ops))
    for line in setup[first_coll:]:
        w.add(line)
    coll_lines(job, args, w, target, op, args.ops)
    w.close()
    if out is not sys.stdout:
        out.close()
    print(f"gen_biglog: {w.lines} lines, {w.bytes} bytes, {job.nranks} ranks on {len(job.hosts)} hosts, "
          f"{job.channels} channels, NCCL {job.version}", file=sys.stderr)


if __name__ == "__main__":
    main()
