#!/usr/bin/python3
"""Fault injections on `pimdse explore`, each resumed file compared with an
uninterrupted run by tests/engine/compare_sweeps.py (registered in tests/reliability/CMakeLists.txt).

usage: faults_test.py SCENARIO --pimdse EXE --mpiexec MPIEXEC --source DIR --work DIR [--np N]

Scenarios:
  sigterm       SIGTERM to every rank in the middle of batch 1: exit 6, the message, resume == reference
  sigint        the same with SIGINT
  two_writers   a second run (fresh, --force, --resume) on an output in use is refused naming the
                holder; the first run's file is whole and equals the reference
  two_writers_cluster_env  the same with HDF5_USE_FILE_LOCKING=FALSE, as the cluster scripts set it
  readback      files whose claims disagree with themselves (commit counts, ids, enums, NaN costs,
                renamed fields and attributes, replaced texts, a wrong type, an incomplete /pareto)
                are refused by summary, export, compare and --resume, naming the dataset, within
                seconds, and left byte for byte as they were
  part_file     a symlinked OUT.part is refused and its target untouched; a leftover .part is
                refused with how to proceed and kept
  resume_refused  a refused --resume (a 0-byte file, another configuration on an interrupted
                file, a damaged table and its commit tail) leaves the file byte for byte as it
                was; a damaged table whose commit tail is whole is read and repaired
  disk_full     (root only) a tmpfs too small for the sweep: every rank exits 4 with "No space
                left on device", or with the batch's room check ("... KiB are free") when
                that fires first; after making room --resume gives the reference file
  disk_full_at_create  (root only) a tmpfs too small for even the new file's configuration:
                exit 4 with the reason (never a crash in HDF5's shutdown), no .part left, and a
                fresh run after making room gives the reference file
"""
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "engine"))
import sweep_test  # noqa: E402
from sweep_test import ENV, Failure, check, descendants, same_files  # noqa: E402

SKIP = 77  # ctest's SKIP_RETURN_CODE for this test


def reference(s, scenario):
    """An uninterrupted run of faults.yaml on --np ranks, one per scenario (they run in parallel)."""
    ref = s.fresh(f"rel_ref_{scenario}_np{s.np}.h5")
    s.run(["explore", s.data("faults.yaml"), "-o", ref])
    return ref


def start(s, out, extra=()):
    cmd = s.command(["explore", s.data("faults.yaml"), "-o", out, *extra])
    log = open(out + ".log", "w+")
    p = subprocess.Popen(cmd, env=ENV, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    return p, log


def wait_for_line(p, log, pattern, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        log.seek(0)
        if re.search(pattern, log.read(), re.M):
            return
        check(p.poll() is None, f"the run ended before /{pattern}/ appeared")
        time.sleep(0.02)
    raise Failure(f"/{pattern}/ did not appear within {timeout} s")


def pimdse_ranks(s, p):
    """The pimdse processes of run `p` (itself without mpirun, its descendants with)."""
    if s.np > 0:
        return [pid for pid in descendants(p.pid) if open(f"/proc/{pid}/comm").read().strip() == "pimdse"]
    return [p.pid]


def signal_scenario(s, sig, name):
    ref = reference(s, name)
    out = s.fresh(f"rel_{name}_np{s.np}.h5")
    p, log = start(s, out)
    # Batch 1 holds candidate 5, which stalls for 5 s: signal inside that batch.
    wait_for_line(p, log, r"^\S+ batch 0:")
    time.sleep(0.4)
    for pid in pimdse_ranks(s, p):
        os.kill(pid, sig)
    code = p.wait(timeout=60)
    log.seek(0)
    text = log.read()
    print(text)
    check(code == 6, f"exit code {code}, expected 6")
    check(f"pimdse: stopped by {name.upper()}; the batch in flight is abandoned, {out} holds every batch "
          "committed before it: continue with --resume" in text, "the stop message")
    check("batch 1:" not in text, "the signal came too late (batch 1 finished)")
    p = s.run(["explore", s.data("faults.yaml"), "-o", out, "--resume"])
    check("resuming after 1 batches, 4 evaluations" in p.stdout, "resume message")
    same_files(ref, out)


def scenario_sigterm(s):
    signal_scenario(s, signal.SIGTERM, "sigterm")


def scenario_sigint(s):
    signal_scenario(s, signal.SIGINT, "sigint")


def scenario_two_writers(s, name="two_writers"):
    ref = reference(s, name)
    out = s.fresh(f"rel_{name}_np{s.np}.h5")
    p, log = start(s, out)
    wait_for_line(p, log, r"^pimdse explore:")
    holder = r"in use by another pimdse run \(pid \d+ on host [^,]+, started [0-9T:Z-]+; lock file " + re.escape(out + ".lock")
    for extra in ([], ["--force"], ["--resume"]):
        q = s.run(["explore", s.data("faults.yaml"), "-o", out, *extra], expect=4)
        check(re.search(holder, q.stderr), f"the refusal of {extra or 'a fresh run'} names the holder")
    check(p.wait(timeout=120) == 0, "the first run failed")
    # The same candidates in the same order as an uninterrupted run; their results are compared
    # by the signal scenarios (here the refused runs' load may push one past its time limit).
    import h5py
    with h5py.File(ref, "r") as a, h5py.File(out, "r") as b:
        for key in ("node_rows", "node_cols", "pe_rows", "pe_cols", "ibuf_kib", "wbuf_kib", "obuf_kib"):
            check(list(a["candidates"][key]) == list(b["candidates"][key]), f"/candidates.{key} differs")
    summary = s.run(["summary", out], np_=0)
    check("3 committed batches, 12 candidates" in summary.stdout, "summary of the first run's file")


def scenario_two_writers_cluster_env(s):
    # The cluster scripts (jobs/) turn HDF5's own file locks off; pimdse's lock must not follow.
    ENV["HDF5_USE_FILE_LOCKING"] = "FALSE"
    scenario_two_writers(s, "two_writers_cluster_env")


def scenario_part_file(s):
    out = s.fresh(f"rel_part_np{s.np}.h5")
    part = out + ".part"
    victim = s.out("rel_victim.txt")
    open(victim, "w").write("precious\n")
    if os.path.lexists(part):
        os.remove(part)
    os.symlink(victim, part)
    q = s.run(["explore", s.data("tiny.yaml"), "-o", out], expect=4)
    check(f"{part}: is a symbolic link; pimdse never writes through one: remove it (rm {part})" in q.stderr,
          "the symlink refusal")
    check(open(victim).read() == "precious\n" and os.path.islink(part), "the link or its target changed")
    check(not os.path.exists(out), "an output was made")
    os.remove(part)
    open(part, "wb").write(b"left by a stopped run")
    q = s.run(["explore", s.data("tiny.yaml"), "-o", out], expect=4)
    check(f"{part}: exists, left by a run that stopped while creating the file" in q.stderr and
          f"remove it (rm {part}) and run again" in q.stderr, "the leftover .part refusal")
    check(open(part, "rb").read() == b"left by a stopped run", "the leftover .part was changed")
    os.remove(part)
    s.run(["explore", s.data("tiny.yaml"), "-o", out])


def digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def scenario_resume_refused(s):
    empty = s.fresh("rel_empty.h5")
    open(empty, "wb").close()
    q = s.run(["explore", s.data("faults.yaml"), "-o", empty, "--resume"], expect=4)
    check("cannot open as an HDF5 file" in q.stderr and os.path.getsize(empty) == 0, "0-byte file changed")
    # An interrupted file (rows past its commit record) and another configuration.
    out = s.fresh(f"rel_refused_np{s.np}.h5")
    p, log = start(s, out)
    wait_for_line(p, log, r"^\S+ batch 0:")
    time.sleep(0.4)
    for pid in [p.pid] + descendants(p.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    p.wait()
    before = digest(out)
    q = s.run(["explore", s.data("tiny.yaml"), "-o", out, "--resume"], expect=3)
    check("refusing to resume" in q.stderr, "the configuration refusal")
    check(digest(out) == before, "a refused resume changed the interrupted file")
    # A damaged table: 64 flipped bytes in /mappings/layers' first chunk. Its committed rows
    # there are also in the commit record's slot, so readers read them from it and the resume
    # puts the chunk back (docs/output.md, "What a commit guarantees").
    import h5py
    ref = reference(s, "resume_refused")

    def flip(path, dataset):
        with h5py.File(path, "r") as f:
            offset = f[dataset].id.get_chunk_info(0).byte_offset
        with open(path, "r+b") as f:
            f.seek(offset + 100)
            data = f.read(64)
            f.seek(offset + 100)
            f.write(bytes(b ^ 0xFF for b in data))

    repaired = s.fresh("rel_repaired.h5")
    shutil.copy(ref, repaired)
    flip(repaired, "mappings/layers")
    s.run(["summary", repaired], np_=0)
    s.run(["explore", s.data("faults.yaml"), "-o", repaired, "--resume"], np_=0)
    same_files(ref, repaired)
    # Both copies damaged: refused, naming the dataset, and the file left as it was.
    damaged = s.fresh("rel_damaged.h5")
    shutil.copy(ref, damaged)
    with h5py.File(damaged, "r") as f:
        slot = f"commit_tails/{int(f['commit'][0]) % 2}/mappings/layers"
    flip(damaged, "mappings/layers")
    flip(damaged, slot)
    before = digest(damaged)
    for args in (["explore", s.data("faults.yaml"), "-o", damaged, "--resume"], ["summary", damaged]):
        q = s.run(args, np_=0, expect=4)
        check(f"{damaged}:/{slot}: rows 0 to" in q.stderr and "the file is damaged there" in q.stderr,
              "the damage is reported with the dataset's name")
    check(digest(damaged) == before, "a refused resume changed the damaged file")


def scenario_damaged_datasets(s):
    # Every dataset carries Fletcher32, the small ones too: a flipped byte in the commit
    # record, a configuration text or a network text is refused by summary and --resume
    # with the dataset's name and HDF5's reason, and the file is left as it was.
    import h5py
    ref = reference(s, "damaged_datasets")
    with h5py.File(ref, "r") as f:
        group = f["workloads/networks"][0]["group"].decode()
    for name in ("commit", "config/source", "config/resolved", f"workloads/{group}/source"):
        damaged = s.fresh("rel_damaged_" + name.replace("/", "_") + ".h5")
        shutil.copy(ref, damaged)
        with h5py.File(damaged, "r") as f:
            info = f[name].id.get_chunk_info(0)
        with open(damaged, "r+b") as f:
            f.seek(info.byte_offset + min(4, info.size - 5))
            byte = f.read(1)
            f.seek(info.byte_offset + min(4, info.size - 5))
            f.write(bytes([byte[0] ^ 0x5A]))
        before = digest(damaged)
        for args in (["explore", s.data("faults.yaml"), "-o", damaged, "--resume"], ["summary", damaged]):
            q = s.run(args, np_=0, expect=4)
            check(f"{damaged}:/{name}" in q.stderr, f"/{name}: the damage is reported with the dataset's name")
            check("Fletcher32" in q.stderr, f"/{name}: HDF5's reason is kept: {q.stderr.strip()}")
        check(digest(damaged) == before, f"/{name}: a refused resume changed the damaged file")


def flip_name(path, old, new, first_only=False):
    """Renames `old` to `new` (same length) where the bytes occur in the file: HDF5 keeps
    names in its metadata, which has no checksum, so this is a silent flip of metadata."""
    data = bytearray(open(path, "rb").read())
    at = data.find(old)
    check(at >= 0, f"{old!r} is not in {path}")
    while at >= 0:
        data[at:at + len(old)] = new
        at = -1 if first_only else data.find(old, at + 1)
    open(path, "wb").write(bytes(data))


def damage_commit(index, value):
    def damage(path, h5py, np):
        with h5py.File(path, "r+") as f:
            commit = f["commit"][()]
            commit[index] = value(commit[index])
            f["commit"][...] = commit
    return damage


def damage_resized(path, h5py, np):
    # A sweep file's datasets allocate their chunks when they grow: 10^7 rows of fill values,
    # which read as unwritten rows (candidate -1, enums -1).
    with h5py.File(path, "r+") as f:
        f["candidates"].resize((10**7,))
        commit = f["commit"][()]
        commit[1] = 10**7
        f["commit"][...] = commit


def damage_extent(path, h5py, np):
    # A flipped extent of /candidates (12 rows become 10^9) and a commit record to match: the
    # chunks that would hold them are not in the file.
    import struct
    with h5py.File(path, "r") as f:
        header = h5py.h5o.get_info(f["candidates"].id).addr
        rows = f["candidates"].shape[0]
    data = bytearray(open(path, "rb").read())
    old = struct.pack("<Q", rows) + b"\xff" * 8  # current and maximum (unlimited) size
    at = data.find(old, header, header + 1024)
    check(at >= 0, "the dataspace of /candidates was not found")
    data[at:at + 8] = struct.pack("<Q", 10**9)
    open(path, "wb").write(bytes(data))
    with h5py.File(path, "r+") as f:
        check(f["candidates"].shape[0] == 10**9, "the extent was not changed")
        commit = f["commit"][()]
        commit[1] = 10**9
        f["commit"][...] = commit


def damage_field(table, row, field, value):
    """Edits a committed row where readers read it: in the table if it lies in a whole chunk,
    else in the commit record's slot (docs/output.md, "What a commit guarantees"), and in the
    table too."""
    def damage(path, h5py, np):
        with h5py.File(path, "r+") as f:
            rows = f[table][()]
            rows[field][row] = value
            f[table][...] = rows  # the chunk is rewritten with a valid checksum
            stable = 0 if table == "pareto" else len(rows) // f[table].chunks[0] * f[table].chunks[0]
            if row >= stable:
                slot = f[f"commit_tails/{int(f['commit'][0]) % 2}/{table}"]
                tail = slot[()]
                tail[field][row - stable] = value
                slot[...] = tail
    return damage


def damage_source(path, h5py, np):
    with h5py.File(path, "r+") as f:
        text = f["config/source"][0]
        f["config/source"][0] = text.replace(b"seed: 7", b"seed: 8")


def damage_network_source(path, h5py, np):
    with h5py.File(path, "r+") as f:
        text = f["workloads/networks"][0]["group"].decode()
        d = f[f"workloads/{text}/source"]
        d[0] = d[0].replace(b"tiny", b"tinY")


def damage_seed(path, h5py, np):
    with h5py.File(path, "r+") as f:
        f.attrs["seed"] = np.int64(8)


def damage_type(path, h5py, np):
    with h5py.File(path, "r+") as f:
        del f["pareto"]
        f.create_dataset("pareto", data=np.zeros(8), chunks=(8,), fletcher32=True, maxshape=(None,))


def damage_area_name(path, h5py, np):
    flip_name(path, b"area_mm2\0", b"area_mn2\0")


def damage_proposer_attribute(path, h5py, np):
    flip_name(path, b"proposer\0", b"proposes\0", first_only=True)
    with h5py.File(path, "r") as f:  # the root attribute, not a field, was renamed
        check("proposer" not in f.attrs and "proposes" in f.attrs, "the flip missed the root attribute")


def damage_pareto_count(path, h5py, np):
    with h5py.File(path, "r+") as f:
        commit = f["commit"][()]
        check(commit[7] >= 1, "the reference has no Pareto front")
        commit[7] -= 1
        f["commit"][...] = commit


# (name, damage, message, also refused by summary/export/compare)
READBACK_CASES = [
    ("rows_1e7", damage_resized,
     ":/candidates: row 12: proposer is -1 (unwritten): a row never written among the committed rows", True),
    ("batches_2e62", damage_commit(0, lambda v: 2**62),
     ":/commit: 4611686018427387904 batches, but 3 committed rows of /tuner/batches", True),
    ("extent_1e9", damage_extent,
     ":/candidates: its commit record claims 1000000000 rows, but the file stores data for at most 256", True),
    ("negative_count", damage_commit(2, lambda v: -5),
     ":/commit: the row count of /metrics is -5, expected 0 or more", True),
    ("fewer_committed", damage_commit(1, lambda v: v - 4),
     ":/metrics: 20 committed rows, but the committed candidates of /candidates count 12", True),
    ("status_enum", damage_field("candidates", 3, "status", 9),
     ":/candidates: row 3: status is 9, not a value of its enum (enum: ok, infeasible", True),
    ("duplicate_id", damage_field("candidates", 5, "candidate", 4),
     ":/candidates: row 5: candidate id 4, expected 5", True),
    ("nan_cost", damage_field("candidates", 2, "cost", float("nan")),
     ":/candidates: row 2: cost is nan, expected a number or inf", True),
    ("config_source", damage_source,
     ": /config/source (the configuration text) differs from its digest in /digest", True),
    ("network_source", damage_network_source,
     ": a network text (/workloads/<net>/source) differs from its digest in /digest", True),
    ("seed_attribute", damage_seed,
     ": the attributes pimdse wrote when it created the file (the root's format, versions, seed", True),
    ("wrong_type", damage_type,
     ":/pareto: a dataset of the wrong type: expected a 1-D table of 7 fields, got a float", True),
    ("field_name", damage_area_name,
     ":/candidates: field 13 is named 'area_mn2', expected 'area_mm2'", True),
    ("root_attribute", damage_proposer_attribute,
     ":/: the attribute 'proposer' is missing", True),
    ("pareto_incomplete", damage_pareto_count,
     ":/pareto: row", False),
]


def scenario_readback(s):
    import h5py
    import numpy as np
    ref = reference(s, "readback")
    for name, damage, message, readers_too in READBACK_CASES:
        damaged = s.fresh(f"rel_readback_{name}.h5")
        shutil.copy(ref, damaged)
        damage(damaged, h5py, np)
        before = digest(damaged)
        runs = [["explore", s.data("faults.yaml"), "-o", damaged, "--resume"]]
        if readers_too:
            runs += [["summary", damaged], ["export", damaged, "--csv", s.out(f"rel_readback_{name}_csv")],
                     ["compare", ref, damaged]]
        for args in runs:
            q = s.run(args, np_=0, expect=4, timeout=30)
            check(damaged + message in q.stderr, f"{name}: {args[0]} names the damage: {q.stderr.strip()}")
            check("Fletcher32" not in q.stderr, f"{name}: {args[0]} blames a checksum")
        check(digest(damaged) == before, f"{name}: a refused run changed the file")
        check(not os.path.exists(s.out(f"rel_readback_{name}_csv/candidates.csv")), f"{name}: export wrote")


def tmpfs_mountpoint(s, name):
    """An empty directory to mount a small tmpfs on; the scenario is skipped unless root."""
    if os.geteuid() != 0:
        print("SKIPPED: mounting a small tmpfs needs root")
        sys.exit(SKIP)
    mnt = s.out(name)
    os.makedirs(mnt, exist_ok=True)
    subprocess.run(["umount", mnt], capture_output=True)
    return mnt


def mount_tmpfs(mnt, size_k):
    m = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_k}k", "tmpfs", mnt], capture_output=True, text=True)
    if m.returncode != 0:
        print(f"SKIPPED: cannot mount a tmpfs here: {m.stderr.strip()}")
        sys.exit(SKIP)


def scenario_disk_full(s):
    mnt = tmpfs_mountpoint(s, f"rel_tmpfs_np{s.np}")
    ref = reference(s, "disk_full")
    # Most of the finished file: the sweep runs out of space part way through its batches,
    # whatever its compression (a disk already full when the file is created is
    # disk_full_at_create).
    mount_tmpfs(mnt, max(64, os.path.getsize(ref) * 4 // 5 // 1024))
    try:
        out = os.path.join(mnt, "full.h5")
        began = time.time()
        q = s.run(["explore", s.data("faults.yaml"), "-o", out], expect=4, timeout=60)
        print(f"stopped after {time.time() - began:.1f} s")
        room = re.search(r"need up to \d+ KiB, and \d+ KiB are free", q.stderr)
        check("No space left on device" in q.stderr or room, "the reason: no space")
        subprocess.run(["mount", "-o", "remount,size=64m", mnt], check=True)
        if os.path.exists(out):
            s.run(["explore", s.data("faults.yaml"), "-o", out, "--resume"])
        else:
            # A fresh run that fails before its first batch leaves no file (docs/cli.md).
            check(not os.path.exists(out + ".part"), "a .part was left")
            s.run(["explore", s.data("faults.yaml"), "-o", out])
        same_files(ref, out)
    finally:
        subprocess.run(["umount", "-l", mnt], capture_output=True)


def scenario_disk_full_at_create(s):
    mnt = tmpfs_mountpoint(s, f"rel_tmpfs_create_np{s.np}")
    ref = reference(s, "disk_full_at_create")
    try:
        # 4 KiB to 12 KiB: the configuration text, the resolved configuration and the workload
        # tables each fail at one of these sizes (HDF5 1.10 used to segfault in MPI_Finalize
        # after the failed close of such a file).
        for size_k in (4, 8, 12):
            mount_tmpfs(mnt, size_k)
            out = os.path.join(mnt, "full.h5")
            q = s.run(["explore", s.data("faults.yaml"), "-o", out], expect=4, timeout=60)
            check("No space left on device" in q.stderr, f"the system's reason at {size_k} KiB")
            check("Segmentation fault" not in q.stderr and "signal" not in q.stderr,
                  f"a crash at {size_k} KiB")
            check(not os.path.exists(out) and not os.path.exists(out + ".part"),
                  f"a file was left at {size_k} KiB")
            subprocess.run(["umount", mnt], check=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", mnt], check=True)
        out = os.path.join(mnt, "full.h5")
        s.run(["explore", s.data("faults.yaml"), "-o", out])
        same_files(ref, out)
    finally:
        subprocess.run(["umount", "-l", mnt], capture_output=True)


if __name__ == "__main__":
    sys.exit(sweep_test.main(globals()))
