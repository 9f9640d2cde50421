"""Migration revisions, oldest first: ``r0001_initial_schema``, ..."""
