-- Result mails carry the map of the adjudicated phase: the outbox row names the phase and the
-- language of the picture, which is drawn from the phase's stored row when the mail is sent
-- (phase rows never change, so every retry sends the same picture).

ALTER TABLE outbox ADD COLUMN picture_phase TEXT;
ALTER TABLE outbox ADD COLUMN picture_lang TEXT;
