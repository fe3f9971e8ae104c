-- 0035: a search that did not run is recorded too (issue #30).
--
-- A request the search cannot serve (« à Lyon », an unknown postal code
-- alone) answers with a notice and ranks nothing: its run was written with
-- ranking_source 'none', which the check refused, so the metrics lost every
-- such search (a warning in the log, nothing on the metrics page).
ALTER TABLE search_runs DROP CONSTRAINT search_runs_ranking_source_check;
ALTER TABLE search_runs ADD CONSTRAINT search_runs_ranking_source_check
    CHECK (ranking_source IN ('llm', 'deterministic', 'direct', 'none'));
