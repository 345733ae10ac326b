/* transport.c: the command line that starts a node's httop (transport.h). */
#include "config.h"
#include "cluster/transport.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/xalloc.h"

static const char *const fixed_dirs[] = { "/usr/bin", "/bin", "/usr/sbin", "/sbin" };

/* Where `name` is: itself when it holds a '/', else the first match in
 * the fixed directories or in PATH. */
static int
find(const char *name, bool fixed_path, char *const envp[], char *buf, size_t len,
    struct errmsg *e)
{
	const char *path = NULL, *p;
	size_t i, n;

	if (strchr(name, '/') != NULL) {
		if (fixed_path && name[0] != '/')
			return errmsg_set(e, _("--via: %s must be an absolute path in a set-ID httop"), name);
		if (access(name, X_OK) != 0)
			return errmsg_set(e, _("--via: %s: %s"), name, strerror(errno));
		snprintf(buf, len, "%s", name);
		return 0;
	}
	if (fixed_path) {
		for (i = 0; i < sizeof fixed_dirs / sizeof fixed_dirs[0]; i++) {
			snprintf(buf, len, "%s/%s", fixed_dirs[i], name);
			if (access(buf, X_OK) == 0)
				return 0;
		}
		return errmsg_set(e, _("--via: %s is not in /usr/bin, /bin, /usr/sbin or /sbin (a "
		    "set-ID httop looks nowhere else); give its absolute path"), name);
	}
	for (i = 0; envp != NULL && envp[i] != NULL; i++)
		if (strncmp(envp[i], "PATH=", 5) == 0)
			path = envp[i] + 5;
	if (path == NULL)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; *p != '\0'; p += n + (p[n] == ':')) {
		n = strcspn(p, ":");
		snprintf(buf, len, "%.*s/%s", (int)(n > 0 ? n : 1), n > 0 ? p : ".", name);
		if (access(buf, X_OK) == 0)
			return 0;
		if (p[n] == '\0')
			break;
	}
	return errmsg_set(e, _("--via: %s is not installed here (not found in PATH); install it "
	    "or give another transport"), name);
}

int
transport_split(const char *cmd, char ***words, size_t *n, struct errmsg *e)
{
	char *w = xmalloc(strlen(cmd) + 1);
	const char *p = cmd;
	size_t len;
	bool in_word;

	*words = NULL;
	*n = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		len = 0;
		in_word = true;
		while (in_word && *p != '\0') {
			char q = *p;

			if (q == ' ' || q == '\t' || q == '\n') {
				in_word = false;
			} else if (q == '\'' || q == '"') {
				for (p++; *p != '\0' && *p != q; p++) {
					if (q == '"' && *p == '\\' && p[1] != '\0' && strchr("\"\\$`", p[1]) != NULL)
						p++;
					w[len++] = *p;
				}
				if (*p != q)
					goto unclosed;
				p++;
			} else if (q == '\\' && p[1] != '\0') {
				w[len++] = p[1];
				p += 2;
			} else {
				w[len++] = *p++;
			}
		}
		w[len] = '\0';
		*words = xreallocarray(*words, *n + 2, sizeof **words);
		(*words)[(*n)++] = xstrdup(w);
		(*words)[*n] = NULL;
	}
	free(w);
	if (*n == 0)
		return errmsg_set(e, _("--via: an empty command; give ssh, srun or a command "
		    "with %%h for the host"));
	return 0;
unclosed:
	free(w);
	transport_argv_free(*words);
	*words = NULL;
	*n = 0;
	return errmsg_set(e, _("--via: '%.80s' has a quote that is not closed"), cmd);
}

const char *
transport_quote(const char *word, char *buf, size_t len)
{
	size_t o = 0;
	const char *p;

	if (*word != '\0' && strspn(word, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_./:=,@%+-") == strlen(word)) {
		snprintf(buf, len, "%s", word);
		return buf;
	}
	/* '...' with each ' as '\'' */
	if (len < 3)
		return "''";
	buf[o++] = '\'';
	for (p = word; *p != '\0' && o + 6 < len; p++) {
		if (*p == '\'') {
			memcpy(buf + o, "'\\''", 4);
			o += 4;
		} else {
			buf[o++] = *p;
		}
	}
	buf[o++] = '\'';
	buf[o] = '\0';
	return buf;
}

int
transport_init(struct transport *t, const char *via, const char *jobid,
    char *const *remote, size_t nremote, bool fixed_path, char *const envp[], struct errmsg *e)
{
	char path[PATH_MAX];
	const char *env = NULL, *name;
	size_t i;

	memset(t, 0, sizeof *t);
	if (strcmp(via, "ssh") == 0) {
		t->via = VIA_SSH;
		env = fixed_path ? NULL : getenv("HTTOP_SSH");
		name = env != NULL && *env != '\0' ? env : "ssh";
	} else if (strcmp(via, "srun") == 0) {
		t->via = VIA_SRUN;
		if (jobid == NULL)
			return errmsg_set(e, _("--via srun starts httop in a job's allocation: give the "
			    "job with --job ID"));
		snprintf(t->jobid, sizeof t->jobid, "%s", jobid);
		env = fixed_path ? NULL : getenv("HTTOP_SRUN");
		name = env != NULL && *env != '\0' ? env : "srun";
	} else {
		t->via = VIA_CMD;
		if (strstr(via, "%h") == NULL)
			return errmsg_set(e, _("--via: '%.80s' has no %%h for the host; give e.g. "
			    "--via 'mysh %%h'"), via);
		if (transport_split(via, &t->words, &t->nwords, e) != 0)
			return -1;
		name = t->words[0];
	}
	if (find(name, fixed_path, envp, path, sizeof path, e) != 0) {
		transport_free(t);
		return -1;
	}
	t->prog = xstrdup(path);
	t->remote = xcalloc(nremote + 1, sizeof *t->remote);
	for (i = 0; i < nremote; i++)
		t->remote[i] = xstrdup(remote[i]);
	t->nremote = nremote;
	return 0;
}

/* `w` with every %h replaced by `host`. */
static char *
subst(const char *w, const char *host)
{
	size_t n = 0, hl = strlen(host);
	const char *p;
	char *out, *o;

	for (p = w; *p != '\0'; p++)
		n += p[0] == '%' && p[1] == 'h' ? hl : 1;
	out = o = xmalloc(n + 1);
	for (p = w; *p != '\0'; p++) {
		if (p[0] == '%' && p[1] == 'h') {
			memcpy(o, host, hl);
			o += hl;
			p++;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

/* After the node's httop: "--host HOST", so that its lines name the host
 * it was started for (a line that names another is refused: nodeiv.h). */
static size_t
name_it(char **argv, size_t n, const char *host)
{
	argv[n++] = xstrdup("--host");
	argv[n++] = xstrdup(host);
	return n;
}

char **
transport_argv(const struct transport *t, const char *host)
{
	static const char *const ssh[] = { "-T", "-x", "-a", "-o", "BatchMode=yes", "-o",
	    "ConnectTimeout=10", "-o", "ServerAliveInterval=10", "-o", "ServerAliveCountMax=3" };
	size_t cap = t->nwords + t->nremote + 32, n = 0, i;
	char **argv = xcalloc(cap, sizeof *argv), buf[4096], arg[512];

	argv[n++] = xstrdup(t->prog);
	switch (t->via) {
	case VIA_SSH:
		for (i = 0; i < sizeof ssh / sizeof ssh[0]; i++)
			argv[n++] = xstrdup(ssh[i]);
		argv[n++] = xstrdup("--");
		argv[n++] = xstrdup(host);
		for (i = 0; i < t->nremote; i++) {
			argv[n++] = xstrdup(transport_quote(t->remote[i], buf, sizeof buf));
			if (i == 0)
				n = name_it(argv, n, transport_quote(host, buf, sizeof buf));
		}
		break;
	case VIA_SRUN:
		snprintf(arg, sizeof arg, "--jobid=%s", t->jobid);
		argv[n++] = xstrdup(arg);
		argv[n++] = xstrdup("--overlap");
		argv[n++] = xstrdup("--nodes=1");
		argv[n++] = xstrdup("--ntasks=1");
		snprintf(arg, sizeof arg, "--nodelist=%s", host);
		argv[n++] = xstrdup(arg);
		argv[n++] = xstrdup("--quiet");
		argv[n++] = xstrdup("--");
		for (i = 0; i < t->nremote; i++) {
			argv[n++] = xstrdup(t->remote[i]);
			if (i == 0)
				n = name_it(argv, n, host);
		}
		break;
	case VIA_CMD:
		for (i = 1; i < t->nwords; i++)
			argv[n++] = subst(t->words[i], host);
		for (i = 0; i < t->nremote; i++) {
			argv[n++] = xstrdup(t->remote[i]);
			if (i == 0)
				n = name_it(argv, n, host);
		}
		break;
	}
	argv[n] = NULL;
	return argv;
}

/* The task's httop ($0) with its words, after "--host NODE" when Slurm
 * gave the node's name. */
#define STEP_SCRIPT "exec \"$0\" ${SLURMD_NODENAME:+--host \"$SLURMD_NODENAME\"} \"$@\""

char **
transport_step_argv(const struct transport *t, char *const *hosts, size_t nhosts)
{
	size_t cap = t->nremote + 20, n = 0, i, len = 16;
	char **argv = xcalloc(cap, sizeof *argv), arg[512], *list, *p;

	for (i = 0; i < nhosts; i++)
		len += strlen(hosts[i]) + 1;
	list = p = xmalloc(len);
	p += sprintf(p, "--nodelist=");
	for (i = 0; i < nhosts; i++)
		p += sprintf(p, "%s%s", i > 0 ? "," : "", hosts[i]);
	argv[n++] = xstrdup(t->prog);
	snprintf(arg, sizeof arg, "--jobid=%s", t->jobid);
	argv[n++] = xstrdup(arg);
	argv[n++] = xstrdup("--overlap");
	snprintf(arg, sizeof arg, "--nodes=%zu", nhosts);
	argv[n++] = xstrdup(arg);
	snprintf(arg, sizeof arg, "--ntasks=%zu", nhosts);
	argv[n++] = xstrdup(arg);
	argv[n++] = xstrdup("--ntasks-per-node=1");
	argv[n++] = list;
	argv[n++] = xstrdup("--label");
	argv[n++] = xstrdup("--kill-on-bad-exit=0");
	argv[n++] = xstrdup("--quiet");
	argv[n++] = xstrdup("--");
	/* Each task names its node as Slurm does (SLURMD_NODENAME, set by
	 * slurmstepd), not by the node's own host name, which may differ
	 * (c001.example.org on node c001): its lines are checked against
	 * that name (nodeiv.h). The words come as arguments, never into
	 * the script. */
	argv[n++] = xstrdup("/bin/sh");
	argv[n++] = xstrdup("-c");
	argv[n++] = xstrdup(STEP_SCRIPT);
	for (i = 0; i < t->nremote; i++)
		argv[n++] = xstrdup(t->remote[i]);
	argv[n] = NULL;
	return argv;
}

void
transport_argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv != NULL && argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

void
transport_free(struct transport *t)
{
	size_t i;

	transport_argv_free(t->words);
	free(t->prog);
	for (i = 0; i < t->nremote; i++)
		free(t->remote[i]);
	free(t->remote);
	memset(t, 0, sizeof *t);
}

const char *
transport_name(const struct transport *t)
{
	switch (t->via) {
	case VIA_SSH: return "ssh";
	case VIA_SRUN: return "srun";
	case VIA_CMD: return t->words != NULL ? t->words[0] : "?";
	}
	return "?";
}

void
transport_drop_word(struct transport *t, const char *word)
{
	size_t i, k = 0;

	for (i = 0; i < t->nremote; i++) {
		if (strcmp(t->remote[i], word) == 0)
			free(t->remote[i]);
		else
			t->remote[k++] = t->remote[i];
	}
	t->nremote = k;
}
