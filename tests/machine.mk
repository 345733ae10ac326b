# tests for machine
