"""The 8Bitbox console layer: transports, discovery and the hub (knows no game)."""
