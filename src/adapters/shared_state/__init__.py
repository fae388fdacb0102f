"""Implementations of the shared-state port."""
