"""The fabric: topology (scale-out Clos), media per link class, auxiliary networks."""
