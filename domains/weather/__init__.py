"""Domain weather."""
