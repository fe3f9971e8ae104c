-- 0032: tell every server when what an organizer's page shows may have
-- changed (issue #30, ADR 0043).
--
-- Each server keeps the organizer pages it rendered and serves them again
-- without reading the database while it listens on `organizer_pages`
-- (http::organizer_page, link_views::page_changes). Any write to a table
-- the page reads notifies that channel once per transaction (PostgreSQL
-- merges identical notifications), and every server then forgets all its
-- pages: changes here are rare (a catalogue edited, a link revoked, an
-- organizer's answer), openings are many.
--
-- Columns no page shows and that change often are left out: a user's last
-- sign-in, a link's use count (written every second while links are
-- opened). A column added to the page's statement
-- (db::links_view::catalogue_with_picks) from users or magic_links must be
-- added here.

CREATE FUNCTION organizer_pages_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('organizer_pages', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER organizer_pages_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalogues
    FOR EACH STATEMENT EXECUTE FUNCTION organizer_pages_notify();
CREATE TRIGGER organizer_pages_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalogue_picks
    FOR EACH STATEMENT EXECUTE FUNCTION organizer_pages_notify();
CREATE TRIGGER organizer_pages_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalogue_feedback
    FOR EACH STATEMENT EXECUTE FUNCTION organizer_pages_notify();
CREATE TRIGGER organizer_pages_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organizer_pick_comments
    FOR EACH STATEMENT EXECUTE FUNCTION organizer_pages_notify();
CREATE TRIGGER organizer_pages_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON requests
    FOR EACH STATEMENT EXECUTE FUNCTION organizer_pages_notify();
CREATE TRIGGER organizer_pages_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON members
    FOR EACH STATEMENT EXECUTE FUNCTION organizer_pages_notify();
CREATE TRIGGER organizer_pages_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON rooms
    FOR EACH STATEMENT EXECUTE FUNCTION organizer_pages_notify();
CREATE TRIGGER organizer_pages_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON room_capacities
    FOR EACH STATEMENT EXECUTE FUNCTION organizer_pages_notify();
CREATE TRIGGER organizer_pages_notify
    AFTER INSERT OR UPDATE OF display_name, email, disabled_at OR DELETE OR TRUNCATE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION organizer_pages_notify();
CREATE TRIGGER organizer_pages_notify
    AFTER INSERT OR UPDATE OF revoked_at, expires_at, subject_id, purpose, token_hash, created_by
        OR DELETE OR TRUNCATE ON magic_links
    FOR EACH STATEMENT EXECUTE FUNCTION organizer_pages_notify();
