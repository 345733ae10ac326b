# many nodes: the node list (Slurm's hostlist syntax), the transports,
# httop's own JSON lines read back into intervals (nodeiv.c; the machine
# they describe: nodeiv_machine.c), the nodes' lines
# (cluster.c), their processes (nodeproc.c), srun's steps (srunstep.c)
# and the job intervals (jobiv.c); a job's summary in Slurm's accounting
# (acct.c)
libhttop_a_SOURCES += src/cluster/hostlist.h src/cluster/hostlist.c \
	src/cluster/jsonl.h src/cluster/jsonl.c src/cluster/nodeiv.h src/cluster/nodeiv.c \
	src/cluster/nodeiv_int.h src/cluster/nodeiv_machine.c \
	src/cluster/transport.h src/cluster/transport.c src/cluster/cluster.h src/cluster/cluster.c \
	src/cluster/cluster_int.h src/cluster/nodeproc.c src/cluster/srunstep.c src/cluster/jobiv.c \
	src/cluster/nodelist.h src/cluster/nodelist.c \
	src/cluster/passon.h src/cluster/passon.c \
	src/cluster/acct.h src/cluster/acct.c
