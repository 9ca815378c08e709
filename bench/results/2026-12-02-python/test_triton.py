"""The Triton and torch cases of ops_triton.py through the pytest plugin, rungs 1, 2 and 5 each,
the correct and the buggy version of every op (run.sh reads the JUnit report)."""
import os

import ops_triton

for _name in ops_triton.CASES:
    for _which in ("fixed", "buggy"):
        globals()["test_%s_%s" % (_name, _which)] = ops_triton.case(_name, _which,
                                                                    os.environ["KL_DB"])
