"""pytest plugin (`pytest -p kladder.pytest_plugin`, or installed: found by its entry point):
every kladder.Case at a test module's top level is collected as one test item per planned
check, named `CASE[CHECK]` ("test_softmax[tail-N65-BLOCK64]"), so JUnit reports, -k and -x work
per check. A failing check's report names the check, its rung, value class and shape, and the
first bad element; each case's kladder run id is printed at the end (and is in every failure).
A case whose op cannot be described or planned fails as one collection error naming the field.

A check in doubt (the oracle could not vouch either way: docs/engine.md, "Contracts, bounds and
doubt") is neither a pass nor a failure of the op. It is reported as a failed test, so that no
CI reads it as green, under an outcome of its own: `D` in the progress line, `DOUBT` with -v,
"N doubt" in the summary line, and its report says what would settle it.

Inside an existing test, the fixture `kladder_ladder` runs kladder.ladder() and fails the test
with every failing check named.
"""
import pytest

import kladder

_open = []  # the ladders begun in this session, ended at its finish


class CheckFailed(Exception):
    pass


class CheckInDoubt(CheckFailed):
    """A check whose oracle could not vouch either way: shown as DOUBT, never PASSED."""


class LadderCollector(pytest.Collector):
    def __init__(self, *, case, **kw):
        super().__init__(**kw)
        self.case = case
        self.ladder = None

    def collect(self):
        argv = "pytest %s::%s" % (self.path.name, self.name)
        # a capture a case names is beside its test file unless the case says where
        files = self.case.options.get("files", str(self.path.parent))
        self.ladder = self.case.make(argv=argv, name=self.case.options.get("name", self.name),
                                     files=files)
        _open.append(self)
        for i, check, rung, values in self.ladder.checks:
            yield LadderItem.from_parent(self, name="%s[%s]" % (self.name, check), index=i,
                                         rung=rung)


class LadderItem(pytest.Item):
    def __init__(self, *, index, rung, **kw):
        super().__init__(**kw)
        self.index = index
        self.add_marker(pytest.mark.kladder_rung(rung))

    def runtest(self):
        lad = self.parent.ladder
        r = lad.run_check(self.index)
        if r.verdict == "skip":
            pytest.skip("kladder: %s" % r.detail)
        if r.in_doubt:
            raise CheckInDoubt("kladder run %s, IN DOUBT (not a pass, not a failure of the op): %s"
                               % (lad.run_id, r.describe()))
        if r.failed:
            # the detail names the first bad element at its coordinates where an oracle found
            # one ("first at [0, 4]"); the flat index where it only counted
            at = "" if "first at" in r.detail or r.first_bad < 0 else \
                "\n  first bad element: flat index %d" % r.first_bad
            if r.exception is not None:  # its traceback is shown by repr_failure
                raise CheckFailed("kladder run %s, %s" % (lad.run_id, r.describe().split("\n")[0])) \
                    from r.exception
            raise CheckFailed("kladder run %s, %s%s" % (lad.run_id, r.describe(), at))

    def repr_failure(self, excinfo):
        e = excinfo.value
        if not isinstance(e, CheckFailed):
            return super().repr_failure(excinfo)
        if e.__cause__ is None:
            return str(e)
        # The op (or the reference) raised: its traceback as pytest shows one in a test of its
        # own, from the callable's frame on (none of kladder's or pytest's frames), then the
        # check it broke.
        c = e.__cause__
        info = pytest.ExceptionInfo.from_exc_info((type(c), c, c.__traceback__))
        style = self.config.getoption("tbstyle", "auto")
        shown = info.getrepr(style="long" if style == "auto" else style,
                             showlocals=self.config.getoption("showlocals", False))
        return "%s\n%s" % (shown, e)

    def reportinfo(self):
        return self.path, None, self.name


@pytest.fixture
def kladder_ladder():
    """kladder.ladder() inside an existing test: runs every check of the rungs and fails the
    test with each failing check named (and the run id); returns the report."""
    def run(op, reference, params, buffers, rungs=(1, 2, 5), **options):
        report = kladder.ladder(op, reference, params, buffers, rungs, **options)
        report.raise_for_failures()
        return report
    return run


def pytest_report_teststatus(report, config):
    # a doubt's outcome stays "failed" (pytest's exit status is not 0); its word is DOUBT
    if report.when == "call" and report.failed and "IN DOUBT (not a pass" in str(report.longrepr):
        return "doubt", "D", "DOUBT"
    return None


def pytest_configure(config):
    config.addinivalue_line("markers", "kladder_rung(n): a check of kladder's rung n")


def pytest_pycollect_makeitem(collector, name, obj):
    if isinstance(obj, kladder.Case):
        return LadderCollector.from_parent(collector, name=name, case=obj)
    return None


def pytest_terminal_summary(terminalreporter):
    # a doubt is no failure of the op, so pytest's FAILURES section does not show it: its own
    # section does, with what would settle it
    doubts = terminalreporter.stats.get("doubt", [])
    if doubts:
        terminalreporter.write_sep("=", "kladder: checks in doubt (not a pass)")
        for rep in doubts:
            terminalreporter.write_line("%s\n%s" % (rep.nodeid, rep.longrepr))
    for col in _open:
        lad = col.ladder
        if lad is None or lad.run_id is None:
            continue
        verdict = lad.end()
        ran = len(lad.results)
        bad = sum(r.failed for r in lad.results.values())
        doubt = sum(r.in_doubt for r in lad.results.values())
        terminalreporter.write_line("kladder run %s (%s): %s, %d check%s run, %d failed%s"
                                    % (lad.run_id, col.name, verdict, ran, "" if ran == 1 else "s",
                                       bad, ", %d in doubt" % doubt if doubt else ""))


def pytest_unconfigure(config):
    while _open:
        col = _open.pop()
        if col.ladder is not None:
            col.ladder.close()
