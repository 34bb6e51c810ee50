#!/usr/bin/env python3
"""End-to-end tests of `nccl-doctor check --tee -` (live pipe mode).

  live_test.py NCCL_DOCTOR tee|latency|trickle|closed-stdout|hang-after [--measure]

tee            stdin is copied to stdout byte for byte (CRLF, NUL, no final
               newline), from a pipe and from a file; the exit status is the
               same as without --tee.
latency        a slow producer writes the line that decides a socket finding
               and writes nothing more until the finding is on stderr: it must
               come while the input is still open, not at its end.
trickle        the same for a producer that never pauses: COLL lines every
               half millisecond go on until the finding is out.
--measure      also print the latency (bench/run.sh reports it; the tests
               assert order, never time, so that sanitizers and slow
               machines cannot fail them).
closed-stdout  stdout closed after the first byte: the findings and the
               verdict still reach stderr, and the exit status is unchanged.
hang-after     ranks in init and then silence: --hang-after reports the hang
               while the input is open and the report counts it as an error.
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


class Watch:
    """Reads a stream of a running `check --tee -` and notes when `needle`
    arrives; `wait()` blocks until it does or `timeout` passes."""

    def __init__(self, stream, needle=b"[ND3001 inter-node-socket]"):
        self.event = threading.Event()
        self.at = None
        self.needle = needle
        self.thread = threading.Thread(target=self._read, args=(stream,))
        self.thread.start()

    def _read(self, stream):
        seen = b""
        while True:
            chunk = os.read(stream.fileno(), 65536)
            if not chunk:
                break
            seen = seen[-len(self.needle):] + chunk
            if self.needle in seen and not self.event.is_set():
                self.at = time.monotonic()
                self.event.set()

    def wait(self, timeout):
        return self.event.wait(timeout)


# A finding is live when it reaches stderr before the producer writes again.
# The producer waits this long for it; far beyond any sane latency, so the
# tests assert the order of events, never a time (latency is in bench/).
PATIENCE_S = 20.0


def test_latency(binary, measure=False):
    proc = subprocess.Popen([binary, "check", "--tee", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0)
    watch = Watch(proc.stderr)
    copy = Watch(proc.stdout, SEND_01)
    failures = []
    # A slow producer: both hosts known from Init START, so SEND_01 decides
    # the socket link. The next line is written only once the finding is out.
    for line in [INIT_0, INIT_1]:
        proc.stdin.write(line)
        time.sleep(0.05)
    if watch.event.is_set():
        failures.append("the socket finding came before the line that decides it")
    proc.stdin.write(SEND_01)
    written = time.monotonic()
    if not watch.wait(PATIENCE_S):
        failures.append(f"no finding within {PATIENCE_S:.0f} s of the deciding line while the input stayed open")
    if not copy.wait(PATIENCE_S):
        failures.append("--tee did not copy the deciding line out while the input stayed open")
    proc.stdin.write(RECV_01 + DONE_0)
    proc.stdin.close()
    watch.thread.join()
    copy.thread.join()
    proc.wait()
    if watch.at is not None and measure:
        print(f"live finding latency: {(watch.at - written) * 1000:.1f} ms after the deciding line")
        print(f"tee copy latency: {(copy.at - written) * 1000:.1f} ms")
    if proc.returncode != 1:
        failures.append(f"exit status {proc.returncode}, expected 1")
    return failures


def test_trickle(binary, measure=False):
    proc = subprocess.Popen([binary, "check", "--tee", "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, bufsize=0)
    watch = Watch(proc.stderr)
    # NCCL 2.18.3 COLL lines of rank 0, one per 0.5 ms: the input never pauses
    # for long, so chunks must go out on their age, not on a pause. The
    # producer goes on until the finding is out (or PATIENCE_S passes).
    coll = (b"gpu009:3030:3030 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x7f2f3a000000 recvbuff "
            b"0x7f2f3a000000 count 262144 datatype 7 op 0 root 0 comm 0x55d0 [nranks=2] stream 0x55d786a0f720\n")
    proc.stdin.write(INIT_0 + INIT_1)
    for _ in range(200):
        proc.stdin.write(coll)
        time.sleep(0.0005)
    proc.stdin.write(SEND_01)
    written = time.monotonic()
    while not watch.event.is_set() and time.monotonic() - written < PATIENCE_S:
        proc.stdin.write(coll)
        time.sleep(0.0005)
    still_open = watch.event.is_set()
    proc.stdin.close()
    watch.thread.join()
    proc.wait()
    if watch.at is None:
        return ["the socket finding never reached stderr"]
    if measure:
        print(f"live finding latency under a steady trickle: {(watch.at - written) * 1000:.1f} ms")
    if not still_open:
        return [f"the finding waited for the end of input: none within {PATIENCE_S:.0f} s of a steady trickle"]
    return []


def test_hang_after(binary):
    # Rank 0 begins init and the job goes quiet: with --hang-after 1s the
    # hang is reported while the input is still open, and the final report
    # makes it an error (exit 1). Without the option, the same input is an
    # excerpt: a note, exit 0.
    proc = subprocess.Popen([binary, "check", "--color", "never", "--tee", "--hang-after", "1s", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, bufsize=0)
    watch = Watch(proc.stderr, b"[ND1100 init-incomplete]")
    proc.stdin.write(INIT_0 + INIT_1)
    failures = []
    if not watch.wait(PATIENCE_S):
        failures.append(f"no hang reported within {PATIENCE_S:.0f} s of silence with --hang-after 1s")
    proc.stdin.close()
    watch.thread.join()
    proc.wait()
    if proc.returncode != 1:
        failures.append(f"exit status {proc.returncode} after a reported hang, expected 1")
    quiet = run(binary, ["-"], INIT_0 + INIT_1)
    if quiet.returncode != 0 or b"info: the input ends before" not in quiet.stdout:
        failures.append("without --hang-after the same input is not a note with exit 0:\n" + quiet.stdout.decode())
    bad = run(binary, ["--hang-after", "soon", "-"], b"")
    if bad.returncode != 3 or b"not a duration: soon" not in bad.stderr:
        failures.append("--hang-after soon is not a usage error: " + bad.stderr.decode())
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
    measure = "--measure" in sys.argv[3:]
    tests = {"tee": test_tee, "latency": test_latency, "trickle": test_trickle, "closed-stdout": test_closed_stdout,
             "hang-after": test_hang_after}
    failures = tests[which](binary, measure) if which in ("latency", "trickle") else tests[which](binary)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
