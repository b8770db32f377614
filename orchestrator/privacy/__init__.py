"""PHI detection (stage 2, and the egress guard of every model call) and the redacted audit chain."""
