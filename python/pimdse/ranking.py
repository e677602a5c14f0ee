"""Kendall's rank correlation (Gibbon Eq. 6), to judge how well a predictor ranks design
points against their evaluations (docs/output.md, "Reading it"):

    pimdse.kendall_tau(s.candidates.latency_s, predicted)   # 1: same order, -1: reversed

Ties contribute 0 (tau-a), as in the C++ tuner's kendall_tau.
"""
import numpy as np


def kendall_tau(truth, predicted):
    """Sum over pairs i < j of sign(t_i - t_j) * sign(p_i - p_j), over M (M - 1) / 2."""
    t = np.asarray(truth, dtype=float)
    p = np.asarray(predicted, dtype=float)
    if t.shape != p.shape or t.ndim != 1 or len(t) < 2:
        raise ValueError(f"kendall_tau: two 1-D sequences of one length >= 2 expected, got {t.shape} and {p.shape}")
    if np.isnan(t).any() or np.isnan(p).any():
        raise ValueError("kendall_tau: a NaN value")
    i, j = np.triu_indices(len(t), k=1)
    # Comparisons, not differences: two equal infinities are a tie, as in the C++ version.
    st = (t[i] > t[j]).astype(int) - (t[i] < t[j]).astype(int)
    sp = (p[i] > p[j]).astype(int) - (p[i] < p[j]).astype(int)
    total = np.sum(st * sp)
    return float(total) / (len(t) * (len(t) - 1) / 2)
