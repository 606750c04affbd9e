/*
 * ulid_gen.c
 *		The generators (gen_ulid(), gen_ulid_v7() and the monotonic ones),
 *		their shared memory when preloaded, and _PG_init.
 */
#include "postgres.h"

#include <sys/time.h>

/* Some of these reach headers with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#pragma GCC diagnostic pop

#include "ulid.h"
#include "ulid_monotonic.h"
#include "ulid_packed.h"
#include "ulid_random.h"

/*****************************************************************************
 *	Generators
 *
 *	gen_ulid() and gen_monotonic_ulid(), their UUIDv7-shaped twins
 *	gen_ulid_v7() and gen_monotonic_ulid_v7(), the random pool and the clock
 *	they share, and the shared memory that makes the monotonic ones
 *	cluster-wide when the library is preloaded.
 *****************************************************************************/

/* Random bytes for the generators; ulid_random.h says why a pool. */
static ulid_random_pool random_pool = ULID_RANDOM_POOL_INIT;

/*
 * Copy ULID_RANDOM_BYTES fresh random bytes to dst.  The pid check uses
 * MyProcPid, not getpid(): a system call per ULID would cost more than all
 * the rest of the work.
 */
static inline void
take_random(uint8 *dst)
{
	if (unlikely(!ulid_random_take(&random_pool, MyProcPid, pg_strong_random,
								   dst, ULID_RANDOM_BYTES)))
		ereport(ERROR,
				errcode(ERRCODE_INTERNAL_ERROR),
				errmsg("could not generate random values"));
}

/* The error of a system clock a ulid cannot hold; out of line, as it is cold. */
static pg_noinline void
clock_out_of_range(void)
{
	ereport(ERROR,
			errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			errmsg("system clock is outside the range of type ulid"),
			errdetail("A ulid holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC."),
			errhint("Check the server's system clock."));
}

/*
 * The current Unix time in milliseconds, for the generators.  Straight from
 * gettimeofday(), which PostgreSQL provides on every platform; going through
 * GetCurrentTimestamp() would convert to PostgreSQL's epoch and back on every
 * ULID.  A clock set before 1970 or after the year 10889 is an error, as the
 * same time given to gen_ulid(timestamptz) would be.
 */
static inline uint64
current_ulid_ms(void)
{
	struct timeval tp;
	uint64		ms;

	gettimeofday(&tp, NULL);
	/* the seconds are checked first, so that the multiplication cannot wrap */
	if (unlikely(tp.tv_sec < 0 || (uint64) tp.tv_sec > ULID_TIME_MAX / 1000))
		clock_out_of_range();
	ms = (uint64) tp.tv_sec * 1000 + (uint64) tp.tv_usec / 1000;
	if (unlikely(ms > ULID_TIME_MAX))
		clock_out_of_range();
	return ms;
}

/*
 * The millisecond of a new ULID: the current time, or the one given as the
 * first argument (the timestamptz forms of the generators).
 */
static inline uint64
new_ulid_ms(FunctionCallInfo fcinfo)
{
	return PG_NARGS() > 0 ?
		timestamptz_to_ulid_ms(PG_GETARG_TIMESTAMPTZ(0)) : current_ulid_ms();
}

/*
 * The last value of gen_ulid() or of gen_ulid_v7() in this process, for
 * ulid_packed.h's step; each shape has its own, so that each steps from its
 * own last value however calls interleave.  pid says whose it is: a process
 * forked after a call starts afresh.
 */
typedef struct PackedState
{
	pid_t		pid;
	uint8		last[ULID_LEN];
} PackedState;

static PackedState packed_state;
static PackedState packed_state_v7;

/*
 * The next value of gen_ulid() or gen_ulid_v7(), for the millisecond the
 * first argument gives or the clock's.  Inlined into each with v7 a constant.
 */
static inline Ulid *
packed_generate(FunctionCallInfo fcinfo, PackedState *state, bool v7)
{
	uint64		ms = new_ulid_ms(fcinfo);
	uint8		random[ULID_RANDOM_BYTES];
	Ulid	   *result = palloc(sizeof(Ulid));

	take_random(random);
	(void) ulid_packed_step(state->last, state->pid == MyProcPid, ms, random,
							result->data, v7);
	state->pid = MyProcPid;
	return result;
}

/*
 * A new ULID: gen_ulid() and gen_ulid(timestamptz).  Within one millisecond
 * the values of this process ascend (ulid_packed.h says why and exactly
 * how); the first of each millisecond is 80 random bits.
 */
PG_FUNCTION_INFO_V1(gen_ulid);
Datum
gen_ulid(PG_FUNCTION_ARGS)
{
	PG_RETURN_ULID_P(packed_generate(fcinfo, &packed_state, false));
}

/*
 * A new UUIDv7-shaped ULID (ulid_layout.h has the shape): gen_ulid_v7() and
 * gen_ulid_v7(timestamptz).  Its values ascend within a millisecond as
 * gen_ulid()'s do, counting in rand_a (ulid_packed.h).
 */
PG_FUNCTION_INFO_V1(gen_ulid_v7);
Datum
gen_ulid_v7(PG_FUNCTION_ARGS)
{
	PG_RETURN_ULID_P(packed_generate(fcinfo, &packed_state_v7, true));
}

/*
 * The last value gen_monotonic_ulid() or gen_monotonic_ulid_v7() returned,
 * in one scope or the other.
 *
 * Each of the two has a state of its own, in both scopes.  A shared one would
 * make each disturb the other: after a plain value whose random bits begin
 * above the version's 0111 (about half do), no UUIDv7-shaped value of that
 * millisecond is greater, so the v7 step would have to move to the next
 * millisecond, stamping values ahead of the clock on every interleaved call;
 * and after a v7 value the plain step would count up from it, its 80 random
 * bits no longer fresh but a v7 value's plus one.  Apart, each sequence is strictly
 * increasing on its own however calls interleave, and the two order against
 * each other by millisecond, as gen_ulid() values do.
 */
typedef struct MonotonicState
{
	bool		have_last;
	uint8		last[ULID_LEN];
} MonotonicState;

/*
 * With the library in shared_preload_libraries the state lives in shared
 * memory and is cluster-wide; otherwise each backend keeps its own.
 *
 * A spinlock guards the shared state.  The critical section is a compare
 * and a 16-byte increment or copy: a few dozen instructions with no call
 * that can fail, block or allocate, which is what spinlocks are for.  An
 * LWLock costs more even uncontended and sleeps where a waiter should spin;
 * atomics cannot update 128 bits at once.  The clock and the random bytes
 * are read before taking the lock.  A backend killed while holding it takes
 * the server through crash restart, which rebuilds shared memory, so the
 * lock cannot be left held.
 */
typedef struct SharedMonotonicState
{
	slock_t		mutex;
	MonotonicState state;
} SharedMonotonicState;

static SharedMonotonicState *shared_monotonic = NULL;
static SharedMonotonicState *shared_monotonic_v7 = NULL;
static MonotonicState backend_monotonic;
static MonotonicState backend_monotonic_v7;

static shmem_startup_hook_type prev_shmem_startup_hook = NULL;
static shmem_request_hook_type prev_shmem_request_hook = NULL;

#if PG_VERSION_NUM < 160000
extern PGDLLEXPORT void _PG_init(void);
#endif

/*
 * Reserve the shared states (from PostgreSQL 15 on, only this hook may).
 * Two structs, each its own allocation and spinlock, so that callers of one
 * generator never wait on callers of the other; ShmemInitStruct() puts each
 * on cache lines of its own.
 */
static void
ulid_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(add_size(CACHELINEALIGN(sizeof(SharedMonotonicState)),
									CACHELINEALIGN(sizeof(SharedMonotonicState))));
}

/* Create one shared state, or attach to it. */
static SharedMonotonicState *
shmem_init_monotonic(const char *name)
{
	bool		found;
	SharedMonotonicState *shared;

	shared = ShmemInitStruct(name, sizeof(SharedMonotonicState), &found);
	if (!found)
	{
		SpinLockInit(&shared->mutex);
		shared->state.have_last = false;
	}
	return shared;
}

/* Create the shared states, or attach to them; crash restart creates them anew. */
static void
ulid_shmem_startup(void)
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared_monotonic = shmem_init_monotonic("ulid monotonic state");
	shared_monotonic_v7 = shmem_init_monotonic("ulid monotonic v7 state");
	LWLockRelease(AddinShmemInitLock);
}

/*
 * At every load, the settings; only when preloaded, ask for the shared states
 * that make the monotonic generators cluster-wide.
 */
void
_PG_init(void)
{
	ulid_public_id_init();
	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = ulid_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = ulid_shmem_startup;
}

/* Advance state to the next monotonic value of its shape, written to out. */
static inline bool
monotonic_next(MonotonicState *state, uint64 now_ms, const uint8 *random,
			   uint8 *out, bool v7)
{
	bool		ok = ulid_monotonic_step_shaped(state->last, state->have_last,
												now_ms, random, out, v7);

	state->have_last = true;
	return ok;
}

/*
 * The next value of a monotonic generator: in shared, under its spinlock,
 * when preloaded, else in the backend's state.  Inlined into each caller
 * with v7 a constant, so each gets the step of its own shape.
 */
static inline Ulid *
monotonic_generate(SharedMonotonicState *shared, MonotonicState *backend,
				   bool v7)
{
	uint64		now_ms = current_ulid_ms();
	Ulid	   *result = palloc(sizeof(Ulid));
	uint8		random[ULID_RANDOM_BYTES];
	bool		ok;

	take_random(random);
	if (shared != NULL)
	{
		SpinLockAcquire(&shared->mutex);
		ok = monotonic_next(&shared->state, now_ms, random, result->data, v7);
		SpinLockRelease(&shared->mutex);
	}
	else
		ok = monotonic_next(backend, now_ms, random, result->data, v7);

	if (!ok)
		ereport(ERROR,
				errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
				errmsg("no ulid is greater than the last one generated"),
				v7 ?
				errdetail("The last UUIDv7-shaped ulid generated is the largest value of that shape.") :
				errdetail("The last ulid generated is the largest possible value."));
	return result;
}

/*
 * A new ULID strictly greater than every earlier one in its scope (the
 * cluster when preloaded, else this backend); ulid_monotonic_step() has the
 * rules.
 */
PG_FUNCTION_INFO_V1(gen_monotonic_ulid);
Datum
gen_monotonic_ulid(PG_FUNCTION_ARGS)
{
	(void) fcinfo;				/* takes no arguments */
	PG_RETURN_ULID_P(monotonic_generate(shared_monotonic, &backend_monotonic,
										false));
}

/*
 * A new UUIDv7-shaped ULID strictly greater than every earlier one of
 * gen_monotonic_ulid_v7() in its scope, which is gen_monotonic_ulid()'s;
 * ulid_monotonic_step_shaped() has the rules.
 */
PG_FUNCTION_INFO_V1(gen_monotonic_ulid_v7);
Datum
gen_monotonic_ulid_v7(PG_FUNCTION_ARGS)
{
	(void) fcinfo;				/* takes no arguments */
	PG_RETURN_ULID_P(monotonic_generate(shared_monotonic_v7,
										&backend_monotonic_v7, true));
}

/* 'cluster' or 'backend': where the monotonic generators keep their last values. */
PG_FUNCTION_INFO_V1(ulid_monotonic_scope);
Datum
ulid_monotonic_scope(PG_FUNCTION_ARGS)
{
	(void) fcinfo;				/* takes no arguments */
	PG_RETURN_TEXT_P(cstring_to_text(shared_monotonic != NULL ? "cluster" : "backend"));
}
