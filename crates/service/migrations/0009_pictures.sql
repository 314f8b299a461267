-- Result mails carry the maps of the adjudicated phase: the outbox row names the phase and the
-- language of the pictures, which are drawn from the phase's stored row when the mail is sent.
-- A phase row also keeps the retreats ordered in advance that its adjudication used, so that
-- its pictures (mail and web history) show them as they were carried out.

ALTER TABLE outbox ADD COLUMN picture_phase TEXT;
ALTER TABLE outbox ADD COLUMN picture_lang TEXT;
ALTER TABLE phases ADD COLUMN pending_retreats_json TEXT;
