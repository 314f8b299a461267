-- Result mails carry the maps of the adjudicated phase: the outbox row names the phase and the
-- language of the pictures, which are drawn from the phase's stored row when the mail is sent.
-- A phase row also keeps the whole input its adjudication read (orders as sent, retreats and
-- orders given in advance), so that its pictures (mail and web history) show exactly what was
-- carried out. That input holds orders for later phases: it is never shown as it is.

ALTER TABLE outbox ADD COLUMN picture_phase TEXT;
ALTER TABLE outbox ADD COLUMN picture_lang TEXT;
ALTER TABLE phases ADD COLUMN input_json TEXT;
