# tests: tui
