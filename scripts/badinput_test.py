#!/usr/bin/env python3
"""Bad input end to end: every case gets a clear message and its documented
exit status, never a crash, a hang or unbounded memory."""
import json
import os
import re
import subprocess
import sys
import tempfile

BIN = os.path.realpath(sys.argv[1])
failures = []
SOCKET_PAIR = (b"gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0\n"
               b"gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE\n"
               b"gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE")


def run(args, stdin=b"", timeout=60, stdout=subprocess.PIPE):
    p = subprocess.run([BIN] + args, input=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, (p.stdout or b"").decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def expect(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name)
    if not cond:
        failures.append(name)
        if detail:
            print("     " + detail.replace("\n", "\n     "))


def last_line(text):
    lines = [l for l in text.splitlines() if l]
    return lines[-1] if lines else ""


with tempfile.TemporaryDirectory() as tmp:
    os.chdir(tmp)

    rc, out, err = run(["check", "missing.log"])
    expect("missing file exits 2 with a message", rc == 2 and
           err == "nccl-doctor: error: cannot open 'missing.log': No such file or directory\n", err)

    os.mkdir("adir")
    rc, out, err = run(["check", "adir"])
    expect("directory exits 2", rc == 2 and err == "nccl-doctor: error: cannot read 'adir': is a directory\n", err)

    open("ok.log", "wb").write(SOCKET_PAIR + b"\n")
    rc, out, err = run(["check", "missing.log", "ok.log"])
    expect("other inputs are still checked after a missing one", rc == 2 and "inter-node-socket" in out, out)

    rc, out, err = run(["check", "--bogus", "ok.log"])
    expect("unknown flag exits 3", rc == 3 and "--bogus" in err, err)
    # No input named: standard input when it is a pipe, a usage error when it is a terminal.
    import pty
    terminal, other_end = pty.openpty()
    p = subprocess.run([BIN, "check"], stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    os.close(terminal)
    os.close(other_end)
    err = p.stderr.decode()
    expect("no input with a terminal on stdin exits 3", p.returncode == 3 and
           err.startswith("no input: name log files, or pipe one in (job 2>&1 | nccl-doctor check)"), err)
    rc, out, err = run(["check"], stdin=SOCKET_PAIR)
    expect("no input named reads a piped stdin", rc == 1 and "[ND3001 inter-node-socket]" in out, out + err)
    rc, out, err = run(["check", "--format", "xml", "ok.log"])
    expect("bad option value exits 3", rc == 3 and "xml" in err, err)
    rc, out, err = run([])
    expect("no subcommand exits 3", rc == 3, err)
    # A lone --version builds no command's options; it reads the same as with a command named.
    for args in (["--version"], ["--version", "check"]):
        rc, out, err = run(args)
        expect(" ".join(args) + " prints the version and exits 0",
               rc == 0 and re.fullmatch(r"nccl-doctor \d+\.\d+\.\d+\n", out) is not None and err == "", out + err)

    # Nothing from NCCL is nothing to judge: exit 4 with a reason, never 0.
    open("empty.log", "wb").close()
    rc, out, err = run(["check", "empty.log"])
    expect("empty file exits 4, inconclusive, with a message",
           rc == 4 and last_line(out) == "verdict: INCONCLUSIVE (0 errors, 0 warnings, 0 notes)" and
           err == "nccl-doctor: error: the input is empty: did the job die before it printed anything?\n", out + err)
    rc, out, err = run(["check", "-"], stdin=b"")
    expect("empty stdin exits 4", rc == 4 and "the input is empty" in err, err)
    rc, out, err = run(["check", "-"], stdin=b"Traceback (most recent call last):\nKeyError: 'x'\n")
    expect("output with no NCCL line exits 4", rc == 4 and "holds no NCCL debug line" in err, err)
    # nccl-tests that died after its header measured nothing: said so, not as a missing NCCL log.
    header_only = (b"# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20\n"
                   b"#\n# Using devices\n"
                   b"#  Rank  0 Group  0 Pid 895544 on     h100-2 device  0 [0002:00:01] NVIDIA H100 80GB HBM3\n"
                   b"#  Rank  1 Group  0 Pid 895545 on     h100-2 device  1 [0002:00:02] NVIDIA H100 80GB HBM3\n")
    rc, out, err = run(["check", "-"], stdin=header_only)
    expect("an nccl-tests header without result rows exits 4, named as such", rc == 4 and
           err == "nccl-doctor: error: the nccl-tests output stops before its first result row: nothing was "
                  "measured (did the test fail, or is the paste cut short?)\n", err)

    # A named pipe is opened once and read as a stream, beside regular files.
    os.mkfifo("job.fifo")
    open("first.log", "wb").write(SOCKET_PAIR + b"\n")
    writer = subprocess.Popen(["sh", "-c", "cat first.log > job.fifo"])
    rc, out, err = run(["check", "first.log", "job.fifo"], timeout=30)
    writer.wait(timeout=30)
    expect("a named pipe among the inputs is read, its writer undisturbed", rc == 1 and writer.returncode == 0 and
           "[ND3001 inter-node-socket]" in out and "input: 6 lines read" in out,
           out + err)

    # Deterministic binary garbage with NULs and stray newlines.
    garbage = bytes((i * 7919 + 13) % 256 for i in range(2_000_000))
    open("garbage.bin", "wb").write(garbage)
    rc, out, err = run(["check", "garbage.bin"])
    expect("binary garbage does not crash and exits 4", rc == 4 and "verdict: INCONCLUSIVE" in out, out + err)

    # A compressed log is named as such, from a file and from a pipe.
    import gzip
    open("job.log.gz", "wb").write(gzip.compress(SOCKET_PAIR))
    open("job.log", "wb").write(SOCKET_PAIR)
    _, plain, _ = run(["check", "--format", "json", "job.log"])
    rc, out, err = run(["check", "--format", "json", "job.log.gz"])
    expect("a gzip file is read as its plain text", rc == 1 and err == "" and
           out == plain.replace('"job.log"', '"job.log.gz"'), err)
    open("cut.log.gz", "wb").write(gzip.compress(SOCKET_PAIR * 50)[:-40])
    rc, out, err = run(["check", "cut.log.gz"])
    expect("a cut gzip file exits 2, saying so, after reading what it holds", rc == 2 and
           err == "nccl-doctor: error: error reading 'cut.log.gz': truncated gzip data (the lines before it were "
                  "read)\n" and "[ND3001 inter-node-socket]" in out, err)
    import bz2
    open("job.log.bz2", "wb").write(bz2.compress(SOCKET_PAIR))
    rc, out, err = run(["check", "job.log.bz2"])
    expect("a bzip2 file exits 2 and says how to read it", rc == 2 and
           err == "nccl-doctor: error: cannot read 'job.log.bz2': it is bzip2-compressed; decompress it first: "
                  "bzcat 'job.log.bz2' | nccl-doctor check -\n", err)
    rc, out, err = run(["check", "-"], stdin=gzip.compress(SOCKET_PAIR))
    expect("gzip on stdin exits 2", rc == 2 and "<stdin>' : it is gzip-compressed".replace("' :", "':") in err, err)

    # Quoted source code that names "NCCL error" is not an NCCL error.
    quoted = SOCKET_PAIR + b"\n    m = re.search(r'NCCL error in: .*, (.*?), NCCL version', line)\n"
    rc, out, err = run(["check", "-"], stdin=quoted)
    expect("a regex in quoted code is not reported as an NCCL error", "(.*?)" not in out, out)

    # NUL bytes and invalid UTF-8 inside NCCL lines; no final newline.
    dirty = SOCKET_PAIR.replace(b"NET/Socket/0\n", b"NET/Socket/0\x00\xff\xfe\n", 1)
    open("dirty.log", "wb").write(dirty)
    rc, out, err = run(["check", "dirty.log"])
    expect("NUL bytes and invalid UTF-8 are read around", rc == 1 and "[ND3001 inter-node-socket]" in out, out)
    p = subprocess.run([BIN, "check", "--format", "json", "dirty.log"], capture_output=True, timeout=60)
    try:
        report = json.loads(p.stdout.decode("utf-8"))  # strict: invalid UTF-8 raises
        judged = [f["id"] for f in report["findings"]]
    except (UnicodeDecodeError, ValueError, KeyError) as e:
        judged = [f"not valid UTF-8 JSON: {e}"]
    expect("JSON stays valid UTF-8", p.returncode == 1 and "ND3001" in judged, repr(judged))

    rc, out, err = run(["check", "-"], stdin=SOCKET_PAIR.replace(b"\n", b"\n", 1))
    expect("truncated last line is still read", rc == 1 and "rank 0 on gpuA -> rank 1 on gpuB" in out, out)

    absurd = (b"gpuA:1:1 [0] NCCL INFO Channel 00/0 : 184467440737095516160[0] -> 1[0] via P2P/IPC\n"
              b"gpuA:1:1 [0] NCCL INFO Channel 99999999999999999999999 : 0[0] -> 1[0] via P2P/IPC\n"
              b"gpuA:1:1 [0] NCCL INFO comm 0x1 rank 5 nranks -3 cudaDev 0 busId 1 - Init COMPLETE\n")
    rc, out, err = run(["check", "-"], stdin=absurd)
    expect("absurd numbers become a malformed-lines finding",
           rc == 0 and "2 NCCL lines with out-of-range ranks, channels or counts were skipped [ND1002 malformed-lines]" in out,
           out)

    # A 300 MB line without a newline: bounded memory, no hang. Measured
    # against the same binary doing nothing (`--version`): a sanitizer build
    # starts at well over 100 MB, a plain one near 5 MB.
    def peak_rss_mb(proc):
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        return usage.ru_maxrss / 1024

    idle = subprocess.Popen([BIN, "--version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    idle_mb = peak_rss_mb(idle)
    proc = subprocess.Popen([BIN, "check", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    chunk = b"x" * (1 << 20)
    for _ in range(300):
        proc.stdin.write(chunk)
    proc.stdin.close()
    out = proc.stdout.read().decode()
    proc.stderr.read()
    grown_mb = peak_rss_mb(proc) - idle_mb
    expect(f"300 MB line without newline: exit 4 (no NCCL line), RSS {grown_mb:.0f} MB above an idle run < 64 MB",
           proc.returncode == 4 and grown_mb < 64 and "1 line was longer than 64 KiB" in out, out)

    # Standard output closed before the report is written.
    r, w = os.pipe()
    os.close(r)
    big = b"".join(b"gpu%d:1:1 [0] NCCL INFO Frobnicate %d\n" % (i, i) for i in range(2000))
    open("many.log", "wb").write(big + SOCKET_PAIR)
    p = subprocess.run([BIN, "check", "--max-evidence", "1000", "many.log"], stdout=w, stderr=subprocess.PIPE, timeout=60)
    os.close(w)
    err = p.stderr.decode()
    expect("stdout closed early exits 2 with a message",
           p.returncode == 2 and "cannot write the report to standard output: Broken pipe" in err, err)

print(f"{'FAILED: ' + ', '.join(failures) if failures else 'all bad-input cases passed'}")
sys.exit(1 if failures else 0)
