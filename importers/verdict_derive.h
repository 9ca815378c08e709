/* Verdicts of a pulled document, judged again here (docs/remote.md, "Verdicts are re-derived").
 *
 * A document's verdicts are what its host said. What is stored is what this kladder's rules make
 * of the document's own facts: a check's verdict from its recorded fields, a run's from its
 * checks. The document's word is kept beside ("exported as"), so an older kladder's export lands
 * with an honest verdict instead of being refused, and a tampered one cannot say pass.
 *
 * Every word is handled, known or not: kladder's own (pass, fail, hang, error, skip, cancelled,
 * doubt; running and interrupted for runs), and any other, which never reads as a pass. */
#ifndef KL_IMPORTERS_VERDICT_DERIVE_H
#define KL_IMPORTERS_VERDICT_DERIVE_H

#include <stddef.h>

#include "casedb/results.h"

/* A check's verdict from the word its document wrote and its own fields:
 * - fail, hang, error and doubt stand (doubt records the elements it could not settle);
 * - a check that records bad elements (bad_count > 0 or a first_bad index) failed, whatever its
 *   word says: no pass, skip or cancelled check records any;
 * - a skip or cancelled check never ran, so one that records a time or an error is an error:
 *   it ran, and what it found is not known;
 * - a word this kladder does not know for a check (running and interrupted included) is an
 *   error, unless the rule above makes it a fail.
 * Sets *out. Returns NULL when the word stands, or a phrase saying why it was changed (static:
 * "it records 3 bad elements"), written into why. */
const char *imp_check_verdict_derive(const char *word, const struct cdb_check *c,
                                     enum cdb_verdict *out, char *why, size_t whylen);

/* A run's verdict from its checks (already derived) and the word its document wrote.
 *
 * From the checks, by the engine's rules as far as a document shows them (a check of any
 * variant but "buggy" is of a kernel expected to be right): a right-side check that failed makes
 * the run fail, one that hung makes it hang, one in error or cancelled makes it an error; a
 * (suite, rung) of the run none of whose checks ran (all skipped or cancelled), or a run with no
 * check that ran, fails: it tested nothing. Otherwise the checks say pass (doubts included).
 *
 * The document's word may only say worse than the checks, for what a document does not show
 * (a bug that escaped every rung, a worker that died, a question left open):
 * - fail stands; error stands unless the checks show a fail or a hang; skip stands unless the
 *   checks show anything but a pass; cancelled and interrupted (what became of the process)
 *   stand;
 * - pass, hang, doubt, running and any unknown word give the checks' verdict.
 * Writes a sentence into why when the result differs from the word (empty otherwise). */
enum cdb_verdict imp_run_verdict_derive(const char *word, const struct cdb_check *cs, size_t n,
                                        char *why, size_t whylen);

#endif
