#!/bin/sh
# test_hwloc_plugins.sh: httop reads topologies the same way whether
# Debian's libhwloc-plugins (recommended by libhwloc15, so on a default
# install) is there or not (issue 23): it loads none of hwloc's plugins,
# even when HWLOC_PLUGINS_PATH names their directory, so the libxml2
# reader never replaces hwloc's own and no PCI, OpenCL or GL library is
# mapped at start. The dynamic loader says what it loads (LD_DEBUG=libs);
# a plugin directory is made here from the installed plugins when there
# are any, and the check runs whether or not they are installed. And the
# XML that lstopo writes for the suite's synthetic machines (bench/lib.sh)
# is the same with and without plugins, so the instruction gates read
# the same files on both kinds of machine.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 6

# The installed plugins, wherever the multiarch directory is.
pdir=$(ls -d /usr/lib/*/hwloc /usr/lib/hwloc /usr/lib64/hwloc 2>/dev/null | head -n 1)
n=0
[ -n "$pdir" ] && n=$(ls "$pdir"/hwloc_*.so 2>/dev/null | wc -l)
diag "hwloc plugins installed here: $n${pdir:+ in $pdir}"

topo="$HTTOP_SRCDIR/data/demo-skx.xml"
LD_DEBUG=libs HWLOC_PLUGINS_PATH="${pdir:-/nonexistent}" \
	"$HTTOP" --sim idle --topology "$topo" -b -n 1 -d 0.05 >out 2>ld.err
st=$?
check "httop runs with HWLOC_PLUGINS_PATH naming the plugins (status $st)" [ "$st" -eq 0 ]
loaded=$(grep -o 'hwloc_[a-z_]*\.so' ld.err | sort -u | tr '\n' ' ')
check "no hwloc plugin is loaded${loaded:+ (loaded: $loaded)}" [ -z "$loaded" ]
for l in libxml2 libpciaccess libOpenCL libGL; do
	grep -q "calling init: .*$l" ld.err && diag "$l was loaded"
done
check "neither libxml2, libpciaccess, OpenCL nor GL is loaded" \
	sh -c '! grep -qE "calling init: .*(libxml2|libpciaccess|libOpenCL|libGL)" ld.err'

# A file hwloc refuses: the built-in reader's reason, with the plugins'
# directory named or not.
sed 's/type="Core"/type="Kernel"/' "$topo" >badtype.xml
HWLOC_PLUGINS_PATH="${pdir:-/nonexistent}" "$HTTOP" --topology badtype.xml --sim idle -b -n 1 \
	>/dev/null 2>err1
"$HTTOP" --topology badtype.xml --sim idle -b -n 1 >/dev/null 2>err2
check "hwloc's own reason for a refused file (unrecognized object type string Kernel)" \
	grep -q 'unrecognized object type string Kernel' err1
check "... the same message whatever HWLOC_PLUGINS_PATH says" cmp -s err1 err2

# lstopo (the hwloc package) writes the synthetic machines' XML the bench
# gates read: the same bytes with plugins and without.
if command -v lstopo-no-graphics >/dev/null 2>&1; then
	lstopo-no-graphics -i "package:4 core:128 pu:2" --of xml with.xml 2>/dev/null
	HWLOC_PLUGINS_PATH= lstopo-no-graphics -i "package:4 core:128 pu:2" --of xml without.xml 2>/dev/null
	check "lstopo writes the same synthetic XML with and without plugins" cmp -s with.xml without.xml
else
	skip "lstopo-no-graphics is not installed (Debian: hwloc)"
fi
