/* The engine's tables, filled in one place: the built-in rungs (ladder.c) and the backends
 * (backends.c). They live above everything they list, so no layer links upward to find them:
 * the core keeps an empty table (engine/rung.h, engine/backend/backend.h) until a program's top
 * (kladder's main, libkladder's entry points, kbench, a test) hands these in.
 *
 * A new built-in rung is its file alone, engine/rungs/rungN.c (ladder.c's list is written from
 * the rung files at build time); a new backend is its file and one line in backends.c. */
#ifndef KL_ENGINE_TABLES_TABLES_H
#define KL_ENGINE_TABLES_TABLES_H

/* Hands the built-in rungs and the backends to the engine. Idempotent and cheap: each entry
 * point may call it. */
void eng_tables_install(void);

/* The built-in rungs alone, for a program that wants that table only. */
void eng_ladder_install(void);

#endif
