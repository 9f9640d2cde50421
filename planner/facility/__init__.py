"""The facility: power, racks and cooling."""
