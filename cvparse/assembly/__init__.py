"""Assemblers: turn the inventory and connectors into each family's document."""
