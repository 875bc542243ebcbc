/* The system SQLite (Debian: libsqlite3-dev), for the outbox's durable queue. SQLITE_TRANSIENT
 * is a cast macro Swift cannot import; the wrapper binds with it. Nothing here is exported
 * from libpaywire (inline, and the linker script exports paywire_* only). */
#ifndef PAYWIRE_CSQLITE_SHIM_H
#define PAYWIRE_CSQLITE_SHIM_H

#include <sqlite3.h>

/* Binds a copy of the bytes (SQLite keeps its own). */
static inline int pw_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

static inline int pw_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

#endif
