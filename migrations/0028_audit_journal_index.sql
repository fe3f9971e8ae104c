-- 0028: the console's journal filters by family of actions (`action = ANY
-- (the family's keys)`) and reads which actions the log holds by skipping
-- from one key to the next (a recursive min() over this index: a few dozen
-- probes, not a scan). Both need the action first; the time after it keeps
-- one action's newest rows at hand.
-- A plain CREATE INDEX, as 0018, 0020 and 0021: each file runs in a transaction.
CREATE INDEX audit_log_action_at_idx ON audit_log (action, at DESC);
