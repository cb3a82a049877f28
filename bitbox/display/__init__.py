"""The display shell, shared by every game: fonts, regions, dirty rectangles, banners,
player panels, dice and the log (:mod:`.shell`; it imports pygame, this package does not)."""
