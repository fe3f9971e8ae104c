-- 0017: the next message seq of a conversation kept on the conversation, so
-- appending a message is one statement (the counter's UPDATE takes the row
-- lock and reads the latest value; a max(seq) + 1 in the same statement
-- would read a snapshot older than the lock).
ALTER TABLE ai_conversations ADD COLUMN message_seq integer NOT NULL DEFAULT 0
    CHECK (message_seq >= 0);
UPDATE ai_conversations c
   SET message_seq = m.next
  FROM (SELECT conversation_id, max(seq) + 1 AS next FROM ai_messages GROUP BY conversation_id) m
 WHERE m.conversation_id = c.id;
