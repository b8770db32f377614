"""Stage 3b: the deterministic plan — which calls to which upstreams, typed steps."""
