"""Extraction backends shared by domains (spaCy, stanza, LLM)."""
