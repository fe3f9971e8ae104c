-- 0034: sign-in failures counted in the database, so that every server
-- shares one count (issue #30, ADR 0045).
--
-- The counters used to live in each server's memory: N servers behind a
-- load balancer let a guesser spread over them N times the quota. One row
-- per bucket: the counter ('block': an address block, 'email': an account,
-- 'pair': an account from one block), its key, and when its failures will
-- all have drained. UNLOGGED: counters are worth no WAL, and a crash of
-- PostgreSQL only empties them (the limits start again from zero).

CREATE UNLOGGED TABLE sign_in_failures (
    counter    text NOT NULL CHECK (counter IN ('block', 'email', 'pair')),
    key        text NOT NULL,
    drained_at timestamptz NOT NULL,
    PRIMARY KEY (counter, key)
);
