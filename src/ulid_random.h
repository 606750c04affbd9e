/*
 * ulid_random.h
 *		A per-process pool of random bytes for the generators.
 *
 * Pure C with no PostgreSQL dependency: the caller passes its process id and
 * the function that fills the pool (pg_strong_random() in the server), so the
 * unit tests can check the refill rules with a fake source and fake pids.
 *
 * Fetching 10 bytes from a strong source per ULID costs as much as
 * gen_random_uuid(): each pg_strong_random() call has a fixed cost of some
 * 8,500 instructions, plus, with OpenSSL 3, a getpid() system call for its
 * own fork check, which is slow under some hypervisors.  Fetching them 1,600
 * ULIDs at a time makes that cost vanish (the callgrind and perf figures
 * are in the git history of BENCHMARKS.md).  The pool belongs to the
 * process that filled it: a process that inherited it through fork() (a
 * library preloaded into the postmaster) must not hand out the same bytes
 * as its parent or its siblings, so a pid other than the owner's forces a
 * refill.
 */
#ifndef ULID_RANDOM_H
#define ULID_RANDOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ULID_RANDOM_POOL_SIZE	16000	/* 1,600 ULIDs' worth of 10 bytes */

typedef struct ulid_random_pool
{
	uint8_t		buf[ULID_RANDOM_POOL_SIZE];
	int			pos;			/* next unused byte; SIZE when empty */
	long		owner;			/* pid that filled buf; 0 before the first fill */
} ulid_random_pool;

#define ULID_RANDOM_POOL_INIT	{{0}, ULID_RANDOM_POOL_SIZE, 0}

/* Fills buf with len strong random bytes; false on failure. */
typedef bool (*ulid_random_fill) (void *buf, size_t len);

/*
 * Copy n (at most 10) fresh bytes to dst, refilling the pool first when it
 * is used up or was filled by another process.  Returns false, leaving the
 * pool as it was, only if the fill fails: there is no weaker fallback.
 */
static inline bool
ulid_random_take(ulid_random_pool *pool, long pid, ulid_random_fill fill,
				 uint8_t *dst, int n)
{
	if (pool->pos > ULID_RANDOM_POOL_SIZE - n || pool->owner != pid)
	{
		if (!fill(pool->buf, ULID_RANDOM_POOL_SIZE))
			return false;
		pool->pos = 0;
		pool->owner = pid;
	}
	memcpy(dst, pool->buf + pool->pos, n);
	pool->pos += n;
	return true;
}

#endif							/* ULID_RANDOM_H */
