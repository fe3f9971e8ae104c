-- 0024: a pick's reason written by a person (issue #25).
--
-- The reason an organizer reads is generated from the pinned room, its
-- configuration and capacity, and the request; it is regenerated when the
-- pin or the tier changes — unless a person wrote it, which this flag
-- records. Internal signals (team favourite, times proposed, response time)
-- are not stored with the reason: the builder derives the team's note from
-- the live signals when it shows a pick.
ALTER TABLE catalogue_picks
    ADD COLUMN reason_edited boolean NOT NULL DEFAULT false;

-- Reasons a person already wrote through the builder: the audit log holds
-- each edit (`catalogue.reason_edited`, with the venue and the text saved).
-- A pick still holding that text — in the edited catalogue or in a later
-- version of the same request — is the person's.
UPDATE catalogue_picks p
   SET reason_edited = true
  FROM catalogues c
 WHERE c.id = p.catalogue_id
   AND EXISTS (
       SELECT 1
         FROM audit_log a
         JOIN catalogues edited ON edited.id = a.object_id
        WHERE a.action = 'catalogue.reason_edited'
          AND a.object_type = 'catalogue'
          AND edited.request_id = c.request_id
          AND a.details->>'member_id' = p.member_id::text
          AND a.details->>'reason' = p.explanation);
