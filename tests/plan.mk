# tests for plan
