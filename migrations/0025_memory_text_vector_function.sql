-- 0025: the memory tables' full-text vector as a function, so the memory
-- search's calibration (`maxy calibrate memory`) ranks the labelled cases'
-- texts exactly as the generated columns `ai_memories.search_tsv` and
-- `tasks.search_tsv` rank stored rows (0018). The columns keep their own
-- expression (redefining them would rewrite both tables); a test checks the
-- function and the columns agree on every row it writes.
CREATE OR REPLACE FUNCTION maxy_memory_tsv(title text, body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT setweight(to_tsvector('french'::regconfig, maxy_unaccent(coalesce(title, ''))), 'A')
        || setweight(to_tsvector('french'::regconfig, maxy_unaccent(coalesce(body, ''))), 'B')
$$;
