"""kladder.ladder(): an op and its reference up the ladder (rungs 1, 2 and 5), each check's
buffers made, filled and judged by libkladder, the run recorded in kladder's database.

The op is any callable. It is called with the inputs (in declared order, as arrays of the
backend's kind) and, as keywords, the parameters its signature names; it returns its outputs (one
or a tuple, in declared order), which are stored into kladder's guarded buffers; or, when its
signature names an output buffer, it gets that buffer to write in place (then a write past the
end lands in kladder's guards). The reference is called the same way with float64 copies of the
float inputs; its results are cast to the outputs' dtypes.
"""
import atexit
import ctypes
import inspect
import json
import os
import sys
import traceback
import weakref

from kladder import _lib, views
from kladder._lib import KladderError, check, enc, text


class Buffer:
    """A buffer of the op: dtype, dims over the parameters, and a manifest buffer's other fields
    (init, pad_to; an output's ties, ties_in, nan and its contract: reduce, kind, acc, domain,
    nonfinite, nan_pick)."""

    role = None

    def __init__(self, dtype, *dims, **fields):
        self.dtype, self.dims, self.fields = dtype, [str(d) for d in dims], fields


class In(Buffer):
    role = "input"


class Out(Buffer):
    role = "output"


class CheckResult:
    """One check's outcome. exception: what the op or the reference raised in it (with its
    traceback, from the callable's own frame on), or None; traceback is that as text."""

    def __init__(self, index, name, rung, values, verdict, oracle, shape, detail, first_bad,
                 exception=None):
        self.index, self.name, self.rung, self.values = index, name, rung, values
        self.verdict, self.oracle, self.shape = verdict, oracle, shape
        self.detail, self.first_bad = detail, first_bad
        self.exception = exception

    @property
    def traceback(self):
        if self.exception is None:
            return ""
        e = self.exception
        return "".join(traceback.format_exception(type(e), e, e.__traceback__))

    @property
    def failed(self):
        return self.verdict in ("fail", "hang", "error")

    @property
    def in_doubt(self):
        """The oracle could not vouch either way: neither a pass nor a failure of the op; the
        detail says what would settle it."""
        return self.verdict == "doubt"

    def describe(self):
        """One paragraph: the check, its class, its shape and what was wrong first."""
        cls = "" if not self.values else "replayed capture, " if self.values.startswith(
            "replay") else "value class %s, " % self.values
        text = ("rung %d check %s (%sshape %s): %s by the %s oracle: %s"
                % (self.rung, self.name, cls, self.shape, self.verdict, self.oracle, self.detail))
        if self.exception is not None:  # where in the op it raised, not only what
            text += "\n" + self.traceback.rstrip("\n")
        return text


class LadderFailure(AssertionError):
    pass


def _signature_names(fn):
    try:
        ps = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return set(), True
    kw = any(p.kind == p.VAR_KEYWORD for p in ps)
    return {p.name for p in ps}, kw


_dbs = {}  # the connections this process opened: {key: (handle, file identity)}
_replaced = []  # connections to a file since replaced, still used by the runs begun on them
_begun = weakref.WeakSet()  # the Ladders whose run uses one of them


def _file_id(path):
    try:
        st = os.stat(path)
        return st.st_dev, st.st_ino
    except OSError:
        return None


def _close_dbs():
    """At exit: the runs still open end (as their Ladders' __del__ would end them) while their
    connection lives, then the connections close. Only this process's: a forked child leaves
    its parent's alone."""
    pid = os.getpid()
    for lad in list(_begun):
        if lad._pid == pid:
            lad.close()
    for key, (h, _) in list(_dbs.items()) + _replaced:
        if key[2] == pid:
            _lib.lib().kl_db_close(h)
    _dbs.clear()
    _replaced.clear()


def _db(path):
    """This process's connection to the database at path (None: kladder's default one).
    Opening one reads its schema, marks the runs of processes that are gone as interrupted and
    builds the case index, which costs more than a small op's checks: it is opened once, kept
    for every later run and closed at exit. A file replaced or removed since (another file at
    the path) gets a new connection, and so does a forked child (a connection is its opener's)."""
    env = (os.environ.get("XDG_DATA_HOME"), os.environ.get("HOME")) if path is None else None
    key = (os.path.abspath(path) if path is not None else None, env, os.getpid())
    got = _dbs.get(key)
    if got is not None and (path is None or got[1] == _file_id(path)):
        return got[0]
    h = check(_lib.lib().kl_db_open(enc(path)))
    if not _dbs and not _replaced:
        atexit.register(_close_dbs)
    if got is not None:
        _replaced.append((key, got))
    _dbs[key] = (h, _file_id(path) if path is not None else None)
    return h


class Ladder:
    """An op described to libkladder and planned; run_check(i) runs one check, end() ends the
    run. One run per Ladder, begun at the first check."""

    def __init__(self, op, reference, params, buffers, rungs=(1, 2, 5), settings=None,
                 tiles=None, baseline=None, tolerance=(1e-5, 1e-5), backend="cpu", db=None,
                 name=None, seed=1, argv=None, files=None):
        L = _lib.lib()
        self.op, self.reference, self.backend = op, reference, backend
        self.name = name or getattr(op, "__name__", "op")
        self.buffers = dict(buffers)
        self._param_names = list(params)
        self._h = self._run = self._db = self._bufs = None
        self._views = {}
        self._own_db = False
        self._h = check(L.kl_op_new(enc(self.name)))
        try:
            self._describe(L, params, rungs, settings or {}, tiles, baseline, tolerance)
            if files is not None:
                check(L.kl_op_files(self._h, enc(files)))
            check(L.kl_op_plan(self._h, (ctypes.c_int * len(rungs))(*rungs), len(rungs),
                               enc(backend), seed))
        except BaseException:
            L.kl_op_free(self._h)
            self._h = None
            raise
        n = L.kl_op_checks(self._h)
        self.checks = [(i, text(L.kl_check_name(self._h, i)), L.kl_check_rung(self._h, i),
                        text(L.kl_check_values(self._h, i))) for i in range(n)]
        self.db_path, self.argv = db, argv if argv is not None else " ".join(sys.argv)
        self.results = {}
        self.verdict = None
        self._raised = None  # what the op or the reference raised in the running check
        self._launch = _lib.LAUNCH(self._on_launch)  # kept alive as long as the run
        # what each callable's signature names, asked once (not at every launch)
        self._names = {k: _signature_names(fn) for k, fn in (("op", op), ("ref", reference))}

    def _describe(self, L, params, rungs, settings, tiles, baseline, tolerance):
        for k, v in params.items():
            check(L.kl_op_param(self._h, enc(k), float(v)))
        for name, b in self.buffers.items():
            if not isinstance(b, Buffer):
                raise KladderError("buffers.%s: expected kladder.In(...) or kladder.Out(...)" % name)
            dims = (ctypes.c_char_p * max(len(b.dims), 1))(*[enc(d) for d in b.dims])
            check(L.kl_op_buffer(self._h, enc(name), enc(b.dtype), enc(b.role), dims, len(b.dims)))
            for key, val in b.fields.items():
                check(L.kl_op_buffer_set(self._h, enc(name), enc(key), enc(json.dumps(val))))
        if tolerance is not None:
            check(L.kl_op_tolerance(self._h, float(tolerance[0]), float(tolerance[1])))
        if tiles:
            check(L.kl_op_set(self._h, b"tiles", enc(json.dumps(tiles))))
        if baseline:
            check(L.kl_op_set(self._h, b"baseline", enc(json.dumps(baseline))))
        for r in rungs:
            s = settings.get(r, settings.get(str(r), {}))
            check(L.kl_op_rung(self._h, int(r), enc(json.dumps(s))))

    # ---- running ---------------------------------------------------------------------------

    @property
    def run_id(self):
        return text(_lib.lib().kl_run_id(self._run)) if self._run else None

    def _begin(self):
        L = _lib.lib()
        if self._db is None and self.db_path == ":memory:":  # a database of this run's own
            self._db = check(L.kl_db_open(b":memory:"))
            self._own_db = True
        elif self._db is None:
            self._db = _db(self.db_path)
        if self._run is None:
            self._run = check(L.kl_run_begin(self._db, self._h, enc(self.argv)))
            self._pid = os.getpid()
            _begun.add(self)

    def _call_views(self, call):
        L = _lib.lib()
        make = views.numpy_view if self.backend == "cpu" else views.torch_view
        if self._bufs is None:  # the op's buffers: the same in every check
            self._bufs = [(b, text(L.kl_call_buffer_name(call, b)),
                           text(L.kl_call_buffer_dtype(call, b)), L.kl_call_is_output(call, b),
                           range(L.kl_call_ndims(call, b)))
                          for b in range(L.kl_call_buffers(call))]
        dim, padded_dim, data = L.kl_call_dim, L.kl_call_padded_dim, L.kl_call_data
        ins, outs = [], {}
        for b, name, dtype, is_out, dims in self._bufs:
            key = (data(call, b), dtype, tuple(padded_dim(call, b, d) for d in dims),
                   tuple(dim(call, b, d) for d in dims))
            v = self._views.get(key)
            if v is None:
                v = make(*key)
                if self.backend != "cpu":
                    self._keep_view(key, v)
            if is_out:
                outs[name] = v
            else:
                ins.append(v)
        return ins, outs

    def _keep_view(self, key, v):
        """A GPU buffer's tensor, kept for the next launch on the same buffer: wrapping device
        memory through __cuda_array_interface__ costs torch tens of microseconds, and the
        engine hands a run's checks the same buffers again (engine/session/session.h). A key is the
        buffer's address, dtype and shape, so a view is only ever reused for the memory and
        shape it was made for."""
        if len(self._views) >= 64:
            self._views.clear()
        self._views[key] = v

    def _params(self, call, names, any_kw):
        L = _lib.lib()
        out = {}
        val = ctypes.c_double()
        for k in self._param_names:
            if (any_kw or k in names) and L.kl_call_param(call, enc(k), ctypes.byref(val)) == 0:
                out[k] = int(val.value) if float(val.value).is_integer() else val.value
        return out

    def _on_launch(self, user, reference, call):
        try:
            ins, outs = self._call_views(call)
            fn = self.reference if reference else self.op
            if reference:
                ins = [views.wide(a) for a in ins]
            names, any_kw = self._names["ref" if reference else "op"]
            in_place = {k: v for k, v in outs.items() if k in names}
            kwargs = self._params(call, names, any_kw)
            kwargs.update(in_place)
            got = fn(*ins, **kwargs)
            rest = [k for k in outs if k not in in_place]
            if rest:
                got = list(got) if isinstance(got, (tuple, list)) else [got]
                if len(got) != len(rest):
                    raise ValueError("returned %d value(s) for the output(s) %s"
                                     % (len(got), ", ".join(rest)))
                for k, v in zip(rest, got):
                    views.store(outs[k], v)
            if self.backend != "cpu":
                import torch
                torch.cuda.synchronize()
            return 0
        except BaseException as e:  # the engine reports it as the check's error
            if self._raised is None:
                # the traceback from the callable's own frame on: this one is kladder's
                self._raised = e.with_traceback(e.__traceback__.tb_next or e.__traceback__)
            _lib.lib().kl_call_fail(call, enc("%s: %s" % (type(e).__name__, e)))
            return 1

    def run_check(self, i):
        """Runs check i (an index into self.checks) and returns its CheckResult."""
        L = _lib.lib()
        self._begin()
        self._raised = None
        try:
            check(L.kl_run_check(self._run, i, self._launch, None))
        finally:
            raised, self._raised = self._raised, None
        idx, name, rung, values = self.checks[i]
        r = CheckResult(idx, name, rung, values, text(L.kl_check_verdict(self._run, i)),
                        text(L.kl_check_oracle(self._run, i)), text(L.kl_check_shape(self._run, i)),
                        text(L.kl_check_detail(self._run, i)), L.kl_check_first_bad(self._run, i),
                        raised)
        self.results[i] = r
        return r

    def end(self):
        """Ends and records the run; returns its verdict ("pass", "fail", ...)."""
        L = _lib.lib()
        if self._run is not None and self.verdict is None:
            v = ctypes.c_char_p()
            check(L.kl_run_end(self._run, ctypes.byref(v)))
            self.verdict = text(v.value)
        return self.verdict

    def close(self):
        L = _lib.lib()
        self.end()
        self._views = {}  # over the run's buffers, which go back with it
        if self._run is not None:
            L.kl_run_free(self._run)
            self._run = None
        if self._db is not None and self._own_db:
            L.kl_db_close(self._db)
        self._db = None  # else the process's connection (_db), closed at exit
        if self._h:
            L.kl_op_free(self._h)
            self._h = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Report:
    """What kladder.ladder() returns: the run's id and verdict, every check's result."""

    def __init__(self, lad):
        self.run_id, self.verdict = lad.run_id, lad.verdict
        self.checks = [lad.results[i] for i in sorted(lad.results)]

    @property
    def failures(self):
        return [c for c in self.checks if c.failed]

    @property
    def doubts(self):
        return [c for c in self.checks if c.in_doubt]

    @property
    def passed(self):
        """Every check passed or was skipped: none failed and none is in doubt."""
        return not self.failures and not self.doubts

    def raise_for_failures(self):
        """Raises LadderFailure naming every check that failed or is in doubt (a doubt is no
        pass: the oracle could not vouch for the op)."""
        if not self.failures and self.doubts:
            raise LadderFailure("kladder run %s: %d of %d checks in doubt (not a pass, not a "
                                "failure of the op):\n%s" % (self.run_id, len(self.doubts),
                                                              len(self.checks), "\n".join(
                                                                  c.describe() for c in self.doubts)))
        if not self.failures:
            return
        lines, seen = [], set()
        for c in self.failures:
            text = c.describe()
            # an op that raises raises in every check: its traceback once, at the first
            if c.exception is not None and c.traceback in seen:
                text = text.split("\n")[0] + " (the traceback above)"
            seen.add(c.traceback)
            lines.append(text)
        raise LadderFailure("kladder run %s: %d of %d checks failed:\n%s"
                            % (self.run_id, len(self.failures), len(self.checks), "\n".join(lines)))


def ladder(op, reference, params, buffers, rungs=(1, 2, 5), **options):
    """Runs every check of the rungs on op against reference and records the run. options:
    settings ({rung: manifest settings}), tiles, baseline, tolerance=(abs, rel), backend
    ("cpu" or "cuda"), db (a path; None: kladder's default database), name, seed, files (the
    folder the files of the settings are in, such as rung 2's captures; default: the working
    directory)."""
    lad = Ladder(op, reference, params, buffers, rungs, **options)
    try:
        for i in range(len(lad.checks)):
            lad.run_check(i)
        lad.end()
        return Report(lad)
    finally:
        lad.close()

