"""`make bench`: latency and throughput tables measured on loopback, with baselines."""
