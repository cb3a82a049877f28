"""Last One Alive's open prompt as the console's game protocol states it: one module the
cartridge (:mod:`lastonealive.cartridge`) and the table's session (:mod:`lastonealive.session`)
both read, so neither imports the other."""
from __future__ import annotations

from collections.abc import Sequence

from bitbox.games.protocol import JSON, Prompt

from .rules import Game


def protocol_prompts(engine: Game) -> Sequence[Prompt]:
    """The engine's prompt (none once the game is over): its legal answers with the default
    first, its public facts and, at setup, the token drawn (private to that player)."""
    pr = engine.prompt()
    if pr is None:
        return ()
    options = list(pr.legal)
    if pr.default is not None and pr.default in options:
        options.remove(pr.default)
        options.insert(0, pr.default)
    context: dict[str, JSON] = {"auto": pr.auto, **pr.info}
    if pr.kind == "setup":
        context["token"] = engine.state.setup_token         # private to that player
    return (Prompt(pr.player, pr.kind, tuple(options), context),)
