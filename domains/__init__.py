"""The built-in domains (f1, weather, rag), each a plugin."""
