#!/bin/sh
# test_layers.sh: no #include in src/ reaches up the layer table of
# HACKING.md (tools/check-layers.sh).
exec sh "${HTTOP_SRCDIR:-.}/tools/check-layers.sh" "${HTTOP_SRCDIR:-.}"
