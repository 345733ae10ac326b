# tests for msr
