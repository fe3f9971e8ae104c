-- 0011: member_search, the narrow table stage 1 of the venue search reads.
--
-- One row per ACTIVE member: pool, postal code, position as an `earth` point
-- and, per room configuration, the largest capacity among its rooms. The
-- hard filter "pool × area × (configuration × capacity ≥ n)" becomes one
-- index walk over ~130-byte rows instead of a join of wide member rows with
-- room_capacities, and a GiST on (pool_id, earth) returns the members of a
-- pool nearest first (KNN), so "the 500 nearest" stops after 500 matches
-- instead of sorting the pool. Measurements: docs/benchmarks.md; the choice:
-- docs/adr/0005-venue-search-stage-one.md.
--
-- The rows are derived data, kept exact by statement-level triggers (one
-- set-based refresh per statement, COPY included, as in 0010) on members and
-- room_capacities. Rooms need no trigger: deleting a room cascades to its
-- capacities, which fire theirs.

-- GiST over (pool_id, earth): btree_gist supplies the bigint equality.
CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE member_search (
    member_id    bigint PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
    pool_id      bigint NOT NULL,
    postal_code  text,
    -- ll_to_earth(lat, lng); NULL for a member without coordinates (it then
    -- only matches postal-code or pool-wide searches, after the located ones).
    earth        earth,
    -- Largest capacity per configuration among the member's rooms; 0: none.
    cap_reunion  integer NOT NULL DEFAULT 0,
    cap_u        integer NOT NULL DEFAULT 0,
    cap_theatre  integer NOT NULL DEFAULT 0,
    cap_cabaret  integer NOT NULL DEFAULT 0,
    cap_ecole    integer NOT NULL DEFAULT 0,
    cap_banquet  integer NOT NULL DEFAULT 0,
    cap_cocktail integer NOT NULL DEFAULT 0
);
-- Pool-wide and radius searches: KNN (`earth <-> point`) and earth_box @> earth.
CREATE INDEX member_search_pool_earth_idx ON member_search USING gist (pool_id, earth);
-- Postal-code searches.
CREATE INDEX member_search_pool_postal_idx ON member_search (pool_id, postal_code);

-- Recomputes the rows of these members from members and room_capacities.
--
-- The DELETE comes first on purpose: when two transactions change the rooms
-- of one member at once, the second one's DELETE waits for the first to
-- commit, and the INSERT that follows (a new statement, so a new snapshot
-- under READ COMMITTED) then sees both changes. The upsert covers the rarer
-- race of two first rows for one member.
CREATE OR REPLACE FUNCTION refresh_member_search(member_ids bigint[])
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM member_search WHERE member_id = ANY(member_ids);
    INSERT INTO member_search AS s (member_id, pool_id, postal_code, earth,
            cap_reunion, cap_u, cap_theatre, cap_cabaret, cap_ecole, cap_banquet, cap_cocktail)
    SELECT m.id, m.pool_id, m.postal_code,
           CASE WHEN m.lat IS NULL THEN NULL ELSE ll_to_earth(m.lat, m.lng) END,
           coalesce(max(rc.max_capacity) FILTER (WHERE rc.configuration = 'reunion'), 0),
           coalesce(max(rc.max_capacity) FILTER (WHERE rc.configuration = 'u'), 0),
           coalesce(max(rc.max_capacity) FILTER (WHERE rc.configuration = 'theatre'), 0),
           coalesce(max(rc.max_capacity) FILTER (WHERE rc.configuration = 'cabaret'), 0),
           coalesce(max(rc.max_capacity) FILTER (WHERE rc.configuration = 'ecole'), 0),
           coalesce(max(rc.max_capacity) FILTER (WHERE rc.configuration = 'banquet'), 0),
           coalesce(max(rc.max_capacity) FILTER (WHERE rc.configuration = 'cocktail'), 0)
      FROM members m
      LEFT JOIN room_capacities rc ON rc.member_id = m.id
     WHERE m.id = ANY(member_ids) AND m.status = 'active'
     GROUP BY m.id
     ORDER BY m.id
    ON CONFLICT (member_id) DO UPDATE SET
        pool_id = EXCLUDED.pool_id, postal_code = EXCLUDED.postal_code, earth = EXCLUDED.earth,
        cap_reunion = EXCLUDED.cap_reunion, cap_u = EXCLUDED.cap_u,
        cap_theatre = EXCLUDED.cap_theatre, cap_cabaret = EXCLUDED.cap_cabaret,
        cap_ecole = EXCLUDED.cap_ecole, cap_banquet = EXCLUDED.cap_banquet,
        cap_cocktail = EXCLUDED.cap_cocktail;
END;
$$;

-- INSERT and DELETE: every member touched (transition table `changed`).
CREATE OR REPLACE FUNCTION member_search_on_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'members' THEN
        PERFORM refresh_member_search(ARRAY(SELECT id FROM changed ORDER BY id));
    ELSE
        PERFORM refresh_member_search(ARRAY(SELECT DISTINCT member_id FROM changed ORDER BY member_id));
    END IF;
    RETURN NULL;
END;
$$;

-- UPDATE: only rows whose searched fields changed (a description edit costs
-- nothing here); a capacity that moves to another member refreshes both.
CREATE OR REPLACE FUNCTION member_search_on_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'members' THEN
        PERFORM refresh_member_search(ARRAY(
            SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE (n.pool_id, n.status, n.postal_code, n.lat, n.lng)
                   IS DISTINCT FROM (o.pool_id, o.status, o.postal_code, o.lat, o.lng)
             ORDER BY n.id));
    ELSE
        PERFORM refresh_member_search(ARRAY(
            SELECT DISTINCT id FROM (
                SELECT member_id AS id FROM new_rows
                UNION SELECT member_id FROM old_rows) ids
             ORDER BY id));
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER member_search_members_insert AFTER INSERT ON members
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION member_search_on_rows();
CREATE TRIGGER member_search_members_update AFTER UPDATE ON members
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION member_search_on_update();
-- Member deletion: the foreign key's ON DELETE CASCADE removes the row.

CREATE TRIGGER member_search_capacities_insert AFTER INSERT ON room_capacities
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION member_search_on_rows();
CREATE TRIGGER member_search_capacities_update AFTER UPDATE ON room_capacities
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION member_search_on_update();
CREATE TRIGGER member_search_capacities_delete AFTER DELETE ON room_capacities
    REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION member_search_on_rows();

-- Members that exist already.
SELECT refresh_member_search(ARRAY(SELECT id FROM members ORDER BY id));
