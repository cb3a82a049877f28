"""The table runtime, shared by every game: the journal (:mod:`.journal`), and the pieces
that wire a hub, a game, a referee and a display together."""
