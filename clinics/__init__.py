"""One federated clinic service (any of clinic_a … clinic_f), backed by its own SQLite file."""
