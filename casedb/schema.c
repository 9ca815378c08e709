#include "casedb/schema.h"

#include "casedb/case.h"
#include "casedb/check_facts.h"

/* A number as SQL text: the rung bound of migration 7 spelled from CDB_RUNG_MAX. */
#define SQL_NUMBER(n) SQL_NUMBER_(n)
#define SQL_NUMBER_(n) #n

/* Migration 1: the case index and the results tables. Later versions append a migration;
 * they never edit one that has shipped. */
static const char migration_1_index[] =
    /* --- key/value facts about the database itself (where its index came from...) --- */
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    /* --- the case index (replaced whole by each import) --- */
    "CREATE TABLE gaps ("
    "  n INTEGER PRIMARY KEY CHECK (n BETWEEN 1 AND 7),"
    "  key TEXT NOT NULL UNIQUE,"
    "  name_en TEXT NOT NULL, name_zh TEXT NOT NULL,"
    "  summary_en TEXT NOT NULL, summary_zh TEXT NOT NULL);"
    "CREATE TABLE rungs ("
    "  n INTEGER PRIMARY KEY CHECK (n BETWEEN 1 AND 8),"
    "  key TEXT NOT NULL UNIQUE,"
    "  name_en TEXT NOT NULL, name_zh TEXT NOT NULL,"
    "  runs_en TEXT NOT NULL, runs_zh TEXT NOT NULL);"
    "CREATE TABLE rung_closes ("
    "  rung INTEGER NOT NULL REFERENCES rungs(n) ON DELETE CASCADE,"
    "  gap INTEGER NOT NULL REFERENCES gaps(n) ON DELETE CASCADE,"
    "  PRIMARY KEY (rung, gap));"
    "CREATE TABLE cases ("
    "  id TEXT PRIMARY KEY,"
    "  repo TEXT NOT NULL, arch TEXT NOT NULL,"
    "  gap INTEGER NOT NULL REFERENCES gaps(n),"
    "  rung INTEGER NOT NULL REFERENCES rungs(n),"
    "  title_en TEXT NOT NULL, title_zh TEXT NOT NULL,"
    "  summary_en TEXT NOT NULL, summary_zh TEXT NOT NULL,"
    "  catch_en TEXT NOT NULL, catch_zh TEXT NOT NULL,"
    "  notes TEXT, reproducer TEXT,"
    "  verified INTEGER NOT NULL);"
    "CREATE TABLE case_gaps ("
    "  case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
    "  gap INTEGER NOT NULL REFERENCES gaps(n),"
    "  PRIMARY KEY (case_id, gap));"
    "CREATE TABLE case_symptoms ("
    "  case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
    "  ord INTEGER NOT NULL, tag TEXT NOT NULL,"
    "  PRIMARY KEY (case_id, tag));"
    "CREATE TABLE case_models ("
    "  case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
    "  ord INTEGER NOT NULL, model TEXT NOT NULL,"
    "  PRIMARY KEY (case_id, ord));"
    "CREATE TABLE case_refs ("
    "  case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
    "  ord INTEGER NOT NULL,"
    "  ref TEXT NOT NULL UNIQUE, repo TEXT NOT NULL, number INTEGER NOT NULL,"
    "  url TEXT NOT NULL, kind TEXT, state TEXT, date TEXT, title TEXT,"
    "  verified INTEGER NOT NULL,"
    "  PRIMARY KEY (case_id, ord));"
    "CREATE TABLE case_figures ("
    "  case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
    "  ord INTEGER NOT NULL, value TEXT NOT NULL, label_en TEXT NOT NULL, label_zh TEXT NOT NULL,"
    "  PRIMARY KEY (case_id, ord));"
    "CREATE TABLE case_rates ("
    "  case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
    "  ord INTEGER NOT NULL, failures REAL NOT NULL, trials REAL NOT NULL,"
    "  label_en TEXT NOT NULL, label_zh TEXT NOT NULL,"
    "  PRIMARY KEY (case_id, ord));"
    "CREATE TABLE case_related ("
    "  case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
    "  ord INTEGER NOT NULL, related TEXT NOT NULL,"
    "  PRIMARY KEY (case_id, ord));"
    /* One row per case: all searchable text of both languages. The trigram tokenizer matches
     * any substring of three or more characters, Chinese included; shorter terms (挂) are found
     * with LIKE over the same table. */
    "CREATE VIRTUAL TABLE case_fts USING fts5(case_id UNINDEXED, body, tokenize='trigram');";

static const char migration_1_results[] =
    "CREATE TABLE hosts ("
    "  name TEXT PRIMARY KEY,"
    "  url TEXT NOT NULL,"
    "  added TEXT NOT NULL,"
    "  last_pull TEXT, last_error TEXT, cursor TEXT);"
    "CREATE TABLE machines ("
    "  id TEXT PRIMARY KEY,"
    "  host TEXT NOT NULL, backend TEXT NOT NULL, device TEXT NOT NULL, target TEXT NOT NULL,"
    "  wave_size INTEGER NOT NULL, compute_units INTEGER, mem_bytes INTEGER,"
    "  driver_version TEXT, runtime_version TEXT, compiler_version TEXT,"
    "  compute_partition TEXT, memory_partition TEXT,"
    "  kladder_version TEXT NOT NULL, kladder_commit TEXT);"
    "CREATE TABLE runs ("
    "  uuid TEXT PRIMARY KEY,"
    "  machine_id TEXT NOT NULL REFERENCES machines(id),"
    "  host TEXT NOT NULL,"
    "  origin TEXT REFERENCES hosts(name) ON DELETE SET NULL," /* NULL: run here */
    "  rung INTEGER NOT NULL CHECK (rung BETWEEN 0 AND 8),"
    "  suite TEXT, case_id TEXT, variant TEXT, argv TEXT,"
    "  started TEXT NOT NULL, finished TEXT,"
    "  verdict TEXT NOT NULL CHECK (verdict IN"
    "    ('pass','fail','hang','error','skip','cancelled','running')));"
    "CREATE INDEX runs_by_host ON runs(host, started);"
    "CREATE TABLE checks ("
    "  run_uuid TEXT NOT NULL REFERENCES runs(uuid) ON DELETE CASCADE,"
    "  seq INTEGER NOT NULL,"
    "  rung INTEGER NOT NULL, suite TEXT NOT NULL, variant TEXT NOT NULL,"
    "  check_name TEXT NOT NULL, shape TEXT NOT NULL, oracle TEXT NOT NULL,"
    "  verdict TEXT NOT NULL CHECK (verdict IN"
    "    ('pass','fail','hang','error','skip','cancelled')),"
    "  detail TEXT NOT NULL,"
    "  first_bad INTEGER, bad_count INTEGER, max_err REAL,"
    "  time_median_us REAL, time_min_us REAL, time_max_us REAL,"
    "  repeats INTEGER NOT NULL, limit_s REAL,"
    "  PRIMARY KEY (run_uuid, seq));"
    "CREATE INDEX checks_by_key ON checks(rung, suite, check_name, shape, variant);";

static const char *const migration_1[] = {migration_1_index, migration_1_results, NULL};

/* Migration 2: the results tables keyed by integers. A check named its run by a 36-byte UUID and
 * carried its five key columns as text, in the table and again in two indexes: about 240 bytes
 * of B-tree per check. Runs now have an integer id (the UUID stays, unique, for merging and
 * output), the five key columns live once in check_keys, and checks are a WITHOUT ROWID table
 * ordered by (run_id, seq), so a run's checks are appended where its run's id ends the table.
 * Each run also carries its verdict counts, written with its checks, so listing runs reads no
 * checks. Measured with two hosts of 50,000 checks: the database 24 MB -> 8 MB, and the inserts
 * several times faster (bench/RESULTS.md, "pull"). Existing rows are copied over, in their old order. */
/* The verdict CHECK spelled as comparisons, not "verdict IN (...)": SQLite builds an IN list's
 * lookup table afresh each time an INSERT statement runs, which cost 4 us per row, 0.4 s of a
 * 100,000-check pull; six comparisons cost almost nothing. */
#define VERDICT_IS_FINAL                                                                        \
    "(verdict = 'pass' OR verdict = 'fail' OR verdict = 'hang' OR verdict = 'error'"          \
    " OR verdict = 'skip' OR verdict = 'cancelled')"

static const char migration_2_results[] =
    "CREATE TABLE runs_v2 ("
    "  id INTEGER PRIMARY KEY,"
    "  uuid TEXT NOT NULL UNIQUE,"
    "  machine_id TEXT NOT NULL REFERENCES machines(id),"
    "  host TEXT NOT NULL,"
    "  origin TEXT REFERENCES hosts(name) ON DELETE SET NULL," /* NULL: run here */
    "  rung INTEGER NOT NULL CHECK (rung BETWEEN 0 AND 8),"
    "  suite TEXT, case_id TEXT, variant TEXT, argv TEXT,"
    "  started TEXT NOT NULL, finished TEXT,"
    "  verdict TEXT NOT NULL CHECK (" VERDICT_IS_FINAL " OR verdict = 'running'),"
    /* checks per verdict, in the order of enum cdb_verdict */
    "  n_pass INTEGER NOT NULL DEFAULT 0, n_fail INTEGER NOT NULL DEFAULT 0,"
    "  n_hang INTEGER NOT NULL DEFAULT 0, n_error INTEGER NOT NULL DEFAULT 0,"
    "  n_skip INTEGER NOT NULL DEFAULT 0, n_cancelled INTEGER NOT NULL DEFAULT 0);"
    "INSERT INTO runs_v2 (uuid, machine_id, host, origin, rung, suite, case_id, variant, argv,"
    "  started, finished, verdict, n_pass, n_fail, n_hang, n_error, n_skip, n_cancelled)"
    " SELECT r.uuid, r.machine_id, r.host, r.origin, r.rung, r.suite, r.case_id, r.variant,"
    "  r.argv, r.started, r.finished, r.verdict,"
    "  (SELECT count(*) FROM checks c WHERE c.run_uuid = r.uuid AND c.verdict = 'pass'),"
    "  (SELECT count(*) FROM checks c WHERE c.run_uuid = r.uuid AND c.verdict = 'fail'),"
    "  (SELECT count(*) FROM checks c WHERE c.run_uuid = r.uuid AND c.verdict = 'hang'),"
    "  (SELECT count(*) FROM checks c WHERE c.run_uuid = r.uuid AND c.verdict = 'error'),"
    "  (SELECT count(*) FROM checks c WHERE c.run_uuid = r.uuid AND c.verdict = 'skip'),"
    "  (SELECT count(*) FROM checks c WHERE c.run_uuid = r.uuid AND c.verdict = 'cancelled')"
    " FROM runs r ORDER BY r.rowid;"
    "CREATE TABLE check_keys ("
    "  id INTEGER PRIMARY KEY,"
    "  rung INTEGER NOT NULL, suite TEXT NOT NULL, check_name TEXT NOT NULL,"
    "  shape TEXT NOT NULL, variant TEXT NOT NULL,"
    "  UNIQUE (rung, suite, check_name, shape, variant));"
    "INSERT INTO check_keys (rung, suite, check_name, shape, variant)"
    " SELECT DISTINCT rung, suite, check_name, shape, variant FROM checks"
    " ORDER BY rung, suite, check_name, shape, variant;"
    "CREATE TABLE checks_v2 ("
    "  run_id INTEGER NOT NULL REFERENCES runs_v2(id) ON DELETE CASCADE,"
    "  seq INTEGER NOT NULL,"
    "  key_id INTEGER NOT NULL REFERENCES check_keys(id),"
    "  oracle TEXT NOT NULL,"
    "  verdict TEXT NOT NULL CHECK (" VERDICT_IS_FINAL "),"
    "  detail TEXT NOT NULL,"
    "  first_bad INTEGER, bad_count INTEGER, max_err REAL,"
    "  time_median_us REAL, time_min_us REAL, time_max_us REAL,"
    "  repeats INTEGER NOT NULL, limit_s REAL,"
    "  PRIMARY KEY (run_id, seq)) WITHOUT ROWID;"
    "INSERT INTO checks_v2 SELECT r.id, c.seq, k.id, c.oracle, c.verdict, c.detail, c.first_bad,"
    "  c.bad_count, c.max_err, c.time_median_us, c.time_min_us, c.time_max_us, c.repeats,"
    "  c.limit_s"
    " FROM checks c JOIN runs_v2 r ON r.uuid = c.run_uuid"
    " JOIN check_keys k ON k.rung = c.rung AND k.suite = c.suite AND k.check_name = c.check_name"
    "  AND k.shape = c.shape AND k.variant = c.variant"
    " ORDER BY r.id, c.seq;"
    /* old checks first: dropping runs deletes its rows, which would cascade into them */
    "DROP TABLE checks;"
    "DROP TABLE runs;"
    /* renaming rewrites checks_v2's reference to runs_v2 as well */
    "ALTER TABLE runs_v2 RENAME TO runs;"
    "ALTER TABLE checks_v2 RENAME TO checks;"
    "CREATE INDEX runs_by_host ON runs(host, started);"
    "CREATE INDEX runs_by_origin ON runs(origin);"
    /* newest first without sorting every run's row (the Runs list, the latest verdicts) */
    "CREATE INDEX runs_by_start ON runs(started, id);"
    "CREATE INDEX checks_by_key ON checks(key_id);";

static const char *const migration_2[] = {migration_2_results, NULL};

/* Migration 3: who owns a run, and the verdict `interrupted`. A run made here records the
 * process that writes it (common/proc_owner.h: host, boot id, pid, start time); a later kladder
 * that finds that process gone marks the run `interrupted`, keeping the checks it finished
 * (runs_reap.h). Pulled runs and runs from before this migration have no owner (NULL) and are
 * never judged. SQLite cannot change a CHECK constraint in place, so runs is rebuilt; migrations
 * run with foreign keys off (cdb.c), so dropping the old table leaves its checks alone, and the
 * checks' REFERENCES runs(id) names the new table once it is renamed. */
static const char migration_3_results[] =
    "CREATE TABLE runs_v3 ("
    "  id INTEGER PRIMARY KEY,"
    "  uuid TEXT NOT NULL UNIQUE,"
    "  machine_id TEXT NOT NULL REFERENCES machines(id),"
    "  host TEXT NOT NULL,"
    "  origin TEXT REFERENCES hosts(name) ON DELETE SET NULL," /* NULL: run here */
    "  rung INTEGER NOT NULL CHECK (rung BETWEEN 0 AND 8),"
    "  suite TEXT, case_id TEXT, variant TEXT, argv TEXT,"
    "  started TEXT NOT NULL, finished TEXT,"
    "  verdict TEXT NOT NULL CHECK (" VERDICT_IS_FINAL
    "    OR verdict = 'running' OR verdict = 'interrupted'),"
    "  n_pass INTEGER NOT NULL DEFAULT 0, n_fail INTEGER NOT NULL DEFAULT 0,"
    "  n_hang INTEGER NOT NULL DEFAULT 0, n_error INTEGER NOT NULL DEFAULT 0,"
    "  n_skip INTEGER NOT NULL DEFAULT 0, n_cancelled INTEGER NOT NULL DEFAULT 0,"
    /* the recording process; all NULL for a pulled run or one recorded before migration 3 */
    "  owner_host TEXT, owner_boot TEXT, owner_pid INTEGER, owner_start INTEGER,"
    "  owner_pid_ns TEXT);"
    "INSERT INTO runs_v3 (id, uuid, machine_id, host, origin, rung, suite, case_id, variant, argv,"
    "  started, finished, verdict, n_pass, n_fail, n_hang, n_error, n_skip, n_cancelled)"
    " SELECT id, uuid, machine_id, host, origin, rung, suite, case_id, variant, argv,"
    "  started, finished, verdict, n_pass, n_fail, n_hang, n_error, n_skip, n_cancelled"
    " FROM runs ORDER BY id;"
    "DROP TABLE runs;"
    "ALTER TABLE runs_v3 RENAME TO runs;"
    "CREATE INDEX runs_by_host ON runs(host, started);"
    "CREATE INDEX runs_by_origin ON runs(origin);"
    "CREATE INDEX runs_by_start ON runs(started, id);"
    /* the runs a later kladder looks at for a gone owner: few, found without a scan */
    "CREATE INDEX runs_running ON runs(id) WHERE verdict = 'running';";

static const char *const migration_3[] = {migration_3_results, NULL};

/* Migration 4: the two sides of a seam a check found (rung 3's wave, a kernel's value beside
 * the reference's), kept apart from the detail sentence so the run view can set them side by
 * side; and the values a check filled its inputs with (rung 2's value class or replay). NULL
 * for every check before it, and for checks that record none. */
static const char migration_4_results[] =
    "ALTER TABLE checks ADD COLUMN value_class TEXT;"
    "ALTER TABLE checks ADD COLUMN seam TEXT;"
    "ALTER TABLE checks ADD COLUMN seam_a TEXT;"
    "ALTER TABLE checks ADD COLUMN seam_b TEXT;";

static const char *const migration_4[] = {migration_4_results, NULL};

/* Migration 5: rung 8's score as columns (struct cdb_score), so the results, compare and
 * dashboard read a score rather than parse it out of the detail sentence. All NULL for every
 * check before it and for checks that have no score. */
static const char migration_5_results[] =
    "ALTER TABLE checks ADD COLUMN score REAL;"
    "ALTER TABLE checks ADD COLUMN score_baseline REAL;"
    "ALTER TABLE checks ADD COLUMN score_samples INTEGER;"
    "ALTER TABLE checks ADD COLUMN score_diverge_step INTEGER;";

static const char *const migration_5[] = {migration_5_results, NULL};

/* Migration 6: the verdict `doubt` (an oracle in doubt, never a catch: docs/engine.md) for
 * checks, and its count with each run. SQLite cannot change a CHECK constraint in place, so
 * checks is rebuilt with the same columns in the same order. */
static const char migration_6_results[] =
    "CREATE TABLE checks_v6 ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  seq INTEGER NOT NULL,"
    "  key_id INTEGER NOT NULL REFERENCES check_keys(id),"
    "  oracle TEXT NOT NULL,"
    "  verdict TEXT NOT NULL CHECK (" VERDICT_IS_FINAL " OR verdict = 'doubt'),"
    "  detail TEXT NOT NULL,"
    "  first_bad INTEGER, bad_count INTEGER, max_err REAL,"
    "  time_median_us REAL, time_min_us REAL, time_max_us REAL,"
    "  repeats INTEGER NOT NULL, limit_s REAL,"
    "  value_class TEXT, seam TEXT, seam_a TEXT, seam_b TEXT,"
    "  score REAL, score_baseline REAL, score_samples INTEGER, score_diverge_step INTEGER,"
    "  PRIMARY KEY (run_id, seq)) WITHOUT ROWID;"
    "INSERT INTO checks_v6 SELECT run_id, seq, key_id, oracle, verdict, detail, first_bad,"
    "  bad_count, max_err, time_median_us, time_min_us, time_max_us, repeats, limit_s,"
    "  value_class, seam, seam_a, seam_b, score, score_baseline, score_samples,"
    "  score_diverge_step FROM checks ORDER BY run_id, seq;"
    "DROP TABLE checks;"
    "ALTER TABLE checks_v6 RENAME TO checks;"
    "CREATE INDEX checks_by_key ON checks(key_id);"
    "ALTER TABLE runs ADD COLUMN n_doubt INTEGER NOT NULL DEFAULT 0;";

static const char *const migration_6[] = {migration_6_results, NULL};

/* Migration 7: the ladder's length is no longer fixed at eight. Rung numbers run to
 * CDB_RUNG_MAX in the case index's rungs and in the results' runs, so a rung added to the
 * engine (one file: engine/rungs/rungN.c) is recorded, listed and compared like the others.
 * SQLite cannot change a CHECK constraint in place: both tables are rebuilt with the same
 * columns in the same order, as migration 3 did; migrations run with foreign keys off, so
 * dropping the old tables leaves the rows that refer to them (cases, rung_closes, checks)
 * alone, and their REFERENCES name the new tables once renamed. */
static const char migration_7_index[] =
    "CREATE TABLE rungs_v7 ("
    "  n INTEGER PRIMARY KEY CHECK (n BETWEEN 1 AND " SQL_NUMBER(CDB_RUNG_MAX) "),"
    "  key TEXT NOT NULL UNIQUE,"
    "  name_en TEXT NOT NULL, name_zh TEXT NOT NULL,"
    "  runs_en TEXT NOT NULL, runs_zh TEXT NOT NULL);"
    "INSERT INTO rungs_v7 SELECT n, key, name_en, name_zh, runs_en, runs_zh FROM rungs ORDER BY n;"
    "DROP TABLE rungs;"
    "ALTER TABLE rungs_v7 RENAME TO rungs;";

static const char migration_7_results[] =
    "CREATE TABLE runs_v7 ("
    "  id INTEGER PRIMARY KEY,"
    "  uuid TEXT NOT NULL UNIQUE,"
    "  machine_id TEXT NOT NULL REFERENCES machines(id),"
    "  host TEXT NOT NULL,"
    "  origin TEXT REFERENCES hosts(name) ON DELETE SET NULL," /* NULL: run here */
    "  rung INTEGER NOT NULL CHECK (rung BETWEEN 0 AND " SQL_NUMBER(CDB_RUNG_MAX) "),"
    "  suite TEXT, case_id TEXT, variant TEXT, argv TEXT,"
    "  started TEXT NOT NULL, finished TEXT,"
    "  verdict TEXT NOT NULL CHECK (" VERDICT_IS_FINAL
    "    OR verdict = 'running' OR verdict = 'interrupted'),"
    "  n_pass INTEGER NOT NULL DEFAULT 0, n_fail INTEGER NOT NULL DEFAULT 0,"
    "  n_hang INTEGER NOT NULL DEFAULT 0, n_error INTEGER NOT NULL DEFAULT 0,"
    "  n_skip INTEGER NOT NULL DEFAULT 0, n_cancelled INTEGER NOT NULL DEFAULT 0,"
    "  owner_host TEXT, owner_boot TEXT, owner_pid INTEGER, owner_start INTEGER,"
    "  owner_pid_ns TEXT,"
    "  n_doubt INTEGER NOT NULL DEFAULT 0);"
    "INSERT INTO runs_v7 SELECT id, uuid, machine_id, host, origin, rung, suite, case_id,"
    "  variant, argv, started, finished, verdict, n_pass, n_fail, n_hang, n_error, n_skip,"
    "  n_cancelled, owner_host, owner_boot, owner_pid, owner_start, owner_pid_ns, n_doubt"
    " FROM runs ORDER BY id;"
    "DROP TABLE runs;"
    "ALTER TABLE runs_v7 RENAME TO runs;"
    "CREATE INDEX runs_by_host ON runs(host, started);"
    "CREATE INDEX runs_by_origin ON runs(origin);"
    "CREATE INDEX runs_by_start ON runs(started, id);"
    "CREATE INDEX runs_running ON runs(id) WHERE verdict = 'running';";

static const char *const migration_7[] = {migration_7_index, migration_7_results, NULL};

/* Migration 8: a run's own verdict may be `doubt`: nothing failed, but a check's oracle could not
 * vouch either way, so the run is no pass (docs/engine.md, "Verdicts and exit status"). runs is
 * rebuilt with the same columns in the same order, as migration 7 did. */
static const char migration_8_results[] =
    "CREATE TABLE runs_v8 ("
    "  id INTEGER PRIMARY KEY,"
    "  uuid TEXT NOT NULL UNIQUE,"
    "  machine_id TEXT NOT NULL REFERENCES machines(id),"
    "  host TEXT NOT NULL,"
    "  origin TEXT REFERENCES hosts(name) ON DELETE SET NULL," /* NULL: run here */
    "  rung INTEGER NOT NULL CHECK (rung BETWEEN 0 AND " SQL_NUMBER(CDB_RUNG_MAX) "),"
    "  suite TEXT, case_id TEXT, variant TEXT, argv TEXT,"
    "  started TEXT NOT NULL, finished TEXT,"
    "  verdict TEXT NOT NULL CHECK (" VERDICT_IS_FINAL
    "    OR verdict = 'running' OR verdict = 'interrupted' OR verdict = 'doubt'),"
    "  n_pass INTEGER NOT NULL DEFAULT 0, n_fail INTEGER NOT NULL DEFAULT 0,"
    "  n_hang INTEGER NOT NULL DEFAULT 0, n_error INTEGER NOT NULL DEFAULT 0,"
    "  n_skip INTEGER NOT NULL DEFAULT 0, n_cancelled INTEGER NOT NULL DEFAULT 0,"
    "  owner_host TEXT, owner_boot TEXT, owner_pid INTEGER, owner_start INTEGER,"
    "  owner_pid_ns TEXT,"
    "  n_doubt INTEGER NOT NULL DEFAULT 0);"
    "INSERT INTO runs_v8 SELECT id, uuid, machine_id, host, origin, rung, suite, case_id,"
    "  variant, argv, started, finished, verdict, n_pass, n_fail, n_hang, n_error, n_skip,"
    "  n_cancelled, owner_host, owner_boot, owner_pid, owner_start, owner_pid_ns, n_doubt"
    " FROM runs ORDER BY id;"
    "DROP TABLE runs;"
    "ALTER TABLE runs_v8 RENAME TO runs;"
    "CREATE INDEX runs_by_host ON runs(host, started);"
    "CREATE INDEX runs_by_origin ON runs(origin);"
    "CREATE INDEX runs_by_start ON runs(started, id);"
    "CREATE INDEX runs_running ON runs(id) WHERE verdict = 'running';";

/* Migration 9: a pulled run's verdict is re-derived from its checks (importers/verdict_derive.h);
 * the word its document said is kept beside it, NULL for a run made here and for runs pulled
 * before. */
/* A pulled run also keeps the host that exported its document: where that is not the run's own
 * host, another host relayed it, and the run's own host takes it over when pulled (merge.h). */
static const char migration_9_results[] = "ALTER TABLE runs ADD COLUMN exported_verdict TEXT;"
                                          "ALTER TABLE runs ADD COLUMN exported_by TEXT;";

static const char *const migration_8[] = {migration_8_results, NULL};
static const char *const migration_9[] = {migration_9_results, NULL};

/* Migration 10: what a rung adds to a check is one JSON object in one column, checks.facts
 * (casedb/check_facts.h), instead of columns every check carries for one rung: migration 4's
 * seam (rung 3) and migration 5's score (rung 8) move into it and their columns go. */
static const char migration_10_results[] =
    "ALTER TABLE checks ADD COLUMN facts TEXT CHECK (facts IS NULL OR json_valid(facts));"
    "UPDATE checks SET facts = " CDB_FACTS_JSON("seam", "seam_a", "seam_b", "score",
                                                "score_baseline", "score_samples",
                                                "score_diverge_step", "NULL") ";"
    "ALTER TABLE checks DROP COLUMN seam;"
    "ALTER TABLE checks DROP COLUMN seam_a;"
    "ALTER TABLE checks DROP COLUMN seam_b;"
    "ALTER TABLE checks DROP COLUMN score;"
    "ALTER TABLE checks DROP COLUMN score_baseline;"
    "ALTER TABLE checks DROP COLUMN score_samples;"
    "ALTER TABLE checks DROP COLUMN score_diverge_step;";

static const char *const migration_10[] = {migration_10_results, NULL};

const char *const *const cdb_migrations[] = {migration_1, migration_2, migration_3, migration_4,
                                             migration_5, migration_6, migration_7, migration_8,
                                             migration_9, migration_10};
const size_t cdb_migration_count = sizeof cdb_migrations / sizeof cdb_migrations[0];
