-- 0010: venues are re-embedded when their text changes. Triggers on the
-- tables that make up a venue's embedding text (members, rooms, member_tags,
-- tags, knowledge_entries) enqueue one idempotent 'venue.embed' job per
-- changed member; the job worker rebuilds the text and re-embeds it only when
-- its sha256 differs from member_embeddings.text_hash.
--
-- The triggers are statement-level with transition tables: one
-- INSERT … SELECT DISTINCT per statement, whatever the number of rows, so a
-- bulk load (the demo generator COPYs 70,000 members and ~240,000 rooms)
-- costs one set-based insert per COPY instead of one trigger call per row.
-- (PostgreSQL fires AFTER STATEMENT triggers for COPY FROM, transition
-- tables included. A trigger with transition tables may have only one event
-- and no column list, hence one trigger per event, and UPDATE triggers that
-- compare OLD and NEW themselves.)

-- A job whose subject changes while it runs must run again afterwards: the
-- running handler may have read the data before the change. The dedupe index
-- allows one queued-or-running row per key, so instead of a second row the
-- enqueue marks the running one, and completing it re-queues it.
ALTER TABLE jobs ADD COLUMN rerun_requested boolean NOT NULL DEFAULT false;

-- Wake idle workers (LISTEN jobs) as soon as a transaction that enqueued
-- commits; workers also poll, so a lost notification only costs latency.
-- Notifications are delivered at commit and merged within a transaction.
CREATE OR REPLACE FUNCTION jobs_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('jobs', '');
    RETURN NULL;
END;
$$;
CREATE TRIGGER jobs_notify AFTER INSERT ON jobs
    FOR EACH STATEMENT EXECUTE FUNCTION jobs_notify();

-- Enqueues one 'venue.embed' job per distinct member. With only_existing,
-- members already deleted are skipped: a cascade from DELETE FROM members
-- fires the rooms/tags/knowledge DELETE triggers after the member is gone
-- (inserts and updates need no check: the foreign keys hold). Conflicts lock the
-- existing job row even when the WHERE is false: a worker (SKIP LOCKED)
-- cannot claim a queued job and read the venue while the writing transaction
-- is still open. Ids are sorted so concurrent writers lock rows in one order.
CREATE OR REPLACE FUNCTION enqueue_venue_embed(member_ids bigint[], only_existing boolean)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO jobs (kind, payload, dedupe_key)
    SELECT 'venue.embed', jsonb_build_object('member_id', ids.id), 'venue.embed:' || ids.id
      FROM (SELECT DISTINCT u.id FROM unnest(member_ids) AS u(id) WHERE u.id IS NOT NULL) ids
     WHERE NOT only_existing OR EXISTS (SELECT 1 FROM members m WHERE m.id = ids.id)
     ORDER BY ids.id
    ON CONFLICT (dedupe_key) WHERE status IN ('queued', 'running')
    DO UPDATE SET rerun_requested = true WHERE jobs.status = 'running';
$$;

-- INSERT and DELETE on members, rooms, member_tags, knowledge_entries: every
-- row touched. The transition table is named `changed` in both cases; the
-- member id column is `id` for members and `member_id` elsewhere.
CREATE OR REPLACE FUNCTION venue_embed_on_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'members' THEN
        PERFORM enqueue_venue_embed(ARRAY(SELECT id FROM changed), false);
    ELSE
        PERFORM enqueue_venue_embed(ARRAY(SELECT DISTINCT member_id FROM changed), TG_OP = 'DELETE');
    END IF;
    RETURN NULL;
END;
$$;

-- UPDATE: only rows whose embedded fields (or ordering, or owner) changed;
-- an owner change re-embeds both members.
CREATE OR REPLACE FUNCTION venue_embed_on_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    CASE TG_TABLE_NAME
    WHEN 'members' THEN
        -- status too: a venue (re)activated gets its embedding checked.
        PERFORM enqueue_venue_embed(ARRAY(
            SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE (n.name, n.description, n.status)
                   IS DISTINCT FROM (o.name, o.description, o.status)), false);
    WHEN 'rooms' THEN
        PERFORM enqueue_venue_embed(ARRAY(
            SELECT x.member_id FROM new_rows n JOIN old_rows o ON o.id = n.id,
                   LATERAL (VALUES (n.member_id), (o.member_id)) x(member_id)
             WHERE (n.member_id, n.name, n.description, n.position)
                   IS DISTINCT FROM (o.member_id, o.name, o.description, o.position)), false);
    WHEN 'knowledge_entries' THEN
        PERFORM enqueue_venue_embed(ARRAY(
            SELECT x.member_id FROM new_rows n JOIN old_rows o ON o.id = n.id,
                   LATERAL (VALUES (n.member_id), (o.member_id)) x(member_id)
             WHERE (n.member_id, n.content, n.created_at)
                   IS DISTINCT FROM (o.member_id, o.content, o.created_at)), false);
    WHEN 'member_tags' THEN
        -- No row identity besides the key itself: both sides, always.
        PERFORM enqueue_venue_embed(ARRAY(
            SELECT member_id FROM new_rows UNION SELECT member_id FROM old_rows), false);
    WHEN 'tags' THEN
        -- A renamed tag changes the text of every venue that carries it.
        PERFORM enqueue_venue_embed(ARRAY(
            SELECT mt.member_id FROM new_rows n JOIN old_rows o ON o.id = n.id
              JOIN member_tags mt ON mt.tag_id = n.id
             WHERE n.name IS DISTINCT FROM o.name), false);
    END CASE;
    RETURN NULL;
END;
$$;

CREATE TRIGGER members_venue_embed_insert AFTER INSERT ON members
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_rows();
CREATE TRIGGER members_venue_embed_update AFTER UPDATE ON members
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_update();
-- No DELETE trigger on members: the embedding row goes with the member (FK
-- cascade), and a job still queued for it finds no member and completes.

CREATE TRIGGER rooms_venue_embed_insert AFTER INSERT ON rooms
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_rows();
CREATE TRIGGER rooms_venue_embed_update AFTER UPDATE ON rooms
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_update();
CREATE TRIGGER rooms_venue_embed_delete AFTER DELETE ON rooms
    REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_rows();

CREATE TRIGGER member_tags_venue_embed_insert AFTER INSERT ON member_tags
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_rows();
CREATE TRIGGER member_tags_venue_embed_update AFTER UPDATE ON member_tags
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_update();
CREATE TRIGGER member_tags_venue_embed_delete AFTER DELETE ON member_tags
    REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_rows();

CREATE TRIGGER tags_venue_embed_update AFTER UPDATE ON tags
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_update();

CREATE TRIGGER knowledge_entries_venue_embed_insert AFTER INSERT ON knowledge_entries
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_rows();
CREATE TRIGGER knowledge_entries_venue_embed_update AFTER UPDATE ON knowledge_entries
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_update();
CREATE TRIGGER knowledge_entries_venue_embed_delete AFTER DELETE ON knowledge_entries
    REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION venue_embed_on_rows();
