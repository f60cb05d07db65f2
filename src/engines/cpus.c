/*
 * cpus.c -- how many CPUs this process may run on: the online CPUs, its
 * affinity mask (sched_getaffinity, as taskset and container runtimes set
 * it) and the CPU quota of its cgroup (cgroup v2's cpu.max, or v1's
 * cpu.cfs_quota_us over cpu.cfs_period_us), the least of the three.  A
 * quota of 1.5 CPUs counts as 2: the threads may still each get a share.
 *
 * The parallel engines never start more threads than this (issue 20): a
 * thread beyond the CPUs there are only waits for one that is there, and
 * makes it wait.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/engines.h"

#ifdef __linux__
/* The CPUs of a quota of `quota` microseconds every `period`, rounded up;
   0 for none (or nonsense). */
static unsigned
quota_cpus(long long quota, long long period)
{
    if (quota <= 0 || period <= 0)
        return 0;
    return (unsigned)((quota + period - 1) / period);
}

/* The quota of cgroup v2 in the file dir/cpu.max ("max 100000" or "200000
   100000"); 0: none. */
static unsigned
v2_quota(const char *dir)
{
    char path[4096], word[32];
    long long period = 0;
    unsigned cpus = 0;
    FILE *f;
    if ((size_t)snprintf(path, sizeof path, "/sys/fs/cgroup%s/cpu.max",
                         dir) >= sizeof path ||
        (f = fopen(path, "r")) == NULL)
        return 0;
    if (fscanf(f, "%31s %lld", word, &period) == 2 &&
        strcmp(word, "max") != 0)
        cpus = quota_cpus(atoll(word), period);
    fclose(f);
    return cpus;
}

/* The cgroup v1 quota of the cpu controller's group dir; 0: none. */
static unsigned
v1_quota(const char *mount, const char *dir)
{
    char path[4096];
    long long quota = 0, period = 0;
    FILE *f;
    if ((size_t)snprintf(path, sizeof path, "%s%s/cpu.cfs_quota_us", mount,
                         dir) >= sizeof path ||
        (f = fopen(path, "r")) == NULL)
        return 0;
    if (fscanf(f, "%lld", &quota) != 1)
        quota = 0;
    fclose(f);
    if ((size_t)snprintf(path, sizeof path, "%s%s/cpu.cfs_period_us", mount,
                         dir) >= sizeof path ||
        (f = fopen(path, "r")) == NULL)
        return 0;
    if (fscanf(f, "%lld", &period) != 1)
        period = 0;
    fclose(f);
    return quota_cpus(quota, period);
}

/* The least quota of the process's cgroup and the groups above it (a
   parent's limit binds its children); 0: none found. */
static unsigned
cgroup_cpus(void)
{
    char line[4096];
    unsigned best = 0;
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL) {
        char *dir = strchr(line, ':'), *controllers, *end;
        int v2;
        if (dir == NULL)
            continue;
        controllers = dir + 1;
        if ((dir = strchr(controllers, ':')) == NULL)
            continue;
        *dir++ = '\0';
        if ((end = strchr(dir, '\n')) != NULL)
            *end = '\0';
        v2 = controllers[0] == '\0';
        if (!v2 && strstr(controllers, "cpu") == NULL)
            continue;
        for (;;) {
            unsigned c =
                v2 ? v2_quota(dir)
                   : (v1_quota("/sys/fs/cgroup/cpu,cpuacct", dir)
                          ? v1_quota("/sys/fs/cgroup/cpu,cpuacct", dir)
                          : v1_quota("/sys/fs/cgroup/cpu", dir));
            char *slash;
            if (c > 0 && (best == 0 || c < best))
                best = c;
            if ((slash = strrchr(dir, '/')) == NULL || dir[1] == '\0')
                break;
            if (slash == dir)
                dir[1] = '\0'; /* then the root itself */
            else
                *slash = '\0';
        }
    }
    fclose(f);
    return best;
}
#endif

unsigned
bt__cpus_usable(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned n = online > 0 ? (unsigned)online : 1;
#ifdef __linux__
    cpu_set_t set;
    unsigned q;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int c = CPU_COUNT(&set);
        if (c > 0 && (unsigned)c < n)
            n = (unsigned)c;
    }
    if ((q = cgroup_cpus()) > 0 && q < n)
        n = q;
#endif
    return n > 0 ? n : 1;
}
