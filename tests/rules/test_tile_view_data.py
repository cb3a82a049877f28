"""A tile's data in the public view (Tile.view_data): made once per tile and shared, equal to
its data as saved (to_data, a new dict each time)."""
from .helpers import bots_for, new_game, step


def test_view_data_is_the_tiles_data_made_once(content):
    for tile in content.tiles:
        data = tile.view_data()
        assert data == tile.to_data()
        assert tile.view_data() is data                       # made once, shared by the views
        assert tile.to_data() is not tile.to_data()           # saved data: a new dict each time


def test_views_show_the_tile_as_saved(content):
    game = new_game(content, 4, seed=3)
    bots = bots_for(game, 3)
    tiles = set()
    while not game.state.finished:
        view = game.public_view()
        assert view["tile"] == game.state.tile.to_data() == game.to_data()["tile"]
        assert view["tile"] is game.private_view(game.state.players[0])["tile"]    # one shared data
        tiles.add(view["tile"]["number"])
        step(game, bots)
    assert len(tiles) > 5
