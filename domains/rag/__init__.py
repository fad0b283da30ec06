"""Domain rag."""
