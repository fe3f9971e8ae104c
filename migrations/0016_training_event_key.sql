-- 0016: compare training event types the way the team means them.
--
-- Event types are free text (« cocktail dînatoire » is its own kind of
-- event), but « Séminaire », « seminaire » and « séminaire » are one, as are
-- « team-building » and « team building ». The search and search_training
-- compare `training_event_key(a) = training_event_key(b)`; the Rust twin is
-- `server::training::event_type::key` (a test holds the two together).
--
-- The key: accents folded (before lower(), which a C locale limits to
-- ASCII), lower case, every run of other characters one
-- space, trimmed; then the few known spellings of one event mapped onto one.
CREATE OR REPLACE FUNCTION training_event_key(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
    SELECT CASE k
               WHEN 'after work' THEN 'afterwork'
               WHEN 'teambuilding' THEN 'team building'
               WHEN 'seminar' THEN 'seminaire'
               WHEN 'soiree d entreprise' THEN 'soiree'
               ELSE k END
      FROM (SELECT btrim(regexp_replace(
                       lower(translate(t,
                                 'àâäáãåçéèêëíìîïñóòôöõúùûüýÿœæÀÂÄÁÃÅÇÉÈÊËÍÌÎÏÑÓÒÔÖÕÚÙÛÜÝŸŒÆ',
                                 'aaaaaaceeeeiiiinooooouuuuyyoaaaaaaaceeeeiiiinooooouuuuyyoa')),
                       '[^a-z0-9]+', ' ', 'g')) AS k) folded
$$;

-- Sessions of one kind of event, newest first (the search and the tool).
CREATE INDEX training_sessions_event_key_idx
    ON training_sessions (training_event_key(event_type), created_at DESC);
