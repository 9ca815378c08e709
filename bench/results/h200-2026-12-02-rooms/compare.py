#!/usr/bin/env python3
"""Compares the old and new kladder's --json reports of each case (run.sh's files): the exit
status and, check by check (variant, name), the verdict. Prints one line per case and every
check that differs; exits 1 when anything differs.

    python3 compare.py FOLDER
"""
import glob, json, os, sys

folder = sys.argv[1]
steps = {}
for line in open(os.path.join(folder, 'steps.tsv')):
    side, case, rc, secs = line.rstrip('\n').split('\t')
    steps[(side, case)] = (int(rc), int(secs))

def checks(side, case):
    try:
        doc = json.load(open(os.path.join(folder, '%s-%s.json' % (side, case))))
    except (OSError, ValueError):
        return None
    return {(c['variant'], c['check'], c.get('shape', '')): c['verdict'] for c in doc['checks']}

differ = 0
for case in sorted({c for _, c in steps}):
    old, new = checks('old', case), checks('new', case)
    rc_old, rc_new = steps.get(('old', case), (None, 0))[0], steps.get(('new', case), (None, 0))[0]
    if old is None or new is None:
        print('%-16s old exit %s, new exit %s: a report is missing' % (case, rc_old, rc_new))
        differ += 1
        continue
    diff = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    same = rc_old == rc_new and not diff
    differ += not same
    print('%-16s %s: exit %s/%s, %d checks, %d differ' % (case, 'same' if same else 'DIFFERS',
                                                       rc_old, rc_new, len(new), len(diff)))
    for k in diff:
        print('    %s %s %s: old %s, new %s' % (k[0], k[1], k[2], old.get(k), new.get(k)))
sys.exit(1 if differ else 0)
