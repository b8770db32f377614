"""Escalation to a human: a durable case queue that operators work through over gRPC."""
