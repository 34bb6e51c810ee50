#!/usr/bin/env python3
"""End-to-end tests of `nccl-doctor check --tee -` (live pipe mode).

  live_test.py NCCL_DOCTOR tee|latency|closed-stdout

tee            stdin is copied to stdout byte for byte (CRLF, NUL, no final
               newline), from a pipe and from a file; the exit status is the
               same as without --tee.
latency        a slow producer writes lines with pauses; the socket finding
               must reach stderr within ND_LIVE_BOUND_MS (default 100) of the
               line that decides it. The measured latency is printed.
trickle        the same bound for a producer that never pauses: COLL lines
               every half millisecond around the deciding line.
closed-stdout  stdout closed after the first byte: the findings and the
               verdict still reach stderr, and the exit status is unchanged.
"""

import os
import subprocess
import sys
import threading
import time

# NCCL 2.18.3 lines (real formats, see shared reference): two hosts, a
# socket link between them.
INIT_0 = (b"gpu009:3030:3030 [0] NCCL INFO ncclCommInitRank comm 0x55d0 rank 0 nranks 2 cudaDev 0 "
          b"nvmlDev 0 busId 18000 commId 0x52e965372ad155ed - Init START\n")
INIT_1 = (b"gpu028:4040:4040 [0] NCCL INFO ncclCommInitRank comm 0x66e0 rank 1 nranks 2 cudaDev 0 "
          b"nvmlDev 0 busId 18000 commId 0x52e965372ad155ed - Init START\n")
SEND_01 = b"gpu009:3030:3030 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0\n"
RECV_01 = b"gpu028:4040:4040 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0\n"
DONE_0 = (b"gpu009:3030:3030 [0] NCCL INFO ncclCommInitRank comm 0x55d0 rank 0 nranks 2 cudaDev 0 "
          b"nvmlDev 0 busId 18000 commId 0x52e965372ad155ed - Init COMPLETE\n")


def run(binary, args, data):
    return subprocess.run([binary, "check", "--color", "never"] + args, input=data, capture_output=True)


def test_tee(binary):
    # CRLF, a NUL inside an NCCL line, ANSI colour, invalid UTF-8, no final newline.
    data = (b"job starting\r\n" + INIT_0.replace(b"\n", b"\r\n") + INIT_1 + b"\x00binary\x00junk\xff\xfe\n" +
            SEND_01.replace(b"INFO", b"INFO\x00") + b"\x1b[31mred\x1b[0m\r\n" + RECV_01 + DONE_0 +
            b"last line without newline")
    tee = run(binary, ["--tee", "-"], data)
    plain = run(binary, ["-"], data)
    failures = []
    if tee.stdout != data:
        failures.append(f"stdout differs from stdin: {len(tee.stdout)} bytes vs {len(data)}")
    if tee.returncode != plain.returncode:
        failures.append(f"exit status {tee.returncode} with --tee, {plain.returncode} without")
    if b"verdict: FAIL" not in tee.stderr or b"[ND3001 inter-node-socket]" not in tee.stderr:
        failures.append("stderr lacks the finding or the verdict:\n" + tee.stderr.decode(errors="replace"))
    # From a file, and with no input argument (standard input by default).
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"nd-tee-{os.getpid()}.log")
    with open(path, "wb") as f:
        f.write(data)
    try:
        from_file = subprocess.run([binary, "check", "--tee", path], capture_output=True)
    finally:
        os.unlink(path)
    if from_file.stdout != data:
        failures.append("a file input is not copied byte for byte")
    bare = subprocess.run([binary, "check", "--tee"], input=data, capture_output=True)
    if bare.stdout != data or bare.returncode != plain.returncode:
        failures.append("`check --tee` without an input does not read standard input")
    # A large input goes through unchanged too (several reads, partial lines).
    big = (INIT_0 + INIT_1 + SEND_01) * 20000 + b"tail"
    if run(binary, ["--tee", "-"], big).stdout != big:
        failures.append("a 4 MB input is not copied byte for byte")
    return failures


def test_latency(binary):
    bound_ms = float(os.environ.get("ND_LIVE_BOUND_MS", "100"))
    proc = subprocess.Popen([binary, "check", "--tee", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0)
    seen = {}
    copied = {}

    def read_stderr():
        for line in iter(proc.stderr.readline, b""):
            now = time.monotonic()
            if b"[ND3001 inter-node-socket]" in line and "finding" not in seen:
                seen["finding"] = now

    def read_stdout():
        buf = b""
        while True:
            chunk = proc.stdout.read1(65536) if hasattr(proc.stdout, "read1") else os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            buf += chunk
            if RECV_01 in buf and "recv" not in copied:
                copied["recv"] = time.monotonic()

    threads = [threading.Thread(target=read_stderr), threading.Thread(target=read_stdout)]
    for t in threads:
        t.start()
    written = {}
    # A slow producer: one line every 300 ms; RECV_01 places rank 1's host for
    # the link 0 -> 1 announced by SEND_01 (both hosts known from Init START
    # already, so SEND_01 itself decides it). Measure from SEND_01.
    for name, line in [("init0", INIT_0), ("init1", INIT_1), ("send", SEND_01), ("recv", RECV_01)]:
        time.sleep(0.3)
        written[name] = time.monotonic()
        proc.stdin.write(line)
        proc.stdin.flush()
    time.sleep(0.5)  # the input is still open: findings must not wait for EOF
    at_eof = time.monotonic()
    proc.stdin.close()
    for t in threads:
        t.join()
    proc.wait()
    failures = []
    if "finding" not in seen:
        return ["the socket finding never reached stderr"]
    latency = (seen["finding"] - written["send"]) * 1000
    tee_latency = (copied.get("recv", float("inf")) - written["recv"]) * 1000
    print(f"live finding latency: {latency:.1f} ms after the deciding line (bound {bound_ms:.0f} ms)")
    print(f"tee copy latency: {tee_latency:.1f} ms")
    if seen["finding"] >= at_eof:
        failures.append("the finding was printed only at end of input")
    if latency > bound_ms:
        failures.append(f"finding latency {latency:.1f} ms exceeds {bound_ms:.0f} ms")
    if tee_latency > bound_ms:
        failures.append(f"tee latency {tee_latency:.1f} ms exceeds {bound_ms:.0f} ms")
    if proc.returncode != 1:
        failures.append(f"exit status {proc.returncode}, expected 1")
    return failures


def test_trickle(binary):
    bound_ms = float(os.environ.get("ND_LIVE_BOUND_MS", "100"))
    proc = subprocess.Popen([binary, "check", "--tee", "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, bufsize=0)
    seen = {}

    def read_stderr():
        for line in iter(proc.stderr.readline, b""):
            if b"[ND3001 inter-node-socket]" in line and "finding" not in seen:
                seen["finding"] = time.monotonic()

    reader = threading.Thread(target=read_stderr)
    reader.start()
    # NCCL 2.18.3 COLL lines of rank 0, one per 0.5 ms: the input never pauses
    # for long, so chunks go out on their age, not on a pause.
    coll = (b"gpu009:3030:3030 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x7f2f3a000000 recvbuff "
            b"0x7f2f3a000000 count 262144 datatype 7 op 0 root 0 comm 0x55d0 [nranks=2] stream 0x55d786a0f720\n")
    proc.stdin.write(INIT_0 + INIT_1)
    written = None
    start = time.monotonic()
    n = 0
    while time.monotonic() - start < 1.0:
        if n == 200:
            proc.stdin.write(SEND_01)
            written = time.monotonic()
        proc.stdin.write(coll)
        n += 1
        time.sleep(0.0005)
    at_eof = time.monotonic()
    proc.stdin.close()
    reader.join()
    proc.wait()
    if "finding" not in seen:
        return ["the socket finding never reached stderr"]
    latency = (seen["finding"] - written) * 1000
    print(f"live finding latency under a steady trickle: {latency:.1f} ms (bound {bound_ms:.0f} ms)")
    failures = []
    if seen["finding"] >= at_eof:
        failures.append("the finding was printed only at end of input")
    if latency > bound_ms:
        failures.append(f"finding latency {latency:.1f} ms exceeds {bound_ms:.0f} ms")
    return failures


def test_closed_stdout(binary):
    r, w = os.pipe()
    proc = subprocess.Popen([binary, "check", "--tee", "-"], stdin=subprocess.PIPE, stdout=w,
                            stderr=subprocess.PIPE)
    os.close(w)
    proc.stdin.write(INIT_0)
    proc.stdin.flush()
    os.read(r, 1)  # like `| head -c 1`
    os.close(r)
    # Enough input after the close to need several writes to the dead pipe.
    rest = INIT_1 + SEND_01 + RECV_01 + DONE_0 + b"x" * 200000 + b"\n"
    try:
        proc.stdin.write(rest)
        proc.stdin.close()
    except BrokenPipeError:
        return ["nccl-doctor stopped reading its input after stdout closed"]
    err = proc.stderr.read().decode(errors="replace")
    proc.wait()
    failures = []
    if proc.returncode != 1:
        failures.append(f"exit status {proc.returncode}, expected 1 (as without --tee)")
    for needle in ["[ND3001 inter-node-socket]", "verdict: FAIL", "standard output was closed"]:
        if needle not in err:
            failures.append(f"stderr lacks {needle!r}:\n{err}")
    return failures


def main():
    binary, which = sys.argv[1], sys.argv[2]
    tests = {"tee": test_tee, "latency": test_latency, "trickle": test_trickle, "closed-stdout": test_closed_stdout}
    failures = tests[which](binary)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
