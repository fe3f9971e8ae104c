-- 0027: playbooks as the server runs them (issue « Playbooks »).
--
-- Stations replace the single guidance_settings row: each place the
-- assistant works (the team chat, the training workspace) has its own
-- thresholds and cap. A new station starts in observe (seed 004).
CREATE TABLE stations (
    name              text PRIMARY KEY CHECK (name ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    label             text NOT NULL CHECK (btrim(label) <> ''),
    enforce_threshold double precision NOT NULL DEFAULT 0.85,
    suggest_threshold double precision NOT NULL DEFAULT 0.5,
    margin            double precision NOT NULL DEFAULT 0.05,
    max_mode          text NOT NULL DEFAULT 'observe' CHECK (max_mode IN ('enforce', 'suggest', 'observe')),
    updated_by        bigint REFERENCES users (id) ON DELETE SET NULL,
    updated_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT stations_thresholds CHECK (
        0 <= suggest_threshold AND suggest_threshold <= enforce_threshold AND enforce_threshold <= 1),
    CONSTRAINT stations_margin CHECK (margin >= 0 AND margin <= 1)
);
CREATE TRIGGER stations_updated_at BEFORE UPDATE ON stations
    FOR EACH ROW EXECUTE FUNCTION set_updated_at();
INSERT INTO stations (name, label) VALUES
    ('chat', 'Chat de l''équipe'),
    ('training', 'Espace d''entraînement')
ON CONFLICT (name) DO NOTHING;
DROP TABLE guidance_settings;

-- A playbook is active (opens), observe (scored and logged, never opens:
-- an accepted suggestion starts here) or disabled.
ALTER TABLE playbooks DROP CONSTRAINT playbooks_status_check;
UPDATE playbooks SET status = 'disabled' WHERE status IN ('draft', 'archived');
ALTER TABLE playbooks ALTER COLUMN status SET DEFAULT 'observe';
ALTER TABLE playbooks ADD CONSTRAINT playbooks_status_check
    CHECK (status IN ('active', 'observe', 'disabled'));
DROP INDEX playbooks_active_idx;
CREATE INDEX playbooks_candidates_idx ON playbooks (name) WHERE status <> 'disabled';
-- The YAML as the admin wrote it, comments included (definition is its parse).
ALTER TABLE playbooks ADD COLUMN source text NOT NULL DEFAULT '';
ALTER TABLE playbook_versions ADD COLUMN source text NOT NULL DEFAULT '';

-- A run's progress: the steps done so far, in order.
ALTER TABLE playbook_runs ADD COLUMN station text NOT NULL DEFAULT 'chat' REFERENCES stations (name);
ALTER TABLE playbook_runs ADD COLUMN opened_for bigint REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE playbook_runs ADD COLUMN steps_done text[] NOT NULL DEFAULT '{}';

-- Decisions: the station, who asked, the mode before the cap, the caller's
-- door and what the agent then did. An open run's rulings are logged here
-- too: a step refused or allowed out of order (`step`), an abandon (`abandon`).
ALTER TABLE guidance_decisions DROP CONSTRAINT guidance_decisions_origin_check;
ALTER TABLE guidance_decisions ADD CONSTRAINT guidance_decisions_origin_check
    CHECK (origin IN ('seek_guidance', 'implicit_gate', 'start_playbook', 'turn', 'step', 'abandon'));
ALTER TABLE guidance_decisions ADD COLUMN station text NOT NULL DEFAULT 'chat';
ALTER TABLE guidance_decisions ADD COLUMN user_id bigint REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE guidance_decisions ADD COLUMN uncapped_band text
    CHECK (uncapped_band IN ('enforce', 'suggest', 'observe'));
ALTER TABLE guidance_decisions ADD COLUMN suggested text[] NOT NULL DEFAULT '{}';
-- « ouvert », « refusé : ouvrez d'abord … », the tool then called…
ALTER TABLE guidance_decisions ADD COLUMN outcome text;
ALTER TABLE guidance_decisions ADD COLUMN run_id bigint REFERENCES playbook_runs (id) ON DELETE SET NULL;
CREATE INDEX guidance_decisions_band_idx ON guidance_decisions (band, created_at DESC);

-- Observations: who, where (patterns are per station).
ALTER TABLE observations ADD COLUMN station text NOT NULL DEFAULT 'chat';
ALTER TABLE observations ADD COLUMN user_id bigint REFERENCES users (id) ON DELETE SET NULL;
