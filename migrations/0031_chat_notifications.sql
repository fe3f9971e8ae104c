-- 0031: chat wake-ups across server processes (issue #30).
--
-- A conversation's stream may be served by one process while its turn runs
-- in another. Each process LISTENs on `chat` (agent::live) and wakes its own
-- streams or its running turn as soon as the writing transaction commits,
-- instead of finding the change by polling. Payloads: `events:<conversation
-- id>` for appended events, `stop:<conversation id>` for the stop button.
-- Notifications with the same payload within one transaction are merged by
-- PostgreSQL; one statement appending many events notifies once.

CREATE FUNCTION chat_events_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('chat', 'events:' || conversation_id)
       FROM (SELECT DISTINCT conversation_id FROM appended) AS c;
    RETURN NULL;
END;
$$;
CREATE TRIGGER chat_events_notify AFTER INSERT ON ai_events
    REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT EXECUTE FUNCTION chat_events_notify();

CREATE FUNCTION chat_stop_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('chat', 'stop:' || NEW.conversation_id);
    RETURN NULL;
END;
$$;
CREATE TRIGGER chat_stop_notify AFTER UPDATE OF stop_requested ON ai_turns
    FOR EACH ROW WHEN (NEW.stop_requested AND NOT OLD.stop_requested)
    EXECUTE FUNCTION chat_stop_notify();
