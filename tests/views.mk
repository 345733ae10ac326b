# tests: views
