#!/usr/bin/env python3
"""Writes one large NCCL 2.18.3 INFO log (default: 1024 hosts x 8 GPUs = 8192
ranks, 4 channels) with the line formats of gen_testlogs.py, for measuring
`nccl-doctor graph --level host` and `summary` on a big job:
    python3 scripts/gen_biglog.py /tmp/big.log [hosts] [gpus_per_host] [channels]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_testlogs as g  # noqa: E402


def main():
    path = sys.argv[1]
    hosts = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    gpus = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    channels = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    job = g.Job("2.18.3", [f"node{h:04d}" for h in range(hosts)], gpus, channels=channels)
    with open(path, "w") as f:
        for line in g.generate(job):
            f.write(line + "\n")


if __name__ == "__main__":
    main()
