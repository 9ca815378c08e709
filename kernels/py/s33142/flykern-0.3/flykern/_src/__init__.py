"""Internal modules (not public)."""
