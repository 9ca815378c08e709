/* What a rung adds to a check beside the columns every check has (rung 3's seam, rung 8's
 * score) is one JSON object in one column, checks.facts, keyed by the fact's name:
 *
 *   {"seam": {"what": TEXT, "a": TEXT, "b": TEXT},
 *    "score": {"value": REAL, "baseline": REAL, "samples": INT, "diverge_step": INT},
 *    "exec": {...}}
 *
 * "exec" is a check of a `kladder exec` run (docs/exec.md, "What is recorded"): the program
 * check's {"verdict", "file", "args", "schedule", "seed", "wave", "exit_status", "signal",
 * "stopped", "timed_out", "timeout_s", "output_tail", "output_cut"}, or a finding's {"kind"}.
 * The engine writes it whole (engine/prog/prog_record.c) and a pull checks it member by member
 * (importers/results_json.c); casedb stores and returns its text.
 *
 * NULL when the check has none; a member that is not known is left out, never null. Numbers
 * are written with 17 significant digits, so a REAL reads back bit for bit (a merge compares a
 * pulled check with the stored one exactly). A new fact is a new key, not a new column.
 * casedb-internal: the SQL that writes the object and reads its members. */
#ifndef KL_CASEDB_CHECK_FACTS_H
#define KL_CASEDB_CHECK_FACTS_H

/* A member of checks row alias's facts ("c." or ""), by its JSON path ("score.value"). */
#define CDB_FACT(alias, path) "json_extract(" alias "facts, '$." path "')"

/* A REAL as JSON text that reads back exactly, or NULL. */
#define CDB_FACT_REAL(x) "CASE WHEN " x " IS NULL THEN NULL ELSE json(printf('%!.17g', " x ")) END"

/* The facts object of a check from its seam (what, a, b: all or none NULL), its score (value
 * NULL: none) and its exec object (JSON text, NULL: none), as SQL expressions; NULL when there
 * is none of them. */
#define CDB_FACTS_JSON(what, a, b, value, baseline, samples, step, exec)                       \
    "nullif(json_patch(json_patch(json_patch('{}',"                                             \
    " CASE WHEN " what " IS NULL THEN '{}' ELSE json_object('seam', json_object('what', " what  \
    ", 'a', " a ", 'b', " b ")) END),"                                                          \
    " CASE WHEN " value " IS NULL THEN '{}' ELSE json_object('score', json_object("             \
    "'value', " CDB_FACT_REAL(value) ", 'baseline', " CDB_FACT_REAL(baseline) ","               \
    " 'samples', " samples ", 'diverge_step', " step ")) END),"                                 \
    " CASE WHEN " exec " IS NULL THEN '{}' ELSE json_object('exec', json(" exec ")) END), '{}')"

#endif
