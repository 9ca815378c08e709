"""The ops of ops.py up the ladder through the pytest plugin (tests/python/ladder_ops.sh runs
it): every correct op at rungs 1, 2 and 5, each buggy one at the rung of its class. KL_DB names
the database the runs go to."""
import os

import ops

for _name in ops.OPS:
    for _which in ("fixed", "tail", "values", "repeat"):
        globals()["test_%s_%s" % (_name, _which)] = ops.case(_name, _which, os.environ["KL_DB"])
