-- What the pictures of an adjudicated phase show, kept when it is adjudicated (the orders drawn
-- with how each turned out, and the position after them), so pictures are drawn without
-- adjudicating the phase again. Rows from before have none: their pictures replay the input.
ALTER TABLE phases ADD COLUMN outcome_json TEXT;
