-- 005: a table message being moved (a nudge posts it anew at the channel's end, then
-- deletes the old one): the old message's id from before the new one is posted until the
-- old one is deleted, so that a start after a kill in between deletes whichever of the two
-- is left over (bot/ui/publisher.py, finish_move). NULL: no move under way.
ALTER TABLE tables ADD COLUMN moving_from INTEGER;
