-- 0033: the conversation summariser's turn, as a lease rather than a held
-- transaction (issue #30, ADR 0044).
--
-- A pass used to hold an advisory lock in a transaction that stayed open
-- while the model read the conversation and the facts were embedded: one
-- pooled connection per pass for tens of seconds. Passes start at the end
-- of turns, one per busy conversation, so under load they held the whole
-- pool and every other request timed out waiting for a connection. A
-- lease is one row taken and given back by short statements; a pass that
-- dies leaves it to expire.

CREATE TABLE memory_summary_leases (
    conversation_id bigint PRIMARY KEY REFERENCES ai_conversations (id) ON DELETE CASCADE,
    -- Also the holder's token: given back only by the pass that took it.
    until           timestamptz NOT NULL
);
