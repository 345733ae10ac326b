# tests for trace
