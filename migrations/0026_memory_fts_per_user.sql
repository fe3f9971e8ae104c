-- 0026: the memory search's full-text step reads one user's index entries.
-- The GIN indexes of 0018 held every user's lexemes together: for a common
-- word (« semaine » in a quarter of the notes) the scan produced every
-- user's rows (238,478 of 1,010,000 in `maxy bench memory`, 64 ms), then
-- intersected them with the user's 10,000 rows; the bitmap went lossy and
-- the whole step took 79 ms. With `user_id` in the same GIN index (btree_gin
-- gives bigint its GIN operator class) the index returns only the user's
-- matching rows: 2,378 rows, 2.8 ms, the step 13 ms (docs/benchmarks.md).
-- Every query on these columns filters on `user_id` (bound as bigint: the
-- operator class has no cross-type int8 = int4), so the old indexes go.
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE INDEX ai_memories_user_search_tsv_idx ON ai_memories USING gin (user_id, search_tsv);
DROP INDEX ai_memories_search_tsv_idx;

CREATE INDEX tasks_user_search_tsv_idx ON tasks USING gin (user_id, search_tsv);
DROP INDEX tasks_search_tsv_idx;
