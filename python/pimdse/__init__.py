"""pimdse: read the HDF5 file of a pimdse sweep into pandas (docs/output.md, "Reading it").

    import pimdse
    s = pimdse.Sweep("out/default.h5")
    s.candidates, s.metrics, s.layers, s.segments, s.batches, s.pareto   # DataFrames
    s.best(5), s.front(), s.config()
    pimdse.kendall_tau(truth, predicted)   # a predictor's ranking quality (Gibbon Eq. 6)

Needs h5py, numpy and pandas (Debian: python3-h5py python3-numpy python3-pandas; config()
also python3-yaml).
"""
from .ranking import kendall_tau
from .sweep import Sweep, SweepError, cost_unit, unit_of, with_units

__all__ = ["Sweep", "SweepError", "cost_unit", "kendall_tau", "unit_of", "with_units"]
