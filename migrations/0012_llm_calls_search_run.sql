-- 0012: a language-model call made by a venue search (stage 3 ranking) names
-- its search_runs row, so a search's tokens, cost and latency can be read
-- call by call next to its timings.
ALTER TABLE llm_calls
    ADD COLUMN search_run_id bigint REFERENCES search_runs (id) ON DELETE SET NULL;
CREATE INDEX llm_calls_search_run_idx ON llm_calls (search_run_id)
    WHERE search_run_id IS NOT NULL;
