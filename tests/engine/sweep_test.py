#!/usr/bin/python3
"""Integration tests of `pimdse explore` and `pimdse summary` (registered in
tests/engine/CMakeLists.txt; one scenario per ctest entry).

usage: sweep_test.py SCENARIO --pimdse EXE --mpiexec MPIEXEC --source DIR --work DIR [--np N]

Scenarios:
  run          run tests/data/sweep/tiny.yaml on --np ranks (0: without mpirun) into
               WORK/tiny_npN.h5
  identical    run it on --np ranks and compare with WORK/tiny_np0.h5 (compare_sweeps.py)
  kill_resume  SIGKILL a run of faults.yaml in the middle of batch 1, resume it, and compare
               with an uninterrupted run
  faults       faults.yaml: the throwing and the stalling candidate are recorded, the sweep ends
  cpu_hog      tiny.yaml beside a busy loop on every core writes the same file as the quiet run
  tables       Debian's h5py and pandas read every table of a sweep file; every field has its
               meaning attribute and appears in docs/output.md
  resume_rules no overwrite without --force; --resume refuses another configuration saying
               what differs; resuming a finished sweep with a larger budget extends it
  bad_inputs   missing/malformed configuration, unwritable output, corrupt or foreign HDF5
               for --resume and summary: a clear message, a non-zero exit, no output left
  wall_time    a sweep stopped by its wall time ends cleanly, resumably
  wall_time_keeps  a wall-time stop starts no batch it cannot finish and finishes the
               started ones: every evaluation of the run is written; with --status-file
               the stop exits 0 and the file says wall_time_stop
  plots        postprocess/sweep_plots.py draws its three plots (PNG, PDF, SVG) from a sweep file
  synthetic    the synthetic evaluator with a lag of 3 and output.mappings: front: the same
               file without mpirun and on --np ranks, and exactly the candidates on the front
               or among the best 2 when their batch was written keep their mapping rows
  model_share  a 48-evaluation nicepim sweep of tiny.yaml's space under the default lag
               proposes at least half of its candidates from a fitted model, in batches of 8
               and of 4, and the same file on --np ranks; sweep.proposer_options reaches it
  small_space  a 4-point space with a budget of 16 is evaluated exactly 4 times by every
               proposer, which then stops for an exhausted space; resuming adds nothing
  objectives   a sweep over average power and throughput keeps exactly the candidates no
               other candidate beats in both as its front
  crossbar     crossbar.yaml (the crossbar family) on --np ranks writes the same file as
               without mpirun: the family's parameter and energy columns, designs over the
               area budget infeasible, energy parts summing to the energy
  hetero3d     hetero3d.yaml (the hetero3d family: every stack of 4 tiers, grid proposer) on
               --np ranks and on 2 ranks writes the same file: 81 rows, the 16 stacks without an
               SRAM tier infeasible saying why, the family's columns, energy parts summing to
               the energy, and the Python reader (python/pimdse) opens it; stopped at 45 of its
               81 evaluations and resumed on --np ranks, the uninterrupted run's /candidates
               and /metrics; SIGKILLed after batch 2 and resumed, the same
  crossbar_resume  crossbar.yaml stopped at 12 of its 24 evaluations and resumed on --np
               ranks gives the /candidates and /metrics of an uninterrupted run
  amosa        an `amosa` sweep of tiny.yaml's space (synthetic evaluator, lag 2, options
               set) writes the same file on --np ranks as without mpirun, evaluates no point
               twice, and stopped at half its budget and resumed gives the /candidates and
               /metrics of the uninterrupted run
  xgboost      an `xgboost` sweep of tiny.yaml's space (synthetic evaluator, lag 2, small
               ensemble) writes the same file on --np ranks as without mpirun, proposes 24 of
               its 32 candidates from the boosted trees, evaluates no point twice, and stopped
               at half its budget and resumed gives the uninterrupted run's /candidates and
               /metrics
  filter       a `random` sweep of tiny.yaml's space behind the predictor filter (xgboost,
               pool 4; synthetic evaluator, lag 2) writes the same file on --np ranks as
               without mpirun, evaluates no point twice, records a tau in [-1, 1] and a
               relative error >= 0 for every batch proposed after two successes (NaN before),
               and stopped at half its budget and resumed gives the uninterrupted run's
               /candidates and /metrics
  cheap        the `filter` sweep with the filter's second level (cheap_fidelity
               snake_one_round, cheap_pool 3: the real cheap evaluation, beside the synthetic
               full one) writes the same file on --np ranks as without mpirun, makes its 96
               cheap evaluations on the workers and none on rank 0, evaluates no point twice,
               records a cheap_tau in [-1, 1] for every batch with two ok results (NaN for
               none), and stopped at half its budget, or by a wall time of 2 s, and resumed
               gives the uninterrupted run's /candidates and /metrics
  parego       a `gp` sweep of tiny.yaml's space under `scalarisation: parego` (synthetic
               evaluator, lag 2) writes the same file on --np ranks as without mpirun,
               proposes 24 of its 32 candidates from the model, evaluates no point twice,
               differs from the Eq. 1 sweep of the same seed, and stopped at half its budget
               and resumed gives the uninterrupted run's /candidates and /metrics
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import h5py
import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_sweeps  # noqa: E402

ENV = dict(os.environ,
           OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_btl_vader_single_copy_mechanism="none")


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Sweep:
    def __init__(self, args):
        self.exe = args.pimdse
        self.mpiexec = args.mpiexec
        self.source = args.source
        self.work = args.work
        self.np = args.np
        os.makedirs(self.work, exist_ok=True)

    def data(self, name):
        return os.path.join(self.source, "tests", "data", "sweep", name)

    def out(self, name):
        return os.path.join(self.work, name)

    def command(self, args, np_=None):
        np_ = self.np if np_ is None else np_
        if np_ == 0:
            return [self.exe] + args
        return [self.mpiexec, "-np", str(np_), "--oversubscribe", self.exe] + args

    def run(self, args, np_=None, expect=0, timeout=120):
        cmd = self.command(args, np_)
        p = subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=timeout)
        print("$", " ".join(cmd), f"-> {p.returncode}")
        print(p.stdout + p.stderr)
        if expect is not None:
            check(p.returncode == expect, f"exit code {p.returncode}, expected {expect}")
        return p

    def fresh(self, name):
        path = self.out(name)
        for p in (path, path + ".part"):
            if os.path.exists(p):
                os.remove(p)
        return path


def descendants(pid):
    """Every process below `pid`, from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry))
            except OSError:
                pass
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def same_files(a, b):
    problems = compare_sweeps.compare(a, b)
    for p in problems:
        print(p)
    check(not problems, f"{a} and {b} differ in {len(problems)} places")
    print(f"{a} == {b} (timing fields aside)")


# ---- scenarios ------------------------------------------------------------------------------

def scenario_run(s):
    out = s.fresh(f"tiny_np{s.np}.h5")
    p = s.run(["explore", s.data("tiny.yaml"), "-o", out])
    check(re.search(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ batch 2: 12/12 evaluations, .* eval/s, best cost .*front \d+, ETA", p.stdout, re.M),
          "no progress line for the last batch")
    check("budget reached: 12 evaluations in 3 batches" in p.stdout, "no final line")
    with h5py.File(out, "r") as f:
        check(len(f["candidates"]) == 12, "12 candidates expected")
        check(list(f["candidates"]["candidate"]) == list(range(12)), "candidates in id order")


def scenario_identical(s):
    ref = s.out("tiny_np0.h5")
    check(os.path.exists(ref), f"{ref} missing (the engine.run.np0 fixture)")
    scenario_run(s)
    same_files(ref, s.out(f"tiny_np{s.np}.h5"))
    if s.np > 1:
        with h5py.File(s.out(f"tiny_np{s.np}.h5"), "r") as f:
            ranks = set(f["candidates"]["rank"])
            check(0 not in ranks, "rank 0 proposes and must not evaluate with several ranks")
            check(f.attrs["ranks"] == s.np, "root attribute ranks")


def scenario_kill_resume(s):
    ref = s.fresh(f"faults_ref_np{s.np}.h5")
    s.run(["explore", s.data("faults.yaml"), "-o", ref])
    out = s.fresh(f"faults_killed_np{s.np}.h5")
    cmd = s.command(["explore", s.data("faults.yaml"), "-o", out])
    log = open(out + ".log", "w+")
    p = subprocess.Popen(cmd, env=ENV, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    # Batch 1 holds candidate 5, which stalls for 5 s: kill inside that batch.
    deadline = time.time() + 60
    while time.time() < deadline:
        log.seek(0)
        if re.search(r"^\S+ batch 0:", log.read(), re.M):
            break
        check(p.poll() is None, "the run ended before batch 0 was reported")
        time.sleep(0.02)
    time.sleep(0.4)
    # Every process of the run at once, as a batch system's kill does: mpirun puts the ranks in
    # process groups of their own, so killing its group alone would leave them running.
    for pid in [p.pid] + descendants(p.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    p.wait()
    log.seek(0)
    print(log.read())
    check("batch 1:" not in open(out + ".log").read(), "the kill came too late (batch 1 finished)")
    with h5py.File(out, "r") as f:
        committed = f["commit"][()]
        print("commit record after the kill:", committed)
        check(committed[0] == 1, "one committed batch expected after the kill")
    summary = s.run(["summary", out], np_=0)
    check("1 committed batches, 4 candidates" in summary.stdout, "summary of the killed file")
    p = s.run(["explore", s.data("faults.yaml"), "-o", out, "--resume"])
    check("resuming after 1 batches, 4 evaluations" in p.stdout, "resume message")
    same_files(ref, out)


def scenario_faults(s):
    out = s.fresh(f"faults_np{s.np}.h5")
    s.run(["explore", s.data("faults.yaml"), "-o", out])
    c = pd.DataFrame(h5py.File(out, "r")["candidates"][()])
    check(len(c) == 12, "the sweep did not finish")
    status = h5py.check_enum_dtype(h5py.File(out, "r")["candidates"].dtype["status"])
    names = {v: k for k, v in status.items()}
    by_id = c.set_index("candidate")
    check(names[by_id.loc[2, "status"]] == "failed", "candidate 2 must be failed")
    check(b"fault injection: candidate 2" in by_id.loc[2, "message"], "candidate 2's message")
    check(names[by_id.loc[5, "status"]] == "work_limit", "candidate 5 must be work_limit")
    check(b"stalled" in by_id.loc[5, "message"], "candidate 5's message")
    check(np.isinf(by_id.loc[2, "cost"]) and np.isinf(by_id.loc[5, "cost"]), "failed costs are inf")
    others = by_id.drop(index=[2, 5])
    check((others["status"] == status["ok"]).all(), "the other candidates are ok")
    summary = s.run(["summary", out], np_=0)
    check("10 ok, 0 infeasible, 1 failed, 0 timeout, 1 work_limit" in summary.stdout, "summary counts")


def scenario_cpu_hog(s):
    # faults.yaml with a work limit that binds on its larger candidates (84 mapper steps): the
    # limits that decide the file are counts, not seconds, so a run that competes with a busy
    # loop on every core writes the same file as a quiet one (docs/engine.md, "Determinism").
    config = os.path.join(s.work, "faults_work60.yaml")
    text = open(s.data("faults.yaml")).read().replace("work_limit: 1000", "work_limit: 60")
    text = text.replace("../mapping/", os.path.join(s.source, "tests/data/mapping/"))
    text = text.replace("../../../inputs/", os.path.join(s.source, "inputs/"))
    open(config, "w").write(text)
    quiet = s.fresh(f"hog_quiet_np{s.np}.h5")
    s.run(["explore", config, "-o", quiet], timeout=300)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        busy = s.fresh(f"hog_busy_np{s.np}.h5")
        s.run(["explore", config, "-o", busy], timeout=600)
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    with h5py.File(quiet, "r") as f:
        status = h5py.check_enum_dtype(f["candidates"].dtype["status"])
        limited = int((f["candidates"]["status"] == status["work_limit"]).sum())
    check(limited >= 2, f"the work limit must bind on some real candidates, bound on {limited}")
    same_files(quiet, busy)


def scenario_tables(s):
    out = s.fresh("tables.h5")
    s.run(["explore", s.data("faults.yaml"), "-o", out], np_=0)
    docs = open(os.path.join(s.source, "docs", "output.md")).read()
    with h5py.File(out, "r") as f:
        check(f["commit"].shape == (8,), "the commit record")
        for key in ("format", "format_version", "pimdse_version", "git_revision", "seed", "ranks", "created"):
            check(key in f.attrs, f"root attribute {key}")
            check(f"`{key}`" in docs, f"root attribute {key} is not in docs/output.md")
        check(f.attrs["format"] == b"pimdse sweep", "format attribute")
        # A one-element dataset, chunked so that Fletcher32 covers it (docs/output.md).
        check(open(s.data("faults.yaml")).read() == f["config/source"][0].decode(), "config text")
        for name in ("commit", "config/source", "config/resolved", "workloads/tiny/source"):
            check(f[name].fletcher32, f"/{name} has no Fletcher32 checksum")
        tables = []
        f.visititems(lambda name, obj: tables.append(name)
                     if isinstance(obj, h5py.Dataset) and obj.dtype.names else None)
        committed = ["candidates", "metrics", "mappings/layers", "mappings/segments", "schedules", "tuner/batches",
                     "pareto"]
        # Each committed table has its two slots of commit tails, of its own type (docs/output.md).
        tails = [f"commit_tails/{slot}/{t}" for slot in (0, 1) for t in committed]
        check(sorted(tables) == sorted(committed + tails + ["workloads/networks", "workloads/tiny/layers",
                                                            "workloads/resnet18/layers"]), f"tables found: {tables}")
        for t in committed:
            for slot in (0, 1):
                check(f[f"commit_tails/{slot}/{t}"].dtype == f[t].dtype, f"/commit_tails/{slot}/{t}: another type")
        for name in tables:
            d = f[name]
            generic = re.sub(r"^workloads/[^/]+/layers$", "workloads/<net>/layers", name)
            generic = re.sub(r"^commit_tails/[01]/.+$", "commit_tails/<slot>/<table>", generic)
            check(f"`/{generic}`" in docs, f"/{generic} is not in docs/output.md")
            check("meaning" in d.attrs, f"/{name} has no meaning attribute")
            df = pd.DataFrame(d[()])  # the one-liner of docs/output.md
            check(list(df.columns) == list(d.dtype.names), f"/{name}: pandas columns")
            for field in d.dtype.names:
                check(field in d.attrs, f"/{name}.{field} has no attribute")
                check(f"`{field}`" in docs, f"/{name}.{field} is not in docs/output.md")
                if h5py.check_enum_dtype(d.dtype[field]) is not None:
                    check(field in ("proposer", "status", "kind", "method", "outcome", "dl_in_order",
                                    "dl_out_order", "unroll_row", "unroll_col", "dataflow"),
                          f"unexpected enum {field}")
            print(f"/{name}: {len(df)} rows, {len(df.columns)} fields")
        c = pd.DataFrame(f["candidates"][()])
        m = pd.DataFrame(f["metrics"][()])
        lay = pd.DataFrame(f["mappings/layers"][()])
        seg = pd.DataFrame(f["mappings/segments"][()])
        check(len(m) == c["metric_rows"].sum(), "metrics rows")
        check(len(lay) == c["layer_rows"].sum(), "layer rows")
        check(len(seg) == c["segment_rows"].sum(), "segment rows")
        sch = pd.DataFrame(f["schedules"][()])
        check(len(sch) == c["schedule_rows"].sum() and len(sch) > 0, "schedule rows")
        # A layer's sharing latency is the sum of its events' schedules: the rows are the
        # events the timeline costed, scheduled by the configured Data-Scheduler.
        kept = lay.set_index(["candidate", "network", "layer"])["sharing_cycles"]
        per_layer = sch.groupby(["candidate", "network", "layer"])["latency_cycles"].sum()
        both = kept.to_frame().join(per_layer, how="left").fillna(0.0)
        check(np.allclose(both["sharing_cycles"], both["latency_cycles"], rtol=1e-12), "schedules sum to sharing")
        check(((sch.bound_flits <= sch.max_link_flits) & (sch.members >= 2)).all(), "schedule bounds and sets")
        b = pd.DataFrame(f["tuner/batches"][()])
        check(len(b) == 3 and (b["hypervolume"] > 0).all(), "tuner rows with a hypervolume")
        p = pd.DataFrame(f["pareto"][()])
        front = p[p.left_batch < 0]
        check(len(front) == b["front_size"].iloc[-1], "current front size")
        # The front is non-dominated over latency, energy and area.
        pts = front[["latency_s", "energy_j", "area_mm2"]].to_numpy()
        for i in range(len(pts)):
            for j in range(len(pts)):
                check(i == j or not (np.all(pts[j] <= pts[i]) and np.any(pts[j] < pts[i])), "dominated front point")
        # Energy breakdowns add up.
        check(np.allclose(m.energy_j, m.energy_pe_j + m.energy_register_j + m.energy_sram_j + m.energy_dram_j + m.energy_noc_j,
                          rtol=1e-9), "energy breakdown")
        # The candidate's energy is its networks' (J in every table), and a layer's parts add up.
        per_cand = m.groupby("candidate")["energy_j"].sum()
        ok = c.set_index("candidate").loc[per_cand.index]
        check(np.allclose(ok["energy_j"], per_cand, rtol=1e-12), "candidate energy = its networks' energies")
        check(np.allclose(lay.energy_j, lay.energy_pe_j + lay.energy_register_j + lay.energy_sram_j + lay.energy_dram_j
                          + lay.energy_noc_j, rtol=1e-9, atol=0), "layer energy breakdown")
        nets = pd.DataFrame(f["workloads/networks"][()])
        check(list(nets["name"]) == [b"tiny", b"resnet18"], "workload names")
        check_layer_times(lay, m, overlapped=False)


def check_layer_times(lay, m, overlapped):
    """The per-layer timeline of /mappings/layers against /metrics: every layer runs inside the
    network's latency, finish - start is latency_cycles, the network's last layer finishes at
    the network's latency and no layer later. Without overlap a layer takes its three phases."""
    check(((lay.start_cycles >= 0) & (lay.finish_cycles >= lay.start_cycles)).all(), "start <= finish")
    check(np.allclose(lay.finish_cycles - lay.start_cycles, lay.latency_cycles, rtol=1e-12, atol=1e-9),
          "finish - start = latency_cycles")
    phases = lay.redistribution_cycles + lay.sharing_cycles + lay.compute_cycles
    if not overlapped:
        check(np.allclose(lay.latency_cycles, phases, rtol=1e-12, atol=0), "sequential: a layer takes its phases")
    ok = m[m.status == 0].set_index(["candidate", "network"]).latency_cycles
    keys = lay.set_index(["candidate", "network"]).index
    lay = lay[keys.isin(ok.index)]
    check(len(lay) > 0, "layer rows of evaluated networks")
    last = lay.loc[lay.groupby(["candidate", "network"]).layer.idxmax()].set_index(["candidate", "network"])
    latest = lay.groupby(["candidate", "network"]).finish_cycles.max()
    check(np.allclose(last.finish_cycles, ok.loc[last.index], rtol=1e-12, atol=0),
          "the last layer finishes at the network's latency")
    check(np.allclose(latest, ok.loc[latest.index], rtol=1e-12, atol=0), "no layer finishes after the network")


def scenario_resume_rules(s):
    # Under mpirun with --np ranks where the ranks must agree (a refused resume, a resumed
    # sweep), without mpirun elsewhere.
    out = s.fresh("rules.h5")
    s.run(["explore", s.data("tiny.yaml"), "-o", out], np_=0)
    before = open(out, "rb").read()
    p = s.run(["explore", s.data("tiny.yaml"), "-o", out], np_=0, expect=4)
    check("exists already; pass --resume" in p.stderr and "--force" in p.stderr, "no-overwrite message")
    check(open(out, "rb").read() == before, "the file changed")
    p = s.run(["explore", s.data("faults.yaml"), "-o", out, "--resume"], expect=3)
    check("refusing to resume" in p.stderr and "work_limit" in p.stderr and "fault_injection" in p.stderr,
          "the refusal names what differs")
    check(p.stderr.count("pimdse: error:") == 1, "one error line from all ranks")
    check(open(out, "rb").read() == before, "a refused resume changed the file")
    # A finished sweep resumed with a larger budget goes on where it stopped.
    bigger = os.path.join(s.work, "tiny_bigger.yaml")
    text = open(s.data("tiny.yaml")).read().replace("budget: 12", "budget: 20")
    text = text.replace("../mapping/", s.data("../mapping/")).replace("../../../inputs/",
                                                                      s.data("../../../inputs/"))
    open(bigger, "w").write(text)
    p = s.run(["explore", bigger, "-o", out, "--resume"])
    check("budget reached: 20 evaluations in 5 batches" in p.stdout, "extended sweep")
    # --force replaces it with a fresh sweep.
    p = s.run(["explore", s.data("tiny.yaml"), "-o", out, "--force"], np_=0)
    with h5py.File(out, "r") as f:
        check(len(f["candidates"]) == 12 and f.attrs["runs"] == 1, "--force starts over")


def scenario_bad_inputs(s):
    # Without mpirun, except where --np ranks must fail alike (a config error, a foreign file).
    work = os.path.join(s.work, "bad")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "out.h5")

    def no_output():
        left = os.listdir(work)
        check(all(not n.startswith("out.h5") for n in left), f"partial output left: {left}")

    def expect(args, code, pattern, np_=0):
        p = s.run(args, np_=np_, expect=code)
        check(re.search(pattern, p.stderr), f"message does not match /{pattern}/")
        check(p.stderr.count("pimdse: error:") == 1, "one error line expected")
        no_output()

    expect(["explore", os.path.join(work, "missing.yaml"), "-o", out], 3, r"missing\.yaml.*no such file")
    bad = os.path.join(work, "bad.yaml")
    open(bad, "w").write(open(s.data("tiny.yaml")).read().replace("batch_size: 4", "batch_size: 0"))
    expect(["explore", bad, "-o", out], 3, r"bad\.yaml:\d+: key 'sweep\.batch_size'", np_=s.np)
    expect(["explore", s.data("tiny.yaml"), "-o", os.path.join(work, "no", "dir", "out.h5")], 4,
           r"does not exist")
    expect(["explore", s.data("tiny.yaml"), "-o", "/proc/out.h5"], 4, r"/proc/out\.h5.*cannot create")
    expect(["explore", s.data("tiny.yaml"), "-o", out, "--resume"], 4, r"no such file to resume")
    # Corrupt and foreign files: kept as they are, never a crash.
    corrupt = os.path.join(work, "corrupt.h5")
    open(corrupt, "wb").write(b"\x89HDF\r\n\x1a\n" + os.urandom(4000))
    foreign = os.path.join(work, "foreign.h5")
    with h5py.File(foreign, "w") as f:
        f["x"] = np.arange(3)
    truncated = os.path.join(work, "truncated.h5")
    s.run(["explore", s.data("tiny.yaml"), "-o", truncated], np_=0)
    data = open(truncated, "rb").read()
    open(truncated, "wb").write(data[: len(data) // 3])
    # A YAML file as the output (a copy: the run's lock file goes beside it, not in the sources).
    not_hdf5 = os.path.join(work, "tiny.yaml")
    shutil.copy(s.data("tiny.yaml"), not_hdf5)
    for path, pattern, np_ in ((corrupt, r"cannot open as an HDF5 file", 0),
                               (foreign, r"not a pimdse sweep file", s.np),
                               (truncated, r"truncated\.h5", 0),
                               (not_hdf5, r"cannot open as an HDF5", 0)):
        before = open(path, "rb").read()
        expect(["explore", s.data("tiny.yaml"), "-o", path, "--resume"], 4, pattern, np_=np_)
        check(open(path, "rb").read() == before, f"--resume changed {path}")
        expect(["summary", path], 4, pattern)
    expect(["summary", os.path.join(work, "nothing.h5")], 4, r"no such file")


def scenario_wall_time(s):
    out = s.fresh("wall.h5")
    # faults.yaml's batch 1 stalls 5 s: a 1 s wall time stops after it, before batch 2.
    # Exit code 7: stopped before the wall time, resumable (docs/cli.md).
    p = s.run(["explore", s.data("faults.yaml"), "-o", out, "--wall-time", "1"], expect=7)
    check("stopped before the wall time; continue with --resume" in p.stdout, "wall-time stop message")
    with h5py.File(out, "r") as f:
        check(f["commit"][0] < 3, "stopped before the budget")
    p = s.run(["explore", s.data("faults.yaml"), "-o", out, "--resume"])
    check("budget reached: 12 evaluations in 3 batches" in p.stdout, "resumed to the end")


# Synthetic evaluations (the sleep of synthetic_seconds(seed, id), median 0.05 s) whose
# longest among ids 0..63 is in batch 0 (ids 0..15: 0.27 s of 0.92 s in all), twice the
# longest after it (0.14 s): the longest evaluation seen when a batch is judged is then an
# upper bound of every later one, so the stop does not depend on the machine's speed.
KEEPS_SEED = 24


def scenario_wall_time_keeps(s):
    cfg = os.path.join(s.work, "keeps.yaml")
    data = os.path.join(s.source, "tests", "data")
    with open(cfg, "w") as f:
        f.write(f"""space:
  node_rows: {{values: [2, 4]}}
  node_cols: {{values: [2, 4]}}
  pe_rows: {{min: 4, max: 32, spacing: log2}}
  pe_cols: {{min: 4, max: 32, spacing: log2}}
  ibuf_kib: {{min: 8, max: 64, spacing: linear, step: 8}}
  wbuf_kib: {{min: 8, max: 64, spacing: linear, step: 8}}
  obuf_kib: {{min: 8, max: 64, spacing: linear, step: 8}}
workloads:
  - {{network: {data}/mapping/tiny.yaml, weight: 1}}
sweep:
  seed: {KEEPS_SEED}
  batch_size: 16
  budget: 64
  proposer: random
  evaluator: synthetic
  synthetic_median_seconds: 0.05
output:
  path: keeps.h5
""")
    out = s.fresh("keeps.h5")
    status = out + ".status"
    # A 4 s wall time: batch 1 (16 x 0.27 s by the estimate) may not start after batch 0;
    # stopping candidate by candidate would evaluate batches 1 to 3 until 0.27 s before the
    # wall time and abandon the one in hand half-evaluated.
    p = s.run(["explore", cfg, "-o", out, "--wall-time", "4", "--status-file", status], expect=0)
    check(open(status).read() == "wall_time_stop\n", "the status file says wall_time_stop")
    check("stopped before the wall time; continue with --resume" in p.stdout, "wall-time stop message")
    now = int(re.search(r"this run: (\d+) evaluations", p.stdout).group(1))
    summary = s.run(["summary", out], np_=0).stdout
    batches, candidates = map(int, re.search(r"(\d+) committed batches, (\d+) candidates", summary).groups())
    print(f"evaluated {now}, committed {candidates} in {batches} batches")
    check(0 < candidates < 64, f"{candidates} candidates committed: not a wall-time stop")
    check(now == candidates, f"{now - candidates} of {now} evaluations thrown away at the stop")
    p = s.run(["explore", cfg, "-o", out, "--resume", "--status-file", status])
    check("budget reached: 64 evaluations" in p.stdout, "resumed to the end")
    check(open(status).read() == "budget_reached\n", "the status file says budget_reached")


def kept_by_rule(f, best):
    """Candidates whose mapping rows output.mappings: front keeps (docs/output.md)."""
    c = pd.DataFrame(f["candidates"][()])
    p = pd.DataFrame(f["pareto"][()])
    ok = h5py.check_enum_dtype(f["candidates"].dtype["status"])["ok"]
    kept = set()
    for b in sorted(c.batch.unique()):
        front = set(p[(p.joined_batch <= b) & ((p.left_batch < 0) | (p.left_batch > b))].candidate)
        upto = c[(c.batch <= b) & (c.status == ok)].sort_values(["cost", "candidate"])
        top = set(upto.candidate[:best])
        kept |= {i for i in c[c.batch == b].candidate if i in front or i in top}
    return kept


def explore_as_without_mpirun(s, cfg, name, ref_name):
    """Explores `cfg` into `name`.h5 under mpirun and into `ref_name`.h5 without it, and
    checks that the two files are the same. Returns the mpirun file's path and its run."""
    ref = s.fresh(f"{ref_name}.h5")
    s.run(["explore", cfg, "-o", ref], np_=0)
    out = s.fresh(f"{name}.h5")
    p = s.run(["explore", cfg, "-o", out])
    same_files(ref, out)
    return out, p


def scenario_synthetic(s):
    ref = s.fresh("synthetic_np0.h5")
    s.run(["explore", s.data("synthetic.yaml"), "-o", ref], np_=0)
    out = s.fresh(f"synthetic_np{s.np}.h5")
    p = s.run(["explore", s.data("synthetic.yaml"), "-o", out])
    check("(lag 3)" in p.stdout and "synthetic evaluator" in p.stdout, "the start line names the lag")
    same_files(ref, out)
    with h5py.File(out, "r") as f:
        c = pd.DataFrame(f["candidates"][()])
        check(len(c) == 32, "32 candidates")
        kept = set(c.candidate[c.layer_rows > 0])
        lay = pd.DataFrame(f["mappings/layers"][()])
        check(set(lay.candidate) == kept, "layer rows belong to the kept candidates only")
        check(len(lay) == c.layer_rows.sum(), "layer rows counted")
        check(0 < len(kept) < len(c), f"some but not all mappings kept ({len(kept)})")
        check(kept == kept_by_rule(f, 2), f"kept {sorted(kept)}, the rule gives {sorted(kept_by_rule(f, 2))}")
        check(len(f["metrics"]) == 2 * len(c), "every candidate's metrics are kept")
        check(f["mappings/layers"].compression == "gzip", "compressed layer rows")


def variant(s, base, name, **keys):
    """tests/data/sweep/<base> with the sweep keys `keys` replaced or added, written to WORK
    with the relative paths made absolute."""
    text = open(s.data(base)).read()
    text = text.replace("../mapping/", s.data("../mapping/")).replace("../../../inputs/",
                                                                        os.path.join(s.source, "inputs") + "/")
    text = text.replace("accuracy_table: crossbar_accuracy.csv", "accuracy_table: " + s.data("crossbar_accuracy.csv"))
    for key, value in keys.items():
        line = f"  {key}: {value}"
        text, n = re.subn(rf"^  {key}: .*$", line, text, flags=re.M)
        if n == 0:
            text = text.replace("sweep:\n", f"sweep:\n{line}\n")
    path = s.out(name + ".yaml")
    open(path, "w").write(text)
    return path


def scenario_model_share(s):
    for batch in (8, 4):
        cfg = variant(s, "tiny.yaml", f"share_b{batch}", proposer="nicepim", budget=48, batch_size=batch,
                      evaluator="synthetic", synthetic_median_seconds=0.01)
        out, _ = explore_as_without_mpirun(s, cfg, f"share_b{batch}_np{s.np}", f"share_b{batch}_np0")
        with h5py.File(out, "r") as f:
            b = pd.DataFrame(f["tuner/batches"][()])
        # A proposal fits a model exactly when it uses one (docs/tuner.md): fit_seconds > 0.
        from_model = int(b.candidates[b.fit_seconds > 0].sum())
        print(f"batches of {batch}: {from_model} of {b.candidates.sum()} candidates from a fitted model")
        check(b.candidates.sum() == 48, "48 candidates")
        check(from_model >= 24, f"batches of {batch}: only {from_model} of 48 candidates from a model")
    # sweep.proposer_options reaches the proposer: with 4 uniform candidates instead of 16, a
    # 16-evaluation sweep in batches of 4 proposes its last three batches from the model (with
    # the default, none).
    cfg = variant(s, "tiny.yaml", "share_options", proposer="nicepim", budget=16, batch_size=4,
                  evaluator="synthetic", synthetic_median_seconds=0.01,
                  proposer_options="{initial_random: 4, dkl_steps: 20}")
    out = s.fresh(f"share_options_np{s.np}.h5")
    s.run(["explore", cfg, "-o", out])
    with h5py.File(out, "r") as f:
        b = pd.DataFrame(f["tuner/batches"][()])
        resolved = f["config/resolved"][0].decode()
    check("    initial_random: 4\n" in resolved, "the resolved configuration keeps the option")
    from_model = int(b.candidates[b.fit_seconds > 0].sum())
    print(f"initial_random 4: {from_model} of 16 candidates from a fitted model")
    check(from_model == 12, f"initial_random 4: {from_model} of 16 candidates from a model, expected 12")


def scenario_small_space(s):
    for proposer in ("grid", "random", "nicepim", "annealing", "evolution", "gp", "amosa", "xgboost"):
        cfg = variant(s, "small_space.yaml", f"small_{proposer}", proposer=proposer)
        out = s.fresh(f"small_{proposer}.h5")
        p = s.run(["explore", cfg, "-o", out])
        check("the space has no legal unseen point left: 4 evaluations" in p.stdout, f"{proposer}: no stop")
        with h5py.File(out, "r") as f:
            c = pd.DataFrame(f["candidates"][()])
        points = set(zip(c.node_rows, c.node_cols))
        check(len(c) == 4 and points == {(2, 2), (2, 4), (4, 2), (4, 4)},
              f"{proposer}: {len(c)} evaluations of {sorted(points)}")
        p = s.run(["explore", cfg, "-o", out, "--resume"])
        check("4 evaluations" in p.stdout, f"{proposer}: resuming an exhausted space adds nothing")


def scenario_clock_width(s):
    """clock.yaml: three clocks x two data widths of one hardware point. The same file as
    without mpirun; each (clock, width) once; the PE energy follows the MAC's width rule and
    not the clock; a faster clock is never slower in seconds, and its DRAM background energy
    is the banks' power times the seconds (docs/model.md, "Clock and data width")."""
    cfg = variant(s, "clock.yaml", f"clock_np{s.np}")
    out, p = explore_as_without_mpirun(s, cfg, f"clock_np{s.np}", f"clock_ref_np{s.np}")
    check("the space has no legal unseen point left: 6 evaluations" in p.stdout, "six points, then exhausted")
    with h5py.File(out, "r") as f:
        c = pd.DataFrame(f["candidates"][()])
        m = pd.DataFrame(f["metrics"][()])
        units = {k: f["candidates"].attrs.get(k) for k in ("clock_mhz", "data_width_bits")}
        ok_value = h5py.check_enum_dtype(f["candidates"].dtype["status"])["ok"]
    check(sorted(zip(c.clock_mhz, c.data_width_bits)) == [(f, w) for f in (200, 400, 800) for w in (8, 16)],
          f"points {sorted(zip(c.clock_mhz, c.data_width_bits))}")
    check(set(c.node_rows) == {2} and set(c.ibuf_kib) == {32}, "the fixed parameters")
    check((c.status == ok_value).all(), "every point costed")
    print("units", units)
    row = {(int(r.clock_mhz), int(r.data_width_bits)): r for r in c.itertuples()}
    pe = {k: float(m.energy_pe_j[m.candidate == r.candidate].sum()) for k, r in row.items()}
    background = {k: float(m.energy_dram_background_j[m.candidate == r.candidate].sum()) for k, r in row.items()}
    # MAC energy at 8 bits: 1 + (0.775 / 0.875) ((8/16)^2 - 1) of the 16-bit one, at every clock.
    ratio = 1 - 0.75 * 0.775 / 0.875
    for f in (200, 400, 800):
        check(abs(pe[(f, 8)] / pe[(f, 16)] - ratio) < 1e-9, f"{f} MHz: PE energy ratio {pe[(f, 8)] / pe[(f, 16)]}")
        check(abs(pe[(f, 16)] / pe[(400, 16)] - 1) < 1e-12, f"{f} MHz: PE energy depends on the clock")
    # 256 banks x 4.26 mW: background energy = power x seconds, whatever the clock.
    for k, r in row.items():
        want = 256 * 4.26e-3 * r.latency_s
        check(abs(background[k] / want - 1) < 1e-9, f"{k}: background {background[k]} J, expected {want}")
    for w in (8, 16):
        lat = [row[(f, w)].latency_s for f in (200, 400, 800)]
        check(lat[0] >= lat[1] >= lat[2], f"{w} bits: seconds {lat} do not fall with the clock")
        check(row[(800, w)].energy_j < row[(200, w)].energy_j, f"{w} bits: a faster clock saves background energy")
    for f in (200, 400, 800):
        check(row[(f, 8)].energy_j < row[(f, 16)].energy_j, f"{f} MHz: 8-bit data costs more than 16-bit")
        check(row[(f, 8)].area_mm2 < row[(f, 16)].area_mm2, f"{f} MHz: 8-bit PEs are not smaller")
        check(row[(f, 16)].area_mm2 == row[(400, 16)].area_mm2, "the area does not depend on the clock")


def scenario_objectives(s):
    cfg = variant(s, "tiny.yaml", "objectives", budget=24, evaluator="synthetic", synthetic_median_seconds=0.01)
    open(cfg, "a").write("engine:\n  objectives: [power, throughput]\n")
    out = s.fresh("objectives.h5")
    s.run(["explore", cfg, "-o", out])
    with h5py.File(out, "r") as f:
        check(f.attrs["objectives"] in (b"power,throughput", "power,throughput"), "objectives attribute")
        c = pd.DataFrame(f["candidates"][()])
        p = pd.DataFrame(f["pareto"][()])
        samples = float(f["workloads/networks"]["batch"].sum())
        ok_value = h5py.check_enum_dtype(f["candidates"].dtype["status"])["ok"]
    ok = c[c.status == ok_value]
    # Minimised as the archive holds them: watts, and seconds per sample.
    pts = {int(r.candidate): (r.energy_j / r.latency_s, r.latency_s / samples) for r in ok.itertuples()}
    front = set()
    for i, a in pts.items():
        beaten = any(b[0] <= a[0] and b[1] <= a[1] and (b != a or j < i) for j, b in pts.items() if j != i)
        if not beaten:
            front.add(i)
    got = set(p.candidate[p.left_batch < 0])
    check(got == front, f"front {sorted(got)}, expected {sorted(front)}")
    check(front != set(int(i) for i in ok.candidate), "the objectives rank the candidates")


CROSSBAR_PARAMS = ["crossbar_size", "adc_bits", "dac_bits", "cell_bits", "weight_bits", "activation_bits"]
CROSSBAR_ENERGY = ["energy_crossbar_j", "energy_adc_j", "energy_dac_j", "energy_shift_add_j", "energy_buffer_j",
                   "energy_noc_j"]


def scenario_crossbar(s):
    cfg = variant(s, "crossbar.yaml", "crossbar")
    out, p = explore_as_without_mpirun(s, cfg, f"crossbar_np{s.np}", f"crossbar_ref_for_np{s.np}")
    check("budget reached: 24 evaluations in 6 batches" in p.stdout, "no final line")
    with h5py.File(out, "r") as f:
        c = pd.DataFrame(f["candidates"][()])
        m = pd.DataFrame(f["metrics"][()])
        status = h5py.check_enum_dtype(f["candidates"].dtype["status"])
    fields = list(c.columns)
    check(fields[fields.index("proposer") + 1:fields.index("status")] == CROSSBAR_PARAMS, f"parameter columns {fields}")
    fields = list(m.columns)
    check(fields[fields.index("energy_j") + 1:fields.index("pe_utilisation")] == CROSSBAR_ENERGY,
          f"energy columns {fields}")
    check(len(c) == 24 and len(set(zip(*[c[k] for k in CROSSBAR_PARAMS]))) == 24, "24 distinct designs")
    over = c.area_mm2 > 3000
    check(over.any() and (~over).any(), "the area budget of crossbar.yaml splits the designs")
    check((c.status[over] == status["infeasible"]).all() and (c.status[~over] == status["ok"]).all(),
          "infeasible exactly over the area budget")
    check(all(b"crossbar.area_budget_mm2" in msg for msg in c.message[over]), "the infeasible say why")
    check(np.allclose(m.energy_j, m[CROSSBAR_ENERGY].sum(axis=1), rtol=1e-12), "energy parts sum to the energy")
    check((m.energy_j > 0).all() and (m.latency_s > 0).all(), "every workload costed")
    check_crossbar_metrics(s, out, c)


def check_crossbar_metrics(s, out, c):
    """The family metrics of crossbar.yaml's sweep: after `cost`, the ADC deficit by its
    formula, the accuracy loss as the table's weighted mean (NaN where tiny has no row), and a
    front of candidates with an accuracy loss only."""
    fields = list(c.columns)
    check(fields[fields.index("cost") + 1:fields.index("metric_rows")] == ["adc_deficit_bits", "accuracy_loss"],
          f"metric columns {fields}")
    # ResNet-18 has layers of 576 rows and more, so its worst layer activates a whole crossbar.
    needed = np.ceil(np.log2(c.crossbar_size * (2.0 ** c.cell_bits - 1) * (2.0 ** c.dac_bits - 1) + 1))
    check((c.adc_deficit_bits == np.maximum(0, needed - c.adc_bits)).all(), "ADC deficit by its formula")
    table = pd.read_csv(s.data("crossbar_accuracy.csv"), comment="#", skipinitialspace=True)
    loss = {(r.network, r.weight_bits, r.adc_bits): r.accuracy_loss for r in table.itertuples()}
    for r in c.itertuples():
        tiny = loss.get(("tiny", r.weight_bits, r.adc_bits), np.nan)
        want = (tiny + 2 * loss[("resnet18_cifar10", r.weight_bits, r.adc_bits)]) / 3  # weights 1 and 2
        check(np.isnan(want) and np.isnan(r.accuracy_loss) or abs(r.accuracy_loss - want) < 1e-12,
              f"candidate {r.candidate}: accuracy loss {r.accuracy_loss}, want {want}")
    check(c.accuracy_loss.isna().any() and c.accuracy_loss.notna().any(), "the table leaves some designs out")
    with h5py.File(out, "r") as f:
        front = set(f["pareto"]["candidate"])
    check(front and c[c.candidate.isin(front)].accuracy_loss.notna().all(), "no candidate without a loss on the front")


def check_resumed(s, full, half_cfg, full_cfg, out, evaluations, batches):
    """Runs half_cfg into `out` (it stops after `evaluations` in `batches`), resumes it with
    full_cfg and checks its /candidates and /metrics against the uninterrupted run `full`."""
    p = s.run(["explore", half_cfg, "-o", out])
    check(f"budget reached: {evaluations} evaluations in {batches} batches" in p.stdout,
          f"the first run stops at {evaluations}")
    p = s.run(["explore", full_cfg, "-o", out, "--resume"])
    check(f"resuming after {batches} batches, {evaluations} evaluations" in p.stdout, "resume message")
    problems = [q for q in compare_sweeps.compare(full, out) if q.startswith(("/candidates", "/metrics"))]
    for q in problems:
        print(q)
    check(not problems, f"the resumed /candidates and /metrics differ from an uninterrupted run's in {len(problems)} places")


def scenario_crossbar_resume(s):
    full_cfg = variant(s, "crossbar.yaml", "crossbar_full")
    full = s.fresh(f"crossbar_full_np{s.np}.h5")
    s.run(["explore", full_cfg, "-o", full])
    half_cfg = variant(s, "crossbar.yaml", "crossbar_half", budget=12)
    out = s.fresh(f"crossbar_resumed_np{s.np}.h5")
    check_resumed(s, full, half_cfg, full_cfg, out, 12, 3)
    with h5py.File(out, "r") as f:
        check(len(f["candidates"]) == 24 and f.attrs["runs"] == 2, "24 candidates in two runs")


HETERO3D_TIERS = ["t1", "t2", "t3", "t4"]
HETERO3D_ENERGY = ["energy_compute_j", "energy_comm_j", "energy_leakage_j"]
HETERO3D_METRICS = ["peak_temperature_k", "err", "power_w", "lifetime_iterations", "tops_per_w", "tops_per_mm2"]


def scenario_hetero3d(s):
    cfg = variant(s, "hetero3d.yaml", "hetero3d")
    out = s.fresh(f"hetero3d_np{s.np}.h5")
    p = s.run(["explore", cfg, "-o", out])
    check("budget reached: 81 evaluations in 9 batches" in p.stdout, "no final line")
    two = s.fresh(f"hetero3d_np2_for_np{s.np}.h5")
    s.run(["explore", cfg, "-o", two], np_=2)
    same_files(two, out)
    check_hetero3d_file(s, out)
    half_cfg = variant(s, "hetero3d.yaml", "hetero3d_half", budget=45)
    resumed = s.fresh(f"hetero3d_resumed_np{s.np}.h5")
    check_resumed(s, out, half_cfg, cfg, resumed, 45, 5)
    check_hetero3d_killed(s)


def check_hetero3d_killed(s):
    """hetero3d.yaml with longer AMOSA searches, SIGKILLed once batch 2 is reported and resumed,
    gives the /candidates and /metrics of an uninterrupted run."""
    cfg = variant(s, "hetero3d.yaml", "hetero3d_slow", amosa_iterations=40)
    full = s.fresh(f"hetero3d_slow_np{s.np}.h5")
    s.run(["explore", cfg, "-o", full])
    out = s.fresh(f"hetero3d_killed_np{s.np}.h5")
    log = open(out + ".log", "w+")
    p = subprocess.Popen(s.command(["explore", cfg, "-o", out]), env=ENV, stdout=log, stderr=subprocess.STDOUT,
                         start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        log.seek(0)
        if re.search(r"^\S+ batch 2:", log.read(), re.M):
            break
        check(p.poll() is None, "the run ended before batch 2 was reported")
        time.sleep(0.01)
    for pid in [p.pid] + descendants(p.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    p.wait()
    with h5py.File(out, "r") as f:
        committed = int(f["commit"][()][0])
    print("committed batches after the kill:", committed)
    check(3 <= committed < 9, f"the kill came after batch 2 and before the end ({committed} committed)")
    s.run(["explore", cfg, "-o", out, "--resume"])
    problems = [q for q in compare_sweeps.compare(full, out) if q.startswith(("/candidates", "/metrics"))]
    for q in problems:
        print(q)
    check(not problems, f"the killed and resumed run differs from an uninterrupted one in {len(problems)} places")


def check_hetero3d_file(s, out):
    """The hetero3d sweep's file, read by the project's reader (python/pimdse)."""
    sys.path.insert(0, os.path.join(s.source, "python"))
    import pimdse
    with pimdse.Sweep(out) as sw:
        c = sw.table("candidates")
        m = sw.table("metrics")
        units = sw.units("candidates")
        check(sw.objectives == ["latency", "peak_temperature", "err"], f"objectives {sw.objectives}")
    fields = list(c.columns)
    check(fields[fields.index("proposer") + 1:fields.index("status")] == HETERO3D_TIERS, f"tier columns {fields}")
    check(fields[fields.index("cost") + 1:fields.index("metric_rows")] == HETERO3D_METRICS, f"metric columns {fields}")
    check(units["peak_temperature_k"] == "K" and units["power_w"] == "W", f"metric units {units}")
    fields = list(m.columns)
    check(fields[fields.index("energy_j") + 1:fields.index("pe_utilisation")] == HETERO3D_ENERGY,
          f"energy columns {fields}")
    check(len(c) == 81 and len(set(zip(*[c[k] for k in HETERO3D_TIERS]))) == 81, "81 distinct stacks")
    no_sram = (c[HETERO3D_TIERS] != 1).all(axis=1)
    check(no_sram.sum() == 16, "16 stacks without an SRAM tier")
    check((c.status[no_sram] == "infeasible").all() and (c.status[~no_sram] == "ok").all(),
          "infeasible exactly without an SRAM tier")
    check(all("no SRAM tier" in msg for msg in c.message[no_sram]), "the infeasible say why")
    ok = m[m.status == "ok"]
    check(len(ok) == 65, "one metrics row per stack that trains")
    check(np.allclose(ok.energy_j, ok[HETERO3D_ENERGY].sum(axis=1), rtol=1e-12), "energy parts sum to the energy")
    good = c[~no_sram]
    check((good.peak_temperature_k > 300).all() and (good.power_w > 0).all(), "every trained stack heats")
    check((good.err[(good[HETERO3D_TIERS] == 1).all(axis=1)] == 0).all(), "SSSS has no error")
    check(np.allclose(good.power_w, good.energy_j / good.latency_s, rtol=1e-9), "power is energy over latency")


TINY_PARAMS = ["node_rows", "node_cols", "pe_rows", "pe_cols", "ibuf_kib", "wbuf_kib", "obuf_kib"]


def proposer_sweep(s, proposer, budget, options, runs=None):
    """tiny.yaml's space explored by `proposer` with the proposer_options `options` (a dict),
    `budget` synthetic evaluations in batches of 4 with lag 2. Checks that the run is the same
    file without and with mpirun, that the resolved configuration keeps every option, that it
    evaluates `budget` distinct points, and that a run stopped at half the budget and resumed
    matches the uninterrupted one. Returns the run's /candidates and /tuner/batches; appends
    the uninterrupted mpirun run (its process, output captured) to `runs` if given."""
    def config(name, evaluations):
        text = "{" + ", ".join(f"{k}: {v}" for k, v in options.items()) + "}"
        return variant(s, "tiny.yaml", name, proposer=proposer, budget=evaluations, batch_size=4, lag=2,
                       evaluator="synthetic", synthetic_median_seconds=0.01, proposer_options=text)
    full_cfg = config(f"{proposer}_full_np{s.np}", budget)
    full, run = explore_as_without_mpirun(s, full_cfg, f"{proposer}_np{s.np}", f"{proposer}_ref_np{s.np}")
    if runs is not None:
        runs.append(run)
    with h5py.File(full, "r") as f:
        c = pd.DataFrame(f["candidates"][()])
        b = pd.DataFrame(f["tuner/batches"][()])
        resolved = f["config/resolved"][0].decode()
    for key, value in options.items():
        check(f"    {key}: {value}\n" in resolved, f"the resolved configuration keeps {key}")
    check(len(c) == budget and not c.duplicated(TINY_PARAMS).any(), f"{budget} distinct points evaluated")
    half_cfg = config(f"{proposer}_half_np{s.np}", budget // 2)
    out = s.fresh(f"{proposer}_resumed_np{s.np}.h5")
    check_resumed(s, full, half_cfg, full_cfg, out, budget // 2, budget // 8)
    return c, b


def scenario_amosa(s):
    proposer_sweep(s, "amosa", 40, {"amosa_iterations": 8, "amosa_hard_limit": 4, "amosa_soft_limit": 6})


def scenario_xgboost(s):
    c, b = proposer_sweep(s, "xgboost", 32, {"initial_random": 8, "xgb_trees": 20, "xgb_ensemble": 4})
    from_model = int(b.candidates[b.fit_seconds > 0].sum())
    check(from_model == 24, f"{from_model} of 32 candidates from the boosted trees, expected 24")


def scenario_filter(s):
    c, b = proposer_sweep(s, "random", 32, {"filter": "xgboost", "filter_pool": 4, "xgb_trees": 20,
                                            "xgb_ensemble": 4})
    # Batch k is proposed from the batches up to k - lag (2): the predictor has two successes
    # from then on exactly when those batches hold two ok candidates.
    ok_before = (c.status == 0).groupby(c.batch).sum().cumsum().shift(2, fill_value=0)
    predicted = ok_before.reindex(b.batch).to_numpy() >= 2
    tau, error = b.predicted_tau.to_numpy(), b.predicted_error.to_numpy()
    check(np.isnan(tau[~predicted]).all() and np.isnan(error[~predicted]).all(),
          "no tau or error before the predictor has two successes")
    # A tau needs two ok results in the batch itself.
    rated = predicted & ((c.status == 0).groupby(c.batch).sum().reindex(b.batch).to_numpy() >= 2)
    check(rated.sum() >= 4, f"{int(rated.sum())} of {len(b)} batches rated, expected at least 4")
    check(((tau[rated] >= -1) & (tau[rated] <= 1)).all(), f"tau in [-1, 1]: {tau[rated]}")
    check((error[rated] >= 0).all(), f"relative error >= 0: {error[rated]}")


def scenario_cheap(s):
    runs = []
    c, b = proposer_sweep(s, "random", 32, {"filter": "xgboost", "filter_pool": 4, "xgb_trees": 20,
                                            "xgb_ensemble": 4, "cheap_fidelity": "snake_one_round",
                                            "cheap_pool": 3}, runs)
    # Every proposal asks for cheap_pool (3) x its batch of cheap costs: 96 for 32 candidates,
    # made by the workers (the second kind of work message), none by rank 0.
    m = re.search(r"^cheap evaluations: (\d+) \(([^)]*)\)$", runs[0].stdout, re.M)
    check(m is not None, "the run reports its cheap evaluations")
    by_rank = {int(r): int(n) for r, n in re.findall(r"rank (\d+): (\d+)", m.group(2))}
    check(sorted(by_rank) == list(range(s.np)), f"a count per rank: {by_rank}")
    check(int(m.group(1)) == 96 and sum(by_rank.values()) == 96, f"96 cheap evaluations: {m.group(0)}")
    check(by_rank[0] == 0, f"rank 0 made cheap evaluations the workers should make: {by_rank}")
    # A wall-time stop (exit 7) also releases a proposal left waiting for cheap costs: the run
    # ends instead of hanging, and the resumed run asks for them again and ends as the
    # uninterrupted one. Where it stops depends on the machine; what it writes does not.
    full = s.out(f"random_np{s.np}.h5")
    cfg = s.out(f"random_full_np{s.np}.yaml")
    out = s.fresh(f"cheap_wall_np{s.np}.h5")
    p = s.run(["explore", cfg, "-o", out, "--wall-time", "2"], expect=None)
    check(p.returncode in (0, 7), f"exit code {p.returncode}, expected 7 (stopped) or 0 (done)")
    if p.returncode == 7:
        s.run(["explore", cfg, "-o", out, "--resume"])
    problems = [q for q in compare_sweeps.compare(full, out) if q.startswith(("/candidates", "/metrics"))]
    check(not problems, f"the wall-time-stopped and resumed run differs in {len(problems)} places")
    tau = b.cheap_tau.to_numpy()
    rated = (c.status == 0).groupby(c.batch).sum().reindex(b.batch).to_numpy() >= 2
    check(rated.sum() >= 4, f"{int(rated.sum())} of {len(b)} batches with two ok results, expected at least 4")
    check(((tau[rated] >= -1) & (tau[rated] <= 1)).all(), f"cheap_tau in [-1, 1]: {tau[rated]}")
    check(np.isnan(tau[~rated]).all(), f"no cheap_tau without two ok results: {tau[~rated]}")


def scenario_parego(s):
    def config(name, budget, options="scalarisation: parego, parego_weights: 3, "):
        return variant(s, "tiny.yaml", name, proposer="gp", budget=budget, batch_size=4, lag=2,
                       evaluator="synthetic", synthetic_median_seconds=0.01,
                       proposer_options="{" + options + "initial_random: 8, gp_steps: 20}")
    full_cfg = config(f"parego_full_np{s.np}", 32)
    full, _ = explore_as_without_mpirun(s, full_cfg, f"parego_np{s.np}", f"parego_ref_np{s.np}")
    eq1 = s.fresh(f"parego_eq1_np{s.np}.h5")
    s.run(["explore", config(f"parego_eq1_np{s.np}", 32, options=""), "-o", eq1])
    params = ["node_rows", "node_cols", "pe_rows", "pe_cols", "ibuf_kib", "wbuf_kib", "obuf_kib"]
    with h5py.File(full, "r") as f, h5py.File(eq1, "r") as g:
        c = pd.DataFrame(f["candidates"][()])
        b = pd.DataFrame(f["tuner/batches"][()])
        resolved = f["config/resolved"][0].decode()
        e = pd.DataFrame(g["candidates"][()])
    check("    scalarisation: parego\n" in resolved, "the resolved configuration records the mode")
    check(len(c) == 32 and not c.duplicated(params).any(), "32 distinct points evaluated")
    from_model = int(b.candidates[b.fit_seconds > 0].sum())
    check(from_model == 24, f"{from_model} of 32 candidates from the model, expected 24")
    check(c[params][:8].equals(e[params][:8]), "the uniform first batches are the Eq. 1 sweep's")
    check(not c[params][8:].equals(e[params][8:]), "the model batches differ from the Eq. 1 sweep's")
    half_cfg = config(f"parego_half_np{s.np}", 16)
    out = s.fresh(f"parego_resumed_np{s.np}.h5")
    check_resumed(s, full, half_cfg, full_cfg, out, 16, 4)


def scenario_overlap(s):
    """tiny.yaml with `model.overlap: true`: the same file without and with mpirun, a run
    stopped at half the budget and resumed the same as an uninterrupted one in every result
    table, and the per-layer timeline overlapped: the last layer's finish is the network's
    latency, and layers start before the layer before them on their region has finished."""
    def config(name, budget):
        path = variant(s, "tiny.yaml", name, budget=budget, batch_size=4)
        open(path, "a").write("model:\n  overlap: true\n")
        return path
    full_cfg = config(f"overlap_full_np{s.np}", 8)
    full, _ = explore_as_without_mpirun(s, full_cfg, f"overlap_np{s.np}", f"overlap_ref_np0_for_np{s.np}")
    with h5py.File(full, "r") as f:
        check(re.search(r"^model:\n(  .*\n)*  overlap: true\b", f["config/resolved"][0].decode(), re.M),
              "the resolved configuration keeps overlap")
        lay = pd.DataFrame(f["mappings/layers"][()])
        m = pd.DataFrame(f["metrics"][()])
    check_layer_times(lay, m, overlapped=True)
    # Without overlap the layers of one region run one after another; overlapped, a layer
    # starts on the first finished tiles of the one before it on its region.
    lay = lay.sort_values(["candidate", "network", "layer"])
    region = ["candidate", "network", "region_row", "region_col", "region_rows", "region_cols"]
    before = lay.groupby(region).finish_cycles.shift()
    early = int((lay.start_cycles < before).sum())
    print(f"{early} of {len(lay)} layers start before the layer before them on their region has finished")
    check(early > 0, "no layer starts before the one before it on its region finishes: not overlapped")
    out = s.fresh(f"overlap_resumed_np{s.np}.h5")
    check_resumed(s, full, config(f"overlap_half_np{s.np}", 4), full_cfg, out, 4, 1)
    results = ("/candidates", "/metrics", "/mappings/", "/schedules", "/pareto")
    problems = [q for q in compare_sweeps.compare(full, out) if q.startswith(results)]
    for q in problems:
        print(q)
    check(not problems, f"the resumed result tables differ from an uninterrupted run's in {len(problems)} places")


def scenario_plots(s):
    out = s.fresh("plots.h5")
    s.run(["explore", s.data("faults.yaml"), "-o", out])
    outdir = os.path.join(s.work, "plots")
    shutil.rmtree(outdir, ignore_errors=True)
    script = os.path.join(s.source, "postprocess", "sweep_plots.py")
    p = subprocess.run([sys.executable, script, out, "-o", outdir], capture_output=True, text=True, timeout=120)
    print(p.stdout + p.stderr)
    check(p.returncode == 0, "sweep_plots.py failed")
    for name in ("plots_best_cost", "plots_latency_energy", "plots_front_pairs"):
        data = open(os.path.join(outdir, name + ".png"), "rb").read()
        check(data.startswith(b"\x89PNG") and len(data) > 10000, f"{name}.png is not a plot")
        check(open(os.path.join(outdir, name + ".pdf"), "rb").read(5) == b"%PDF-", f"{name}.pdf is not a PDF")
        check(b"<svg" in open(os.path.join(outdir, name + ".svg"), "rb").read(2000), f"{name}.svg is not an SVG")


def main(scenarios=None):
    """Runs the scenario named on the command line, a `scenario_<name>` of `scenarios` (this
    module's globals by default; tests/reliability/faults_test.py passes its own)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("--pimdse", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--np", type=int, default=0)
    args = ap.parse_args()
    scenario = (scenarios if scenarios is not None else globals()).get("scenario_" + args.scenario)
    if scenario is None:
        print(f"unknown scenario {args.scenario}", file=sys.stderr)
        return 2
    try:
        scenario(Sweep(args))
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    print("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
