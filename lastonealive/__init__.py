"""Last One Alive on the 8Bitbox bridge: the rules engine, its data and the scenario runner."""
