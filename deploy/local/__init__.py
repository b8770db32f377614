"""Local launcher: starts the mesh on this machine (`make up`)."""
