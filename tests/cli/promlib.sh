# promlib.sh: a real node exporter and Prometheus (Debian's) on loopback
# for a test. Source it after tests/lib.sh; the caller kills what $pids
# lists at its end (the tests' cleanup does).
#   prom_start DIR...   one exporter per textfile directory, one Prometheus
#                       scraping them every second; sets API
#   prom_scrapes EXPR   how many samples of EXPR Prometheus has in 1 m
#   prom_wait EXPR N    wait (at most 60 s) for N samples of EXPR
#   dash_check ARGS     tests/cli/dash_check.py against $API
# prom_need: skip_all unless the three programs are installed.
PROM_EXPORTER=${NODE_EXPORTER:-/usr/bin/prometheus-node-exporter}

prom_need() {
	need prometheus prometheus
	need curl curl
	need python3 python3
	[ -x "$PROM_EXPORTER" ] ||
		skip_all "prometheus-node-exporter is not installed (Debian: prometheus-node-exporter)"
}

prom_free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

prom_start() {
	_targets=
	for _d in "$@"; do
		_port=$(prom_free_port)
		"$PROM_EXPORTER" --web.listen-address="127.0.0.1:$_port" --collector.disable-defaults \
		    --collector.textfile --collector.textfile.directory="$_d" >"$_d.exporter.log" 2>&1 &
		pids="$pids $!"
		_targets="$_targets${_targets:+, }'127.0.0.1:$_port'"
	done
	_pport=$(prom_free_port)
	mkdir -p prom.data
	cat >prometheus.yml <<EOF2
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: [$_targets]
EOF2
	prometheus --config.file="$PWD/prometheus.yml" --storage.tsdb.path="$PWD/prom.data" \
	    --web.listen-address="127.0.0.1:$_pport" >prometheus.log 2>&1 &
	PROM_PID=$!
	pids="$pids $PROM_PID"
	API="http://127.0.0.1:$_pport/api/v1"
}

prom_scrapes() {
	curl -sf --get "$API/query" --data-urlencode "query=min(count_over_time($1[1m]))" 2>/dev/null |
	    python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)' \
	    2>/dev/null || echo 0
}

prom_wait() {
	_i=0
	while [ $_i -lt 600 ]; do
		_n=$(prom_scrapes "$1")
		[ "${_n:-0}" -ge "$2" ] 2>/dev/null && return 0
		kill -0 "$PROM_PID" 2>/dev/null || return 1
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

dash_check() {
	python3 "$HTTOP_SRCDIR/tests/cli/dash_check.py" --api "$API" \
	    "$HTTOP_SRCDIR/contrib/grafana/httop-dashboard.json" "$@"
}
