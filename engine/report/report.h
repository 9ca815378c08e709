/* The reporters of engine/reporter.h's interface, and what they share. */
#ifndef KL_ENGINE_REPORT_REPORT_H
#define KL_ENGINE_REPORT_REPORT_H

#include <stdio.h>

#include <cJSON.h>

#include "engine/reporter.h"
#include "engine/runner.h"

/* Each returns a reporter to free with its free(), or NULL with a message. Any hook may be
 * NULL. */
struct eng_reporter *eng_report_text(void);                 /* stdout, for people */
struct eng_reporter *eng_report_json(void);                 /* stdout, one JSON document */
struct eng_reporter *eng_report_junit(const char *path);    /* written atomically at the end */
struct eng_reporter *eng_report_events(int fd, char *err, size_t errlen); /* JSON lines */
struct eng_reporter *eng_report_progress(void);             /* a bar on stderr */
struct eng_reporter *eng_report_db(struct cdb *db);         /* run, machine and checks */

/* s as XML text or attribute content: the five special characters as entities, and the control
 * characters XML 1.0 forbids even as references as '?' (JUnit files, `kladder exec --junit`
 * too). NULL writes nothing. */
void eng_xml_escaped(FILE *f, const char *s);

/* The JSON form of a check that the JSON report and the event stream share. Caller owns it.
 * (A machine is written by importers/machine_json.h, the serializer `kladder export` uses, so
 * an unknown value is null in every document kladder writes.) */
cJSON *eng_report_check_json(const struct eng_done *d);
/* The run's verdict as reports print it: cdb_verdict_name(), or "inconclusive". Static. */
const char *eng_summary_verdict_name(const struct eng_summary *s);
const char *eng_schedule_name(enum eng_schedule s);

/* What caught the buggy variant of each user's own suite of a run (neither a reproducer nor a
 * control): per rung, its buggy checks, those that caught the bug (a failure, a hang, a crash)
 * and those skipped here, and the same of its plain unit test's shapes. Such a suite states no
 * expectation of its buggy variant, so this is the run's answer about it, never a verdict: the
 * text and JSON reports both say it. Returns how many suites, in the order their first buggy
 * check ran; *out is malloc'd (NULL when none), its suite names the checks' own. */
struct eng_user_catch {
    const char *suite;
    int checks[ENG_RUNG_SLOTS], caught[ENG_RUNG_SLOTS], skipped[ENG_RUNG_SLOTS];
    int base, base_caught;
};
size_t eng_user_suite_catches(const struct eng_done *checks, size_t n, struct eng_user_catch **out);

/* Why some checks of a run were judged against the reference alone, with no wide build of it
 * (eng_check_result.no_arbiter): each distinct reason once, with the number of checks it
 * concerns, in the order first met. Returns how many; *out is malloc'd (NULL when none), its
 * reasons the checks' own. The reports say each once instead of in every finding. */
struct eng_arbiter_note {
    const char *why;
    int checks;
};
size_t eng_no_arbiter_notes(const struct eng_done *checks, size_t n, struct eng_arbiter_note **out);

/* The reporters a run's options ask for (a text or JSON report on stdout, and the progress bar,
 * JUnit file, database and event stream it names), NULL-terminated, for eng_run_opts'
 * open_reports; NULL with a message on error. Each is freed by its own free(). */
struct eng_reporter **eng_reporters_open(const struct eng_run_opts *o, char *err, size_t errlen);

#endif
