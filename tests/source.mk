# tests for source
