# contrib: what a site deploys beside the program. The Slurm prolog and
# epilog are run by slurmd, not by users: they go under libexec
# (/usr/libexec/httop, slurm.conf's Prolog= and Epilog= name them; the
# epilog runs httop-acct beside it); the
# Grafana dashboard is data (/usr/share/httop/grafana). httop(1), FILES, and
# debian/README.Debian say where they are and how to use them.
slurmscriptsdir = $(pkglibexecdir)
dist_slurmscripts_SCRIPTS = contrib/slurm/httop-prolog contrib/slurm/httop-epilog \
	contrib/slurm/httop-acct
grafanadir = $(pkgdatadir)/grafana
dist_grafana_DATA = contrib/grafana/httop-dashboard.json
