-- What an adjudication tells only one power (retreats ordered in advance that were not used,
-- orders for a phase that was not played): kept beside the published result, per power, as
-- JSON, and shown to that power's player only.

ALTER TABLE phases ADD COLUMN notices_json TEXT;
