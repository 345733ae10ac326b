TSC_ratio = 21
nr_cpus = 65536
tsc[999999] = 1
