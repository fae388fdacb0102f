"""Tests of the test support code (the fake OpenProject server)."""
