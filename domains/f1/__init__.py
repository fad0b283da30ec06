"""Domain f1."""
