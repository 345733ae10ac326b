#!/bin/sh
# mksysfs.sh DIR [--short] HEX...: a fake sysfs tree holding the PCU
# device (8086:2083, function 1e.3) of one socket per HEX value, with the
# value little-endian at config offset 0x9C (CAPID6, doc/hardware.md
# section 7).
#
#   DIR/bus/pci/devices/0000:BB:1e.3/{vendor,device,numa_node,config}
#
# Sockets get buses 0x16, 0x85, 0x97, 0xa9, 0xbb, 0xcd, 0xdf, 0xf1, ... in
# order, numa_node 0, 1, 2, ...; config is 4096 bytes, or 64 with --short
# (what the kernel lets a non-root user read). Two decoys must be ignored
# by readers: another PCU function (8086:2088 at 16:1e.2) and a device at
# function 1e.3 that is not a PCU (8086:a1c3 at 00:1e.3, sorting first).
# Existing devices under DIR are left alone, so calls can add sockets.
set -eu

usage() {
	echo "usage: mksysfs.sh DIR [--short] HEX..." >&2
	exit 2
}

[ $# -ge 1 ] || usage
root=$1
shift
size=4096
if [ $# -ge 1 ] && [ "$1" = "--short" ]; then
	size=64
	shift
fi
devs=$root/bus/pci/devices
mkdir -p "$devs"

# Four bytes of a 32-bit value, least significant first, as printf octal
# escapes.
le32() {
	v=$(( $1 ))
	out=
	for _ in 1 2 3 4; do
		out="$out\\$(printf '%03o' $(( v & 255 )))"
		v=$(( v >> 8 ))
	done
	printf '%s' "$out"
}

# device DIR VENDOR DEVICE NUMA CAPID6
device() {
	d=$devs/$1
	mkdir -p "$d"
	printf '0x%04x\n' "$2" >"$d/vendor"
	printf '0x%04x\n' "$3" >"$d/device"
	printf '%s\n' "$4" >"$d/numa_node"
	dd if=/dev/zero of="$d/config" bs="$size" count=1 2>/dev/null
	# Vendor and device ids open the header, as on real hardware.
	# shellcheck disable=SC2059
	printf "$(le32 $(( $2 | $3 << 16 )))" |
	    dd of="$d/config" bs=1 seek=0 conv=notrunc 2>/dev/null
	if [ "$size" -gt 156 ]; then
		# shellcheck disable=SC2059
		printf "$(le32 "$5")" |
		    dd of="$d/config" bs=1 seek=156 conv=notrunc 2>/dev/null
	fi
}

device 0000:00:1e.3 0x8086 0xa1c3 -1 0xffffffff
device 0000:16:1e.2 0x8086 0x2088 0 0xffffffff
socket=0
for hex in "$@"; do
	case $hex in
	0x* | 0X*) ;;
	*) hex=0x$hex ;;
	esac
	case $socket in
	0) bus=16 ;;
	*) bus=$(printf '%02x' $(( 0x85 + (socket - 1) * 0x12 ))) ;;
	esac
	device "0000:$bus:1e.3" 0x8086 0x2083 "$socket" "$hex"
	socket=$((socket + 1))
done
