-- 0021: the audit log under a flood from many addresses (220 failed
-- sign-ins from 220 IPv6 /64s filled the console's 200 rows).
--
-- Outsider-caused rows past a global cap per action and minute are not
-- written one by one: they are added to one summary row per action and
-- minute (`summary_of` = that minute, the count in details->'summarised').
-- The unique index is what lets every server process add to the same row
-- (INSERT … ON CONFLICT DO UPDATE) instead of each writing its own.
ALTER TABLE audit_log ADD COLUMN summary_of timestamptz;
CREATE UNIQUE INDEX audit_log_summary_idx ON audit_log (action, summary_of)
    WHERE summary_of IS NOT NULL;

-- The console reads each kind of actor (team, outsiders, system) as its own
-- view of the latest rows, so outsiders can never push the team's rows out.
-- A plain CREATE INDEX, as 0018 and 0020: each file runs in a transaction.
CREATE INDEX audit_log_kind_idx ON audit_log (actor_kind, at DESC);
