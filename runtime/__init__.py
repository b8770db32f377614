"""Shared runtime for healthmesh services: config, logging, server bootstrap, tracing."""
