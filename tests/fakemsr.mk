# tests for fakemsr
