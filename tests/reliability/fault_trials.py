#!/usr/bin/python3
"""Faults at random moments of a sweep, each followed by --resume and compared with an
uninterrupted run (docs/output.md, "What a commit guarantees").

usage: fault_trials.py --pimdse EXE --mpiexec MPIEXEC --source DIR --work DIR
                       [--np N] [--trials N] [--kinds K,K,...] [--seed S] [--cheap]

Kinds (a trial picks its moment inside a batch drawn uniformly, or, one time in ten, while
the run starts):
  sigterm_mpirun, sigint_mpirun, sigkill_mpirun   the signal to mpirun (np > 0 only)
  sigterm_rank0, sigint_rank0, sigkill_rank0      the signal to rank 0 (the writer)
  sigterm_worker, sigint_worker, sigkill_worker   the signal to rank 1 (np > 1 only)
  memory_rank0, memory_worker                     the address-space limit of that rank lowered
                                                  below what it maps now (prlimit), once the
                                                  run has printed its start line (an allocation
                                                  failing inside MPI_Init may crash Open MPI)

Signals strike tests/data/sweep/stress.yaml, whose synthetic evaluator commits many batches a
second, so many moments fall inside a batch's writes. Memory faults strike
tests/data/sweep/stress_memory.yaml, whose workers map ResNet-18 with the model evaluator:
a synthetic worker allocates nothing new once running, so a limit would never bite it.
A trial "bites" when the run it strikes ends early (a non-zero exit); the summary counts them.

With --cheap every kind strikes tests/reliability/stress_cheap.yaml instead: the predictor
filter with the cheap fidelity, whose cheap evaluations (the real model) the workers make
while the proposal waits for their costs (alone, the proposal makes them itself). Its cheap
evaluations allocate, so the memory kinds strike it as well. A proposal names its thread
"pimdse-cheap" while it waits for (or makes) cheap costs; the summary counts the faults
that struck while rank 0 had such a thread.

Every trial must end within a minute (no rank may spin or wait forever), never by a
segmentation fault; what the file it leaves holds past its commit record must read, with
h5py alone, as no row (id -1, enums `unwritten`) or as the interrupted batch's; and it must
resume (as many times as it takes) to a file equal to the uninterrupted one, timing fields
aside.
The short version (one trial per kind, each scenario) runs in ctest; jobs/reliability/fault_trials.sh
runs 50 per kind.
"""
import argparse
import fcntl
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "engine"))
from sweep_test import ENV, Failure, Sweep, check, descendants, same_files  # noqa: E402

KINDS = ["sigterm_mpirun", "sigint_mpirun", "sigkill_mpirun", "sigterm_rank0", "sigint_rank0", "sigkill_rank0",
         "sigterm_worker", "sigint_worker", "sigkill_worker", "memory_rank0", "memory_worker"]
SIGNALS = {"sigterm": signal.SIGTERM, "sigint": signal.SIGINT, "sigkill": signal.SIGKILL}
# glibc's malloc keeps freed memory and raises its mmap threshold as a process runs, so a
# worker in its steady state reuses what it holds and a lowered limit might never bite; with
# these tunables (glibc's mallopt environment names) every block of 64 KiB or more is mapped
# afresh and freed memory goes back to the system, as under real memory pressure.
MEMORY_ENV = dict(ENV, MALLOC_MMAP_THRESHOLD_="65536", MALLOC_TRIM_THRESHOLD_="131072")
CRASH_CODES = {-signal.SIGSEGV, 128 + signal.SIGSEGV, -signal.SIGABRT, 128 + signal.SIGABRT}


def rank_of(pid):
    """The MPI rank of process `pid` (0 without mpirun), from its environment."""
    try:
        env = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
    except OSError:
        return None
    for item in env:
        if item.startswith(b"OMPI_COMM_WORLD_RANK="):
            return int(item.split(b"=", 1)[1])
    return 0


def ranks(s, p):
    """{rank: pid} of run `p`'s pimdse processes."""
    name = os.path.basename(s.exe)[:15]  # /proc/PID/comm keeps 15 characters
    pids = [p.pid] if s.np == 0 else [
        pid for pid in descendants(p.pid) if open(f"/proc/{pid}/comm").read().strip() == name]
    out = {}
    for pid in pids:
        r = rank_of(pid)
        if r is not None:
            out[r] = pid
    return out


def lower_memory(pid, rng):
    """Limits `pid`'s address space to 90-100 % of what it maps now: what it holds stays, and
    any allocation that needs new address space fails from now on."""
    size = 0
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmSize:"):
            size = int(line.split()[1]) * 1024
    limit = int(size * rng.uniform(0.9, 1.0))
    resource.prlimit(pid, resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))


def in_cheap_wait(s, p):
    """Whether rank 0 has a thread making or awaiting a proposal's cheap costs (named
    "pimdse-cheap" by the engine meanwhile)."""
    pid = p.pid if s.np == 0 else ranks(s, p).get(0)
    try:
        return pid is not None and any(
            open(f"/proc/{pid}/task/{t}/comm").read().strip() == "pimdse-cheap" for t in os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return False


def inject(s, kind, p, rng):
    """Applies the fault; returns False if its target was already gone."""
    try:
        if kind.endswith("_mpirun"):
            os.kill(p.pid, SIGNALS[kind.split("_")[0]])
            return True
        rank = 0 if kind.endswith("rank0") else 1
        deadline = time.time() + 10  # mpirun may still be starting its ranks
        while (target := ranks(s, p).get(rank)) is None:
            if p.poll() is not None:
                return False
            if time.time() > deadline:
                raise Failure(f"{kind}: no rank {rank} of the running sweep found to strike")
            time.sleep(0.01)
        if kind.startswith("memory"):
            lower_memory(target, rng)
        else:
            os.kill(target, SIGNALS[kind.split("_")[0]])
        return True
    except (ProcessLookupError, FileNotFoundError):
        return False


def end_of(p, timeout=60):
    """The run's exit code; a run still going after `timeout` s is a hang."""
    try:
        return p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        raise Failure(f"the run did not end within {timeout} s of the fault (a rank spins or waits)")


TABLES = ["candidates", "metrics", "mappings/layers", "mappings/segments", "schedules", "tuner/batches", "pareto"]


def writer_gone(path, what, timeout=60):
    """Waits until no process holds the sweep's output lock (<path>.lock, an fcntl lock): a
    rank that outlives a kill of mpirun may go on writing for a while, and a reader must not
    take the commit record from one moment and the rows from a later one."""
    deadline = time.time() + timeout
    while os.path.exists(path + ".lock"):
        try:
            with open(path + ".lock", "r+") as lock:
                fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
        except (BlockingIOError, PermissionError):
            check(time.time() < deadline, f"{what}: a rank still holds the output lock {timeout} s after the fault")
            time.sleep(0.05)
        except FileNotFoundError:
            return


def rows_past_commit(path, what):
    """What the fault left past each table's commit record reads, with h5py alone, as no row
    (id -1, every enum -1 = unwritten) or as a row of the one interrupted batch: a candidate
    of that batch, never a committed one (docs/output.md, "What a commit guarantees"). A
    chunk that fails its checksum (the tail chunk an interrupted batch was rewriting) is
    skipped; returns how many rows were checked."""
    import h5py
    checked = 0
    with h5py.File(path, "r") as f:
        batches, *counts = (int(v) for v in f["commit"][()])
        candidates = counts[0]
        for name, n in zip(TABLES, counts):
            d = f[name]
            chunk = d.chunks[0]
            enums = [e for e in d.dtype.names if h5py.check_enum_dtype(d.dtype[e]) is not None]
            key = "batch" if name == "tuner/batches" else "candidate"
            for first in range(n // chunk * chunk, len(d), chunk):
                try:
                    rows = d[max(first, n):first + chunk]
                except OSError:
                    continue
                checked += len(rows)
                unwritten = rows[key] == -1
                for e in enums:
                    check((rows[e][unwritten] == -1).all(), f"{what}: /{name}: an unwritten row whose {e} is not -1")
                    check((rows[e][~unwritten] >= 0).all(), f"{what}: /{name}: a written row whose {e} is -1")
                ids = rows[key][~unwritten]
                if name == "tuner/batches":
                    check((ids == batches).all(), f"{what}: /{name}: rows past the commit record of batches {ids}")
                else:
                    check((ids >= candidates).all(), f"{what}: /{name}: committed candidates {ids} past the record")
                if name == "candidates":
                    check((rows["batch"][~unwritten] == batches).all(), f"{what}: /candidates: a row past the "
                          "commit record of another batch than the interrupted one")
    return checked


def trial(s, kind, cfg, ref, batches, period, rng, n):
    out = s.fresh(f"trial_{kind}_np{s.np}.h5")
    log = open(out + ".log", "w+")
    p = subprocess.Popen(s.command(["explore", cfg, "-o", out]), env=MEMORY_ENV if kind.startswith("memory") else ENV,
                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    # The moment: one time in ten while the run starts (before its first batch, the output
    # being created), else inside a batch drawn uniformly, at a uniform point of a batch's
    # length: the fault always meets a running sweep, whatever the machine's speed.
    began = time.time()
    if rng.random() < 0.1 and not kind.startswith("memory"):
        target, offset = None, rng.uniform(0.0, 1.0)
    else:
        # Memory faults not before pimdse's own code runs: an allocation that fails inside
        # MPI_Init (Open MPI, its network libraries) may crash there, which no code of
        # pimdse can answer.
        target, offset = rng.randrange(0, batches - 1), rng.uniform(0.0, period)
    while p.poll() is None:
        text = open(out + ".log").read()
        if target is None or re.search(rf"batch {target}:", text) or (target == 0 and "pimdse explore:" in text):
            break
        time.sleep(0.005)
    time.sleep(offset)
    delay = time.time() - began
    cheap = in_cheap_wait(s, p)
    injected = inject(s, kind, p, rng)
    code = end_of(p)
    try:
        os.killpg(p.pid, signal.SIGKILL)  # any rank mpirun left behind
    except ProcessLookupError:
        pass
    log.seek(0)
    text = log.read()
    if code in CRASH_CODES or "Segmentation fault" in text or "Signal code" in text:
        print(text)
        raise Failure(f"{kind} trial {n}: a crash (exit {code}) at {delay:.2f} s")
    if os.path.exists(out):
        writer_gone(out, f"{kind} trial {n}")
        rows_past_commit(out, f"{kind} trial {n}")
    resumes = 0
    while True:
        if os.path.exists(out):
            q = s.run(["explore", cfg, "-o", out, "--resume"], expect=None, timeout=300)
        else:
            # Killed while creating the file: nothing was committed, and the .part it left is
            # refused until removed, as the refusal says (docs/cli.md).
            if os.path.exists(out + ".part"):
                os.remove(out + ".part")
            q = s.run(["explore", cfg, "-o", out], expect=None, timeout=300)
        resumes += 1
        if q.returncode == 0:
            break
        check(resumes < 3, f"{kind} trial {n}: the run after the fault failed (exit {q.returncode})")
    same_files(ref, out)
    return delay, code, injected, cheap


def with_budget(s, cfg, budget):
    """A copy of `cfg` in the work directory with another budget (its relative paths made
    absolute)."""
    here = os.path.dirname(os.path.abspath(cfg))
    lines = []
    for line in open(cfg):
        if line.strip().startswith("budget:"):
            line = f"  budget: {budget}\n"
        line = re.sub(r"(network: )(\.\./[^,}]*)", lambda m: m[1] + os.path.normpath(os.path.join(here, m[2])), line)
        lines.append(line)
    out = s.out(f"{os.path.splitext(os.path.basename(cfg))[0]}_budget{budget}.yaml")
    open(out, "w").write("".join(lines))
    return out


def reference(s, cfg):
    """The uninterrupted run of `cfg`: its file, its batch count and a batch's length [s]."""
    name = os.path.splitext(os.path.basename(cfg))[0]
    ref = s.fresh(f"trial_ref_{name}_np{s.np}.h5")
    began = time.time()
    s.run(["explore", cfg, "-o", ref], timeout=300)
    duration = time.time() - began
    import h5py
    with h5py.File(ref, "r") as f:
        batches = int(f["commit"][0])
        walls = f["tuner/batches"]["wall_seconds"][:]
    period = float(walls[-1] - walls[0]) / max(batches - 1, 1)
    print(f"uninterrupted run of {name}: {duration:.2f} s, {batches} batches of {period:.3f} s")
    return ref, batches, period


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pimdse", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--np", type=int, default=3)
    ap.add_argument("--trials", type=int, default=2)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cheap", action="store_true",
                    help="every kind strikes stress_cheap.yaml (the filter's cheap level on)")
    ap.add_argument("--budget", type=int, default=0, help="the signal trials' budget (default: stress.yaml's)")
    ap.add_argument("--memory-budget", type=int, default=0,
                    help="the memory trials' budget (default: stress_memory.yaml's)")
    args = ap.parse_args()
    s = Sweep(args)
    kinds = [k for k in args.kinds.split(",") if k]
    if s.np == 0:
        kinds = [k for k in kinds if not k.endswith(("_mpirun", "_worker"))]
    if s.np == 1:
        kinds = [k for k in kinds if not k.endswith("_worker")]
    groups = []  # (configuration, its budget, its kinds)
    if args.cheap:
        groups.append((os.path.join(HERE, "stress_cheap.yaml"), args.budget, kinds))
    else:
        groups.append((s.data("stress.yaml"), args.budget, [k for k in kinds if not k.startswith("memory")]))
        groups.append((s.data("stress_memory.yaml"), args.memory_budget, [k for k in kinds if k.startswith("memory")]))
    groups = [(with_budget(s, cfg, budget) if budget > 0 else cfg, group) for cfg, budget, group in groups if group]
    rng = random.Random(args.seed)
    tally = {}
    try:
        for cfg, group in groups:
            ref, batches, period = reference(s, cfg)
            for n in range(args.trials):
                for kind in group:
                    delay, code, injected, cheap = trial(s, kind, cfg, ref, batches, period, rng, n)
                    tally.setdefault(kind, []).append((delay, code, injected, cheap))
                    wait = ", during a cheap wait" if cheap else ""
                    print(f"TRIAL {kind} {n}: fault at {delay:.2f} s{wait}, exit {code}, resumed equal", flush=True)
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    for kind, rows in tally.items():
        codes = sorted({c for _, c, _, _ in rows})
        hit = sum(1 for _, _, i, _ in rows if i)
        bit = sum(1 for _, c, i, _ in rows if i and c != 0)
        waits = sum(1 for _, _, i, w in rows if i and w)
        print(f"{kind}: {len(rows)} trials, {hit} with the fault injected before the run ended, "
              f"{bit} of them ending it early, {waits} during a cheap wait, exit codes {codes}, every "
              f"resume equal to the uninterrupted file")
    print("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
