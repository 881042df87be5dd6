"""``python -m bridgefiles.cli``: the command line."""

from bridgefiles.cli import main

main()
