"""Bring the database named by ``PLANNER_DATABASE_URL`` to the newest schema, then exit.

Run by ``deploy/entrypoint.sh`` before the app starts. It retries for ``PLANNER_DB_WAIT_S``
seconds (default 60): the database may still be starting, and when several replicas start at
once one of them migrates while the others wait for its transaction and find the schema current.
Opening the store is what migrates (:func:`planner.store.open_store`), so the app itself and
this script run the same migrations.
"""

from __future__ import annotations

import os
import sys
import time

from planner.errors import PlannerError
from planner.store import open_store


def main() -> int:
    url = os.environ["PLANNER_DATABASE_URL"]
    deadline = time.monotonic() + float(os.environ.get("PLANNER_DB_WAIT_S", "60"))
    while True:
        try:
            with open_store(url=url) as store:
                sys.stderr.write(f"migrate: database ready ({store.url})\n")
            return 0
        except PlannerError as exc:
            if time.monotonic() > deadline:
                sys.stderr.write(f"migrate: giving up: {exc}\n")
                return 2
            sys.stderr.write(f"migrate: waiting for the database: {exc}\n")
            time.sleep(2)


if __name__ == "__main__":
    sys.exit(main())
