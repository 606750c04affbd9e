/*
 * ulid_monotonic.h
 *		The monotonic step: the next ULID after the last one generated.
 *
 * Pure C with no PostgreSQL dependency, so that the unit tests can check
 * every branch of the step (same millisecond, clock behind, 80-bit overflow,
 * the last representable millisecond) without a server.
 */
#ifndef ULID_MONOTONIC_H
#define ULID_MONOTONIC_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ulid_layout.h"

/*
 * The next monotonic ULID after last, written to both next and last.
 *
 * have_last false (first call), or a clock ahead of last's millisecond: now_ms
 * with the fresh random bytes.  Same millisecond or a clock behind: last plus
 * one over the 80-bit random part, keeping last's time, so a clock that jumps
 * back keeps producing increasing values stamped with the last time.  If the
 * random part is all ones, the increment would carry into the time: move to
 * last's millisecond plus one with fresh random bytes instead.
 *
 * Returns false, leaving last as it was, only when last is the largest ULID of all
 * (time ULID_TIME_MAX, random part all ones): nothing greater exists.
 * now_ms must be at most ULID_TIME_MAX.
 */
static inline bool
ulid_monotonic_step(uint8_t *last, bool have_last, uint64_t now_ms,
					const uint8_t *random, uint8_t *next)
{
	uint64_t	last_ms = have_last ? ulid_get_time(last) : 0;
	int			i;

	if (!have_last || now_ms > last_ms)
	{
		ulid_set_time(next, now_ms);
		memcpy(next + ULID_TIME_BYTES, random, ULID_RANDOM_BYTES);
		memcpy(last, next, ULID_LEN);
		return true;
	}

	/* Add one to bytes 15..6, carrying leftwards. */
	memcpy(next, last, ULID_LEN);
	for (i = ULID_LEN - 1; i >= ULID_TIME_BYTES; i--)
	{
		if (++next[i] != 0)
			break;
	}
	if (i < ULID_TIME_BYTES)
	{
		/* The random part wrapped to zero: it was all ones. */
		if (last_ms == ULID_TIME_MAX)
		{
			memcpy(next, last, ULID_LEN);
			return false;
		}
		ulid_set_time(next, last_ms + 1);
		memcpy(next + ULID_TIME_BYTES, random, ULID_RANDOM_BYTES);
	}
	memcpy(last, next, ULID_LEN);
	return true;
}

#endif							/* ULID_MONOTONIC_H */
