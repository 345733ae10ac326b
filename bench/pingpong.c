/* pingpong.c: a switching load for the scheduler source's benchmark
 * (bench/sched.py): two processes pinned to two CPUs pass one byte back
 * and forth through a pair of pipes, so every round trip is a context
 * switch to and from idle on each CPU (four switches a trip on an idle
 * machine). Paced: batches of 10 round trips, each batch starting on a
 * schedule of RATE trips a second (CLOCK_MONOTONIC, absolute sleeps);
 * RATE 0: as fast as they go (a flood). A pair that fell behind its
 * schedule (descheduled: other work, or the VM's CPU taken by its host)
 * catches up at most SLACK_S's worth of trips at full speed and drops
 * the rest (the schedule moves on): made up, a stall of half a second
 * would be a flood of 5,000 round trips, not the paced load.
 *
 *   httop-pingpong CPU_A CPU_B RATE SECONDS
 *
 * Prints "trips=N seconds=S dropped=D late_max_ms=L" at the end: D round
 * trips not made to stay paced, L the most a batch started late. */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SLACK_S 0.02

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) {
		perror("sched_setaffinity");
		exit(1);
	}
}

static void
sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int
main(int argc, char **argv)
{
	int ab[2], ba[2], a, b;
	double rate, seconds, t0, end, late_max = 0.0;
	unsigned long trips = 0, dropped = 0;
	char c = 'x';
	pid_t pid;

	if (argc != 5) {
		fprintf(stderr, "usage: %s CPU_A CPU_B RATE SECONDS\n", argv[0]);
		return 2;
	}
	a = atoi(argv[1]);
	b = atoi(argv[2]);
	rate = atof(argv[3]);
	seconds = atof(argv[4]);
	if (pipe(ab) != 0 || pipe(ba) != 0) {
		perror("pipe");
		return 1;
	}
	if ((pid = fork()) < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		pin(b);
		close(ab[1]);
		close(ba[0]);
		while (read(ab[0], &c, 1) == 1)
			if (write(ba[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	pin(a);
	close(ab[0]);
	close(ba[1]);
	t0 = now();
	end = t0 + seconds;
	while (now() < end) {
		int i;

		if (rate > 0.0) {
			double due = t0 + (double)(trips + dropped) / rate, late = now() - due;

			if (late > late_max)
				late_max = late;
			if (late > SLACK_S) {
				unsigned long skip = (unsigned long)((late - SLACK_S) * rate);

				dropped += skip;
				due += (double)skip / rate;
			}
			sleep_until(due);
		}
		for (i = 0; i < 10; i++) {
			if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
				return 1;
			trips++;
		}
	}
	close(ab[1]);
	waitpid(pid, NULL, 0);
	printf("trips=%lu seconds=%.3f dropped=%lu late_max_ms=%.1f\n", trips, now() - t0,
	    dropped, late_max * 1e3);
	return 0;
}
