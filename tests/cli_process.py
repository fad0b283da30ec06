"""`python -m tests.cli_process ARGS...`: the factcov CLI in its own process, with the tiny
test domain registered, so a test can kill it (kill -9 at a fault step) or run two at once."""

from __future__ import annotations

import sys

if __name__ == "__main__":
    from factcov.cli.app import main
    from factcov.plugins import register_plugin
    from tests import mini_domain

    register_plugin(mini_domain, "mini")
    sys.argv[0] = "factcov"
    main()
