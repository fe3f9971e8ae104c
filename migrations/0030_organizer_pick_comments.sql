-- 0030: an organizer's comment on one venue of their catalogue (issue #29).
--
-- Beside the one comment per catalogue (`catalogue_feedback`), the organizer
-- may leave one comment per venue card, overwritten when edited and removed
-- when emptied. Third-party text: wrapped before any model sees it. The
-- team reads them in the builder's outreach panel and in the home queue
-- (newest first: the index below).
CREATE TABLE organizer_pick_comments (
    pick_id      bigint PRIMARY KEY REFERENCES catalogue_picks (id) ON DELETE CASCADE,
    catalogue_id bigint NOT NULL REFERENCES catalogues (id) ON DELETE CASCADE,
    comment      text NOT NULL CHECK (btrim(comment) <> '' AND char_length(comment) <= 2000),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER organizer_pick_comments_updated_at BEFORE UPDATE ON organizer_pick_comments
    FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE INDEX organizer_pick_comments_catalogue_idx ON organizer_pick_comments (catalogue_id);
CREATE INDEX organizer_pick_comments_recent_idx ON organizer_pick_comments (updated_at DESC);
