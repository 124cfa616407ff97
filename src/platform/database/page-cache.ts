/**
 * SQLite page cache sizes (`PRAGMA cache_size`, KiB) for connections that share a WAL file.
 *
 * A connection throws its whole page cache away when it starts a read after another connection
 * committed, and the clear takes time in proportion to the pages it holds: a reader whose large
 * cache a catch-up had filled stalled the event loop at its next read (pcache1TruncateUnsafe under
 * btreeBeginTrans), and the event store's writer thread stalled the same way after every inline
 * append. So the cache is sized by who else commits to the file and what the connection reads.
 */

/**
 * The event log's connections (the writer thread and this process's inline appends both commit):
 * they read the log's tail in order and look up stream heads, which a small cache serves, and
 * each one's cache is cleared by the other's next commit.
 */
export const EVENT_LOG_CACHE_KIB = 2_048;

/**
 * A read-only connection beside a read model's writer: queries that walk many pages (a large
 * export, a transcript search) were clearly slower with 2 MiB, and 8 MiB kept most of 32 MiB's gain
 * (bench/README.md). A clear after a large query is bounded by its 2,048 pages.
 */
export const READ_MODEL_READER_CACHE_KIB = 8_192;

/**
 * A file's only writer in this process (a read model's apply connection, the platform database):
 * only another process on the same files (the projections CLI, a second API process on SQLite)
 * commits beside it, and then rarely.
 */
export const SOLE_WRITER_CACHE_KIB = 32_768;
