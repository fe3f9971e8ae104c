-- 0015: the catalogue builder (issue #11).
--
-- Optimistic concurrency: every edit of a catalogue names the version it was
-- based on and bumps it; an edit based on an older version is refused (the
-- builder then reloads the other member's version). `edited_by` / `edited_at`
-- say who made the latest change, for the refusal message.
--
-- Acceptance rate (seed 001, « taux d'acceptation des suggestions IA »): when
-- the builder fills a catalogue from the venue search, the search's picks
-- placed in it are remembered in `catalogue_search_picks`; after each edit the
-- catalogue stores how many of them the team kept (same tier), moved (other
-- tier) or replaced (removed). NULL counts: never filled from the search.
ALTER TABLE catalogues
    ADD COLUMN version         integer NOT NULL DEFAULT 0 CHECK (version >= 0),
    ADD COLUMN edited_by       bigint REFERENCES users (id) ON DELETE SET NULL,
    ADD COLUMN edited_at       timestamptz,
    -- « Nouvelle version »: the sent catalogue this draft was copied from.
    ADD COLUMN copied_from     bigint REFERENCES catalogues (id) ON DELETE SET NULL,
    ADD COLUMN search_picks    integer CHECK (search_picks >= 0),
    ADD COLUMN search_kept     integer CHECK (search_kept >= 0),
    ADD COLUMN search_moved    integer CHECK (search_moved >= 0),
    ADD COLUMN search_replaced integer CHECK (search_replaced >= 0),
    ADD CONSTRAINT catalogues_acceptance_adds_up CHECK (
        num_nulls(search_picks, search_kept, search_moved, search_replaced) IN (0, 4)
        AND (search_picks IS NULL
             OR search_kept + search_moved + search_replaced = search_picks));

-- The search's picks as the fill placed them (one row per venue).
CREATE TABLE catalogue_search_picks (
    catalogue_id bigint NOT NULL REFERENCES catalogues (id) ON DELETE CASCADE,
    member_id    bigint NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    tier         text NOT NULL CHECK (tier IN ('recommended', 'compatible')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (catalogue_id, member_id)
);

-- A request invented in the training workspace (« Atelier »): stored so its
-- training catalogue has a request to belong to, flagged so the requests
-- list and the similar-requests lookup can leave it out.
ALTER TABLE requests
    ADD COLUMN workspace_scenario boolean NOT NULL DEFAULT false;
CREATE INDEX requests_workspace_scenario_idx ON requests (created_at DESC)
    WHERE workspace_scenario;
