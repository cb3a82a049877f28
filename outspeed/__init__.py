"""Outspeed: rules engine, referee session, table display."""
