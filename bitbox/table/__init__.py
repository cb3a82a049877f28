"""The table runtime, shared by every game.

* :mod:`.seating`: who plays which hub seat (controllers, bots, the keyboard hot-seat);
* :mod:`.referee`: the referee loop a game's session subclasses (lock to submit, pause on a
  lost controller, journal then apply, lights and private hints), and the commands and pace;
* :mod:`.app`: the table loop (hub events → referee → drivers → controllers → display);
* :mod:`.journal`: the SQLite journal of every game, any game; :mod:`.history`: history and
  replay.
"""
