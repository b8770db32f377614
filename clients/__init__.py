"""Clients of the mesh's public edge (the terminal chat)."""
