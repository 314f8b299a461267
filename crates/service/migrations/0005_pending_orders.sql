-- Orders sent for later phases and retreats ordered in advance, kept between adjudications as the
-- engine hands them back ({"pending_retreats": {...}, "pending_orders": {...}}).

ALTER TABLE games ADD COLUMN pending_json TEXT;
