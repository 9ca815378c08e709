/* The zero-test audit of CI reports (`kladder ci-audit`): a job whose reports show that nothing
 * ran must fail, whatever its own exit status said (aiter-5133: 141 test functions never ran and
 * the job passed).
 *
 * It fails when, over all the reports together: no test executed; every test was skipped; fewer
 * than min_tests executed; a pytest log ends with exit status 5 (no tests collected) or 2-4 (it
 * did not finish); or, given baseline reports (an earlier good run of the same job), any suite
 * executed fewer tests than it did there, a missing suite counting as zero. Executed means run,
 * not skipped; a failed test executed. */
#ifndef KL_IMPORTERS_CI_AUDIT_H
#define KL_IMPORTERS_CI_AUDIT_H

#include <stddef.h>
#include <stdio.h>

#include "importers/ci_report.h"

struct ci_audit_opts {
    long min_tests;                          /* at least 1 */
    struct ci_report *const *baseline;       /* may be NULL */
    size_t nbaseline;
};

/* Writes one line per report, then one line per finding and a last "ci-audit: ok" or
 * "ci-audit: FAIL (N findings)" to out. Returns the number of findings (0: the audit passed). */
size_t ci_audit(struct ci_report *const *reports, size_t n, const struct ci_audit_opts *o,
                FILE *out);

#endif
