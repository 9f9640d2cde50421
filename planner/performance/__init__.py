"""Performance: collectives, training workload, reliability, uncertainty."""
