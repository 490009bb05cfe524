#ifndef ALMANAC_CSQLITE_SHIM_H
#define ALMANAC_CSQLITE_SHIM_H

#include <sqlite3.h>
#include <time.h>

// What Swift cannot call or name itself: `SQLITE_TRANSIENT` is a cast macro, and
// `sqlite3_db_config` is variadic.

// Binds text (`length` bytes, or up to the first NUL when negative); SQLite copies it.
static inline int csqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

// Binds `length` bytes as a blob; SQLite copies them.
static inline int csqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

// Refuses double-quoted string literals in statements and schema: "x" is always a name.
static inline void csqlite_refuse_double_quoted_strings(sqlite3 *db) {
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}

// Whether the calling thread has used the processor up to `deadline` (a struct timespec on
// CLOCK_THREAD_CPUTIME_ID): SQLite's progress handler, which interrupts the statement when
// it answers non-zero.
static int csqlite_past_deadline(void *deadline) {
    const struct timespec *end = (const struct timespec *)deadline;
    struct timespec now;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return 1;
    return now.tv_sec > end->tv_sec || (now.tv_sec == end->tv_sec && now.tv_nsec >= end->tv_nsec);
}

// Interrupts `db`'s statements once the thread's processor time passes `deadline`, looking
// every `steps` virtual-machine steps; a NULL deadline removes the handler.
static inline void csqlite_set_deadline(sqlite3 *db, int steps, struct timespec *deadline) {
    sqlite3_progress_handler(db, steps, deadline ? csqlite_past_deadline : (int (*)(void *))0, deadline);
}

#endif
