"""Development tools, not shipped with the package: benchmarks, the load test, demo data."""
