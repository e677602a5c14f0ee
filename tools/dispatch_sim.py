#!/usr/bin/python3
"""Discrete-event simulation of the sweep's dispatch (docs/engine.md, "Scale model").

Replays evaluation times recorded in real sweep files (/candidates.eval_seconds, status ok)
through two protocols and prints the workers' busy share:

  batch  the old protocol: a batch of B candidates is handed out one at a time, slowest
         first (the engine's LPT order, here with exact knowledge of the times: the best
         case for it), and batch k+1 is proposed only when batch k is complete;
  lag    the new one: candidates go one at a time to whichever worker is free, older
         batches first; batch k is proposed when batch k - L is complete (sweep.lag).

Each cell is the busy share while work remains (until the last candidate is handed out),
then, in parentheses, over the whole run including the final drain.
Rank 0's own work (proposing, observing, writing) is modelled as a serial cost per
candidate (--root-ms), paid before a batch's candidates can be handed out.

usage: dispatch_sim.py FILE.h5 [FILE.h5 ...] [--workers 2,16,128,1024,10000]
       [--batches 40] [--lag 2,4,8] [--batch-factor 1,4] [--root-ms 0] [--seed 1]
       [--synthetic MEDIAN] (log-normal times as the synthetic evaluator draws them)
"""
import argparse
import heapq
import sys

import numpy as np


def eval_times(paths):
    import h5py
    out = []
    for p in paths:
        with h5py.File(p, "r") as f:
            c = f["candidates"][()]
            status = h5py.check_enum_dtype(f["candidates"].dtype["status"])
            out.extend(c["eval_seconds"][c["status"] == status["ok"]])
    return np.asarray(out, dtype=float)


def window_share(jobs, workers, until):
    """Busy share of the workers over [0, until]: `jobs` are (start, duration)."""
    if until <= 0:
        return 1.0
    busy = sum(min(s + d, until) - s for s, d in jobs if s < until)
    return busy / (workers * until)


def simulate_batch(times, workers, batch, batches):
    """The barrier protocol: LPT inside each batch, the next batch after the last result."""
    t = 0.0
    busy = 0.0
    started = []
    last = 0.0
    for k in range(batches):
        jobs = sorted(times[k * batch:(k + 1) * batch], reverse=True)
        free = [t] * workers
        heapq.heapify(free)
        end = t
        for d in jobs:
            s = heapq.heappop(free)
            heapq.heappush(free, s + d)
            end = max(end, s + d)
            busy += d
            started.append((s, d))
            last = max(last, s)
        t = end
    return busy / (workers * t), window_share(started, workers, last)


def simulate_lag(times, workers, batch, batches, lag, root_seconds=0.0):
    """The lag protocol: batch k proposed when batch k - lag is complete."""
    remaining = [batch] * batches     # results missing per batch
    done_at = [None] * batches
    queue = []                        # (batch, duration), FIFO by batch
    qpos = 0
    events = []                       # (time, worker, batch)
    free = list(range(workers))
    t = 0.0
    root_free = 0.0                   # rank 0 is serial
    proposed = 0
    observed = -1                     # batches observed in order
    busy = 0.0
    started = []
    last_dispatch = 0.0

    def propose_due(now):
        nonlocal proposed, root_free
        while proposed < batches and proposed <= observed + lag:
            root_free = max(root_free, now) + root_seconds * batch
            for d in times[proposed * batch:(proposed + 1) * batch]:
                queue.append((proposed, float(d), root_free))
            proposed += 1

    propose_due(0.0)
    while True:
        while free and qpos < len(queue):
            k, d, ready = queue[qpos]
            start = max(t, ready)
            if start > t:
                # rank 0 is still proposing: advance to the next event or to `ready`
                if events and events[0][0] < ready:
                    break
                t = ready
            qpos += 1
            w = free.pop()
            heapq.heappush(events, (t + d, w, k))
            busy += d
            started.append((t, d))
            last_dispatch = t
        if not events:
            break
        t, w, k = heapq.heappop(events)
        free.append(w)
        remaining[k] -= 1
        if remaining[k] == 0:
            done_at[k] = t
        while observed + 1 < batches and remaining[observed + 1] == 0:
            observed += 1
        propose_due(t)
    makespan = t
    return busy / (workers * makespan), window_share(started, workers, last_dispatch)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--workers", default="2,16,128,1024,10000")
    ap.add_argument("--batches", type=int, default=40)
    ap.add_argument("--lag", default="2,4,8")
    ap.add_argument("--batch-factor", default="1,4")
    ap.add_argument("--root-ms", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--synthetic", type=float, default=None)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    if a.synthetic is not None:
        sample = a.synthetic * np.minimum(np.exp(0.76 * rng.standard_normal(100000)), 20.0)
        source = f"synthetic log-normal, median {a.synthetic} s"
    else:
        if not a.files:
            ap.error("give sweep files or --synthetic")
        sample = eval_times(a.files)
        source = f"{len(sample)} recorded evaluations"
    print(f"# evaluation times: {source}: median {np.median(sample):.2f} s, "
          f"p95 {np.percentile(sample, 95):.2f} s, max {sample.max():.2f} s")
    workers = [int(x) for x in a.workers.split(",")]
    lags = [int(x) for x in a.lag.split(",")]
    factors = [int(x) for x in a.batch_factor.split(",")]
    head = ["workers"] + [f"batch B={f}W" for f in factors] + [f"lag L={L} B={f}W" for f in factors for L in lags]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for W in workers:
        row = [str(W)]
        for f in factors:
            B = f * W
            times = rng.choice(sample, size=B * a.batches)
            whole, window = simulate_batch(times, W, B, a.batches)
            row.append(f"{100 * window:.1f} % ({100 * whole:.1f} %)")
        for f in factors:
            for L in lags:
                B = f * W
                times = rng.choice(sample, size=B * a.batches)
                whole, window = simulate_lag(times, W, B, a.batches, L, a.root_ms * 1e-3)
                row.append(f"{100 * window:.1f} % ({100 * whole:.1f} %)")
        print("| " + " | ".join(row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
