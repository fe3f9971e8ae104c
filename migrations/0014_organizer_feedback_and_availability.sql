-- 0014: what organizers and venues answer through their links.
--
-- Organizers mark favourites among the picks of the catalogue they received
-- and leave one comment (editable); the team sees both on the builder.
-- Venues answer an availability check "available", "not available" or
-- "available with conditions" (the conditions are then required).

-- A flag on the pick, not a table: a pick belongs to one catalogue, hence to
-- one organizer, and the organizer page reads picks anyway.
ALTER TABLE catalogue_picks ADD COLUMN organizer_favorite boolean NOT NULL DEFAULT false;

-- One comment per catalogue, overwritten when the organizer edits it.
-- Third-party text: wrapped as <external_content> before any model sees it.
CREATE TABLE catalogue_feedback (
    catalogue_id bigint PRIMARY KEY REFERENCES catalogues (id) ON DELETE CASCADE,
    comment      text NOT NULL CHECK (char_length(comment) <= 2000),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER catalogue_feedback_updated_at BEFORE UPDATE ON catalogue_feedback
    FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- "Available with conditions": status 'available' plus the venue's
-- conditions (third-party text). Only an available answer carries them, and
-- never an empty string.
ALTER TABLE availability_checks ADD COLUMN conditions text;
ALTER TABLE availability_checks ADD CONSTRAINT availability_checks_conditions_when_available
    CHECK (conditions IS NULL OR (status = 'available' AND btrim(conditions) <> ''));

-- The builder lists the checks of one request.
CREATE INDEX availability_checks_request_idx ON availability_checks (request_id, created_at DESC);
