"""``python -m planner`` runs the CLI."""

from planner.cli import main

main()
