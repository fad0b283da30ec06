"""factcov-quali: an example third-party factcov domain (Formula 1 qualifying summaries)."""
