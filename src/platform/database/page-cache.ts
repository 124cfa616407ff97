/**
 * SQLite page cache sizes (`PRAGMA cache_size`, KiB) for connections that share a WAL file.
 *
 * A connection throws its whole page cache away when it starts a read after another connection
 * committed, and the clear takes time in proportion to the pages it holds. In a busy server
 * process that was ~8 µs a page: a reader whose 64 MiB cache a catch-up had filled stalled the
 * event loop for 140-280 ms at its next read (perf: pcache1TruncateUnsafe under btreeBeginTrans),
 * and the event store's writer thread stalled the same way after every inline append. So:
 * - a connection that others write beside (the event store's two connections, which both append;
 *   the read-only read-model connections) keeps SQLite's default-sized cache: it loses it at
 *   nearly every read anyway, and the file's pages stay in the OS cache;
 * - a connection that is its file's only writer (a read model's apply connection, the platform
 *   database) keeps a large cache, which nobody else's commit ever clears.
 */
export const SHARED_FILE_CACHE_KIB = 2_048;
export const SOLE_WRITER_CACHE_KIB = 32_768;
