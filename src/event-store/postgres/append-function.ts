/**
 * The appends of one group commit, written by one call in the writer's transaction: one round trip
 * for the whole group, however many appends it holds.
 *
 * No append can fail the others, and none needs a savepoint: every refusal (an expected revision
 * that does not match, ids stored as part of another append) is decided by reads before anything
 * is written, and the writes use ON CONFLICT DO NOTHING. A conflict means another process committed
 * to the stream (or these ids) meanwhile: the append deletes what it wrote and decides again on
 * what is now committed. Savepoints (a plpgsql EXCEPTION block) would give each append a
 * subtransaction, and past 64 of them in one transaction every other backend's visibility checks
 * slow down (the subxid cache overflows).
 *
 * Stream order must be log order. A transaction whose xid is older than that of the stream's last
 * event (another process's, committed after this transaction took its xid) would put its event
 * before that one in the log: it raises serialization_failure, and the writer runs the group again
 * in a new transaction, with a newer xid.
 *
 * A commit that stored events notifies parley_events with its xid8, so readers know how far they
 * must see before they may sleep.
 */
/** The channel every commit that stored events notifies, its payload the transaction's xid8. */
export const NOTIFY_CHANNEL = 'parley_events';

export const APPEND_FUNCTIONS = `
CREATE OR REPLACE FUNCTION parley_append_one(
  p_stream text, p_expected text, p_ids text[], p_types text[], p_data text[], p_metadata text[],
  OUT o_outcome text, OUT o_revision bigint, OUT o_global_position bigint, OUT o_transaction_id xid8,
  OUT o_detail text)
LANGUAGE plpgsql AS $fn$
DECLARE
  n int := array_length(p_ids, 1);
  k int;
  found_k boolean;
  first_found boolean;
  consistent boolean;
  matches boolean;
  stored record;
  first_revision bigint;
  actual bigint;
  last_tx xid8;
  gp bigint;
  inserted bigint[];
BEGIN
  FOR attempt IN 1..100 LOOP
    -- A retry of one earlier append: all its ids stored, consecutively, in this stream.
    FOR k IN 1..n LOOP
      SELECT e.stream_id, e.revision, e.global_position, e.transaction_id INTO stored
        FROM parley_events e WHERE e.event_id = p_ids[k];
      found_k := FOUND;
      IF k = 1 THEN
        first_found := found_k;
        first_revision := stored.revision;
      END IF;
      IF first_found THEN
        consistent := found_k AND stored.stream_id = p_stream AND stored.revision = first_revision + k - 1;
      ELSE
        consistent := NOT found_k;
      END IF;
      IF NOT consistent THEN
        o_outcome := 'idempotency-mismatch';
        o_detail := CASE WHEN found_k THEN p_ids[k] ELSE p_ids[1] END;
        RETURN;
      END IF;
    END LOOP;
    IF first_found THEN
      o_outcome := 'repeat';
      o_revision := stored.revision;
      o_global_position := stored.global_position;
      o_transaction_id := stored.transaction_id;
      RETURN;
    END IF;

    actual := NULL;
    last_tx := NULL;
    SELECT e.revision, e.transaction_id INTO actual, last_tx
      FROM parley_events e WHERE e.stream_id = p_stream ORDER BY e.revision DESC LIMIT 1;
    IF p_expected = 'any' THEN
      matches := true;
    ELSIF p_expected = 'no_stream' THEN
      matches := actual IS NULL;
    ELSIF p_expected = 'stream_exists' THEN
      matches := actual IS NOT NULL;
    ELSE
      matches := actual IS NOT NULL AND actual::numeric = p_expected::numeric;
    END IF;
    IF NOT matches THEN
      o_outcome := 'wrong-revision';
      o_revision := actual;
      RETURN;
    END IF;
    IF last_tx IS NOT NULL AND last_tx > pg_current_xact_id() THEN
      RAISE EXCEPTION 'stream % was appended to by a newer transaction', p_stream USING ERRCODE = '40001';
    END IF;

    inserted := '{}';
    actual := coalesce(actual, -1);
    FOR k IN 1..n LOOP
      INSERT INTO parley_events (stream_id, revision, event_id, type, data, metadata)
        VALUES (p_stream, actual + k, p_ids[k], p_types[k], p_data[k], p_metadata[k])
        ON CONFLICT DO NOTHING
        RETURNING global_position INTO gp;
      EXIT WHEN NOT FOUND;
      inserted := inserted || gp;
    END LOOP;
    IF cardinality(inserted) = n THEN
      o_outcome := 'ok';
      o_revision := actual + n;
      o_global_position := gp;
      o_transaction_id := pg_current_xact_id();
      RETURN;
    END IF;
    DELETE FROM parley_events e WHERE e.global_position = ANY (inserted);
  END LOOP;
  o_outcome := 'failed';
  o_detail := 'concurrent appends to the stream kept conflicting';
END
$fn$;

-- The common group in a few set-based statements: distinct streams whose events are new to the
-- log. One statement reads every stream's last event and decides each append as parley_append_one
-- would; one inserts every accepted event, in group order. It returns no row when it declines: a
-- stream twice in the group, an id already stored, or fewer rows inserted than accepted (an id
-- twice, or what another process committed meanwhile: ON CONFLICT skipped them), when it deletes
-- what it inserted. parley_append_one then decides each append on its own. No statement here asks
-- the planner to choose between an index and a scan by the arrays' sizes (event_id = ANY (p_ids)
-- did, and its plan cached while the table was small scanned it whole, slower with every row).
CREATE OR REPLACE FUNCTION parley_append_set(
  p_streams text[], p_expected text[], p_counts int[],
  p_ids text[], p_types text[], p_data text[], p_metadata text[])
RETURNS TABLE (o_outcome text, o_revision bigint, o_global_position bigint, o_transaction_id text, o_detail text)
LANGUAGE plpgsql AS $fn$
DECLARE
  m int := coalesce(array_length(p_streams, 1), 0);
  me xid8 := pg_current_xact_id();
  actuals bigint[];
  oks boolean[];
  newer text;
  wanted bigint;
  event_streams text[];
  event_revisions bigint[];
  inserted bigint[];
  positions bigint[];
BEGIN
  -- A stored id (a retry) is answered by parley_append_one before any revision is looked at. One
  -- probe per id, by equality, as parley_append_one's: any plan of it uses the index.
  IF m = 0
     OR (SELECT count(DISTINCT s) FROM unnest(p_streams) s) <> m
     OR EXISTS (SELECT 1 FROM unnest(p_ids) x(id)
                CROSS JOIN LATERAL (SELECT 1 FROM parley_events e WHERE e.event_id = x.id LIMIT 1) stored) THEN
    RETURN;
  END IF;
  SELECT array_agg(d.actual ORDER BY d.i), array_agg(d.ok ORDER BY d.i),
         (array_agg(d.stream ORDER BY d.i) FILTER (WHERE d.ok AND d.last_tx > me))[1],
         coalesce(sum(d.cnt) FILTER (WHERE d.ok), 0)
    INTO actuals, oks, newer, wanted
    FROM (
      SELECT a.i, a.stream, a.cnt, l.revision AS actual, l.transaction_id AS last_tx,
             CASE a.expected
               WHEN 'any' THEN true
               WHEN 'no_stream' THEN l.revision IS NULL
               WHEN 'stream_exists' THEN l.revision IS NOT NULL
               ELSE l.revision IS NOT NULL AND l.revision::numeric = a.expected::numeric
             END AS ok
        FROM unnest(p_streams, p_expected, p_counts) WITH ORDINALITY a(stream, expected, cnt, i)
        LEFT JOIN LATERAL (
          SELECT e.revision, e.transaction_id FROM parley_events e
           WHERE e.stream_id = a.stream ORDER BY e.revision DESC LIMIT 1
        ) l ON true
    ) d;
  IF newer IS NOT NULL THEN
    RAISE EXCEPTION 'stream % was appended to by a newer transaction', newer USING ERRCODE = '40001';
  END IF;
  -- each event's stream (null when its append was refused) and revision, in group order
  SELECT array_agg(CASE WHEN a.ok THEN a.stream END ORDER BY a.i, k),
         array_agg(coalesce(a.actual, -1) + k ORDER BY a.i, k)
    INTO event_streams, event_revisions
    FROM unnest(p_streams, p_counts, oks, actuals) WITH ORDINALITY a(stream, cnt, ok, actual, i),
         generate_series(1, a.cnt) k;
  WITH ins AS (
    INSERT INTO parley_events (stream_id, revision, event_id, type, data, metadata)
    SELECT ev.stream, ev.revision, ev.id, ev.type, ev.data, ev.metadata
      FROM unnest(event_streams, event_revisions, p_ids, p_types, p_data, p_metadata)
           WITH ORDINALITY ev(stream, revision, id, type, data, metadata, j)
     WHERE ev.stream IS NOT NULL
     ORDER BY ev.j
    ON CONFLICT DO NOTHING
    RETURNING stream_id, revision, global_position
  )
  SELECT (SELECT array_agg(ins.global_position) FROM ins),
         (SELECT array_agg(ins.global_position ORDER BY a.i)
            FROM unnest(p_streams, p_counts, oks, actuals) WITH ORDINALITY a(stream, cnt, ok, actual, i)
            JOIN ins ON ins.stream_id = a.stream AND ins.revision = coalesce(a.actual, -1) + a.cnt
           WHERE a.ok)
    INTO inserted, positions;
  IF coalesce(cardinality(inserted), 0) <> wanted THEN
    -- planned when it runs (EXECUTE), on the table as it is: rare, and a cached plan could scan it
    EXECUTE 'DELETE FROM parley_events WHERE global_position = ANY ($1)' USING inserted;
    RETURN;
  END IF;
  RETURN QUERY
    SELECT CASE WHEN a.ok THEN 'ok' ELSE 'wrong-revision' END,
           CASE WHEN a.ok THEN coalesce(a.actual, -1) + a.cnt ELSE a.actual END,
           CASE WHEN a.ok THEN positions[(count(*) FILTER (WHERE a.ok) OVER (ORDER BY a.i))::int] END,
           CASE WHEN a.ok THEN me::text END,
           NULL::text
      FROM unnest(p_streams, p_counts, oks, actuals) WITH ORDINALITY a(stream, cnt, ok, actual, i)
     ORDER BY a.i;
END
$fn$;

CREATE OR REPLACE FUNCTION parley_append_batch(
  p_streams text[], p_expected text[], p_counts int[],
  p_ids text[], p_types text[], p_data text[], p_metadata text[])
RETURNS TABLE (o_outcome text, o_revision bigint, o_global_position bigint, o_transaction_id text, o_detail text)
LANGUAGE plpgsql AS $fn$
DECLARE
  i int;
  n int;
  first int := 1;
  wrote boolean := false;
  r record;
BEGIN
  FOR r IN SELECT * FROM parley_append_set(p_streams, p_expected, p_counts, p_ids, p_types, p_data, p_metadata) LOOP
    wrote := wrote OR r.o_outcome = 'ok';
    o_outcome := r.o_outcome;
    o_revision := r.o_revision;
    o_global_position := r.o_global_position;
    o_transaction_id := r.o_transaction_id;
    o_detail := r.o_detail;
    RETURN NEXT;
    first := 0;
  END LOOP;
  IF first = 0 THEN
    IF wrote THEN
      PERFORM pg_notify('${NOTIFY_CHANNEL}', pg_current_xact_id()::text);
    END IF;
    RETURN;
  END IF;
  FOR i IN 1..coalesce(array_length(p_streams, 1), 0) LOOP
    n := p_counts[i];
    SELECT * INTO r FROM parley_append_one(p_streams[i], p_expected[i], p_ids[first:first + n - 1],
      p_types[first:first + n - 1], p_data[first:first + n - 1], p_metadata[first:first + n - 1]);
    wrote := wrote OR r.o_outcome = 'ok';
    o_outcome := r.o_outcome;
    o_revision := r.o_revision;
    o_global_position := r.o_global_position;
    o_transaction_id := r.o_transaction_id::text;
    o_detail := r.o_detail;
    RETURN NEXT;
    first := first + n;
  END LOOP;
  IF wrote THEN
    PERFORM pg_notify('${NOTIFY_CHANNEL}', pg_current_xact_id()::text);
  END IF;
END
$fn$;
`;
