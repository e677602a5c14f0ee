"""Reading a pimdse sweep file (docs/output.md) into pandas DataFrames.

The file describes itself, and this module reads that description instead of repeating it:
every table is a 1-D compound dataset whose fields have an attribute named like the field
holding the meaning with the unit in brackets, enumerations are HDF5 enum types, and the
dataset /commit lists, in its `meaning` attribute, the tables whose committed row counts it
holds. So a field or a table added to the file shows up here without a change to this code.
"""
import re

import h5py
import numpy as np
import pandas as pd

FORMAT = "pimdse sweep"
# After a space: "channel group n of BCHW[Cn]" names a layout and has no unit.
_UNIT = re.compile(r"\s\[([^\[\]]+)\]\s*$")


class SweepError(Exception):
    """A file that is not a readable pimdse sweep file, or a table or field it lacks."""


def _text(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, np.generic):
        return value.item()
    return value


def unit_of(meaning):
    """The unit in brackets at the end of a field's meaning, after a space ("latency [s]" ->
    "s"), or ""."""
    m = _UNIT.search(meaning or "")
    return m.group(1) if m else ""


def cost_unit(alpha, beta):
    """The unit of NicePIM Eq. 1's cost, Energy^alpha * Latency^beta, spelled out: "J s" for
    the energy-delay product (alpha = beta = 1), "s" for latency alone."""
    def power(symbol, exponent):
        if exponent == 0:
            return ""
        if exponent == 1:
            return symbol
        return f"{symbol}^{exponent:g}"
    return " ".join(p for p in (power("J", alpha), power("s", beta)) if p) or "1"


def workload_names(names, batches):
    """One name per workload, unique and readable, as pimdse names them (io/workloads.hpp):
    the network's name, with "_b<batch>" where several workloads share it, and "_w<index>" if
    that is still taken. Files written before pimdse named them so are read the same way."""
    count = {}
    for n in names:
        count[n] = count.get(n, 0) + 1
    out, taken = [], set()
    for i, (name, batch) in enumerate(zip(names, batches)):
        label = f"{name}_b{int(batch)}" if count[name] > 1 else name
        if label in taken:
            label += f"_w{i}"
        taken.add(label)
        out.append(label)
    return out


class Sweep:
    """One sweep file, opened read-only. Tables are read on demand, only their committed rows.

    >>> s = Sweep("out.h5")
    >>> s.candidates.head()            # a DataFrame; s.candidates.attrs["units"]["cost"]
    """

    def __init__(self, path):
        self.path = str(path)
        try:
            self._file = h5py.File(self.path, "r")
        except (OSError, ValueError) as e:
            raise SweepError(f"{self.path}: cannot open as an HDF5 file ({e})") from None
        if _text(self._file.attrs.get("format")) != FORMAT:
            self._file.close()
            raise SweepError(f"{self.path}: not a pimdse sweep file (root attribute format is not '{FORMAT}')")
        self.info = {k: _text(v) for k, v in self._file.attrs.items()}
        self._committed = self._read_commit()
        self._cache = {}

    # -- the file --------------------------------------------------------------------------

    def close(self):
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"Sweep({self.path!r}: {self.batches_committed} batches, {len(self.candidates)} candidates)"

    def _read_commit(self):
        """{table: committed rows} from /commit, whose meaning attribute names the tables in
        the order of its counts (after the batch count)."""
        if "commit" not in self._file:
            raise SweepError(f"{self.path}: no commit record /commit (a broken sweep file)")
        counts = [int(v) for v in self._file["commit"][()]]
        names = re.findall(r"/([A-Za-z0-9_/]+)", _text(self._file["commit"].attrs.get("meaning", "")))
        if len(names) != len(counts) - 1:
            raise SweepError(f"{self.path}: /commit holds {len(counts)} counts but its meaning names "
                             f"{len(names)} tables")
        self.batches_committed = counts[0]
        return dict(zip(names, counts[1:]))

    @property
    def tables(self):
        """Every table of the file (compound datasets), by path without the leading slash."""
        out = []
        self._file.visititems(lambda name, obj: out.append(name)
                              if isinstance(obj, h5py.Dataset) and obj.dtype.names
                              and not name.startswith("commit_tails/") else None)
        return out

    def committed_rows(self, name):
        """Rows of `name` the commit record covers; every row for tables outside it (the
        workloads, written once when the file is created)."""
        return min(self._committed.get(name, len(self._file[name])), len(self._file[name]))

    def meanings(self, name):
        """{field: meaning} of a table, from its attributes."""
        d = self._dataset(name)
        return {f: _text(d.attrs[f]) if f in d.attrs else "" for f in d.dtype.names}

    def units(self, name):
        """{field: unit} of a table ("" where the meaning gives none)."""
        return {f: unit_of(m) for f, m in self.meanings(name).items()}

    def _dataset(self, name):
        name = name.strip("/")
        if name not in self._file or not isinstance(self._file[name], h5py.Dataset) \
                or not self._file[name].dtype.names:
            raise SweepError(f"{self.path}: no table /{name} (tables: {', '.join(self.tables)})")
        return self._file[name]

    # -- tables ----------------------------------------------------------------------------

    def table(self, name):
        """The committed rows of table `name` ("candidates", "mappings/layers", ...) as a
        DataFrame: enum fields as their names, strings decoded. df.attrs holds "table",
        "meaning" (of the table), "meanings" and "units" ({field: text}). A copy each call."""
        name = name.strip("/")
        if name not in self._cache:
            self._cache[name] = self._read_table(name)
        df = self._cache[name].copy()
        df.attrs = {k: (dict(v) if isinstance(v, dict) else v) for k, v in self._cache[name].attrs.items()}
        return df

    def _committed_array(self, name, d):
        """The committed rows of dataset `d`: those in whole chunks from `d`, the rest (all of
        /pareto) from the commit record's slot /commit_tails/<batches % 2>, which a batch
        interrupted while rewriting them never touches (docs/output.md)."""
        n = self.committed_rows(name)
        if name not in self._committed:
            return d[:n]
        slot = f"commit_tails/{self.batches_committed % 2}/{name}"
        stable = 0 if name == "pareto" else n // d.chunks[0] * d.chunks[0]
        if stable == n or slot not in self._file:  # a table a later pimdse added keeps no slot
            return d[:n]
        tail = self._file[slot][: n - stable]
        return np.concatenate([d[:stable], tail]) if stable else tail

    def _read_table(self, name):
        d = self._dataset(name)
        rows = self._committed_array(name, d)
        df = pd.DataFrame({f: rows[f] for f in d.dtype.names})
        for f in d.dtype.names:
            enum = h5py.check_enum_dtype(d.dtype[f])
            if enum is not None:
                names = {v: k for k, v in enum.items()}
                df[f] = df[f].map(lambda v: names.get(int(v), f"?{int(v)}"))
            elif d.dtype[f].kind == "S":
                df[f] = np.char.decode(rows[f], "utf-8", "replace") if len(rows) else np.array([], dtype=str)
        meanings = self.meanings(name)
        if "network" in df and not name.startswith("workloads/"):
            self._join_names(df, meanings)
        if name == "workloads/networks":
            df["name"] = workload_names(df["name"].tolist(), df["batch"].tolist())
        if name == "pareto" and "left_batch" in df:
            # A point dominated in a batch that never committed is still on the front.
            df.loc[df["left_batch"] >= self.batches_committed, "left_batch"] = -1
        df.attrs = {"table": name, "meaning": _text(d.attrs.get("meaning", "")), "meanings": meanings,
                    "units": {f: unit_of(m) for f, m in meanings.items()}}
        return df

    def _join_names(self, df, meanings):
        """The names a table's `network` and `layer` indices refer to, joined in: `network_name`
        after `network` (replacing a stored one: older files gave one network at two batch
        sizes one name, and pivots need unique ones) and `layer_name` after `layer`, from
        /workloads/networks and /workloads/<group>/layers. `pimdse export` joins the same."""
        nets = self.networks
        names = nets["name"].tolist()
        net = df["network"].to_numpy()
        col = [names[n] if 0 <= n < len(names) else "?" for n in net]
        if "network_name" in df:
            df["network_name"] = col
        else:
            df.insert(df.columns.get_loc("network") + 1, "network_name", col)
            meanings["network_name"] = "the network's name (from /workloads/networks)"
        if "layer" in df:
            layers = [self.table(f"workloads/{g}/layers")["name"].tolist() for g in nets["group"]]
            col = [layers[n][i] if 0 <= n < len(layers) and 0 <= i < len(layers[n]) else "?"
                   for n, i in zip(net, df["layer"].to_numpy())]
            df.insert(df.columns.get_loc("layer") + 1, "layer_name", col)
            meanings["layer_name"] = "the layer's name (from /workloads/<net>/layers)"

    candidates = property(lambda self: self.table("candidates"), doc="/candidates: one row per candidate")
    metrics = property(lambda self: self.table("metrics"), doc="/metrics: one row per (candidate, network)")
    layers = property(lambda self: self.table("mappings/layers"),
                      doc="/mappings/layers: one row per (candidate, network, layer)")
    segments = property(lambda self: self.table("mappings/segments"),
                        doc="/mappings/segments: one row per (candidate, network, segment, branch)")
    schedules = property(lambda self: self.table("schedules"), doc="/schedules: data-sharing events")
    batches = property(lambda self: self.table("tuner/batches"), doc="/tuner/batches: one row per batch")
    pareto = property(lambda self: self.table("pareto"),
                      doc="/pareto: every candidate that joined the front, with the batches it joined and left")
    networks = property(lambda self: self.table("workloads/networks"), doc="/workloads/networks")

    def network_layers(self, network):
        """/workloads/<group>/layers of a workload, by index, name or group."""
        nets = self.networks
        hit = nets[(nets["network"] == network) | (nets["name"] == network) | (nets["group"] == network)]
        if hit.empty:
            raise SweepError(f"{self.path}: no workload {network!r} (workloads: {', '.join(nets['name'])})")
        return self.table(f"workloads/{hit['group'].iloc[0]}/layers")

    def timeline(self, candidate, network=0):
        """When each layer of one candidate's network ran, on the timeline it was evaluated
        with (sequential, or overlapped with model.overlap): its /mappings/layers rows ordered
        by start, with the layer's name, segment, branch and region, start_cycles,
        finish_cycles and latency_cycles. `network` is an index or a name. Files of format 6
        on hold the times (docs/output.md)."""
        lay = self.layers
        if "start_cycles" not in lay:
            raise SweepError(f"{self.path}: format version {self.info.get('format_version')} has no per-layer "
                             "start and finish (format 6 on)")
        nets = self.networks
        hit = nets[(nets["network"] == network) | (nets["name"] == network)]
        if hit.empty:
            raise SweepError(f"{self.path}: no workload {network!r} (workloads: {', '.join(nets['name'])})")
        rows = lay[(lay["candidate"] == candidate) & (lay["network"] == hit["network"].iloc[0])]
        if rows.empty:
            raise SweepError(f"{self.path}: no layer rows of candidate {candidate} on {network!r} "
                             "(output.mappings keeps some candidates' only)")
        cols = ["layer", "layer_name", "segment", "branch", "region_row", "region_col", "region_rows",
                "region_cols", "start_cycles", "finish_cycles", "latency_cycles"]
        return rows[cols].sort_values(["start_cycles", "layer"]).reset_index(drop=True)

    # -- answers ---------------------------------------------------------------------------

    @property
    def objectives(self):
        """The Pareto archive's objectives in order, e.g. ["latency", "energy", "area"]."""
        return [o for o in str(self.info.get("objectives", "")).split(",") if o]

    def best(self, n=1, by="cost"):
        """The n ok candidates lowest in `by` (a field of /candidates), best first."""
        c = self.candidates
        if by not in c:
            raise SweepError(f"{self.path}: /candidates has no field {by!r}")
        return c[c["status"] == "ok"].sort_values([by, "candidate"]).head(n)

    def front(self, batch=None):
        """The Pareto front after `batch` (default: the last committed batch), from /pareto."""
        p = self.pareto
        if batch is None:
            return p[p["left_batch"] < 0].reset_index(drop=True)
        on = (p["joined_batch"] <= batch) & ((p["left_batch"] < 0) | (p["left_batch"] > batch))
        return p[on].reset_index(drop=True)

    def best_so_far(self, by="cost"):
        """The lowest `by` among ok candidates after each evaluation (inf before the first),
        indexed by evaluations done: 1, 2, ..."""
        c = self.candidates
        v = np.where(c["status"] == "ok", c[by].to_numpy(dtype=float), np.inf)
        return pd.Series(np.minimum.accumulate(v) if len(v) else v, index=np.arange(1, len(v) + 1),
                         name=f"best {by}")

    def config(self, resolved=True):
        """The configuration as a dict: the resolved form (every default filled in) or, with
        resolved=False, the file as written."""
        import yaml  # Debian's python3-yaml; only this method needs it
        return yaml.safe_load(self.config_text(resolved))

    def config_text(self, resolved=True):
        """The configuration's text: /config/resolved or /config/source."""
        key = "config/resolved" if resolved else "config/source"
        if key not in self._file:
            raise SweepError(f"{self.path}: no /{key}")
        ds = self._file[key]
        # One string: a 1-element dataset (chunked, so checksummed) or, in older files, a scalar.
        return _text(ds[()] if ds.shape == () else ds[0])

    def cost_unit(self):
        """The unit of the cost fields for this sweep's alpha and beta ("J s" for EDP)."""
        cost = (self.config() or {}).get("cost", {}) or {}
        return cost_unit(float(cost.get("alpha", 1)), float(cost.get("beta", 1)))


def with_units(df):
    """A copy of `df` whose column names carry their units: "latency_s [s]"."""
    units = df.attrs.get("units", {})
    return df.rename(columns={c: f"{c} [{units[c]}]" for c in df.columns if units.get(c)})
