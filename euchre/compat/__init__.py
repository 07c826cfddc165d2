"""Bridges to other game libraries. Each module imports its library only when called, so the
core never depends on it and ``import euchre.compat`` works without any extra installed."""
