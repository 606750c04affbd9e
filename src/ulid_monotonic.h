/*
 * ulid_monotonic.h
 *		The monotonic step: the next ULID after the last one generated.
 *
 * Pure C with no PostgreSQL dependency, so that the unit tests can check
 * every branch of the step (same millisecond, clock behind, overflow of the
 * random part, the last representable millisecond) without a server.
 *
 * Two shapes share one step: plain ULIDs, counting over all 80 random bits
 * (gen_monotonic_ulid()), and UUIDv7-shaped ones, counting over the 74 bits
 * around the version and variant, which never change
 * (gen_monotonic_ulid_v7(); ulid_layout.h has the shape).
 */
#ifndef ULID_MONOTONIC_H
#define ULID_MONOTONIC_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ulid_layout.h"

/*
 * The next monotonic ULID after last, written to both next and last; v7
 * chooses the shape.
 *
 * have_last false (first call), or a clock ahead of last's millisecond: now_ms
 * with the fresh random bytes (v7: with the version and variant written over
 * 6 of their bits).  Same millisecond or a clock behind: last plus one over
 * the random bits (80, or v7's 74), keeping last's time, so a clock that
 * jumps back keeps producing increasing values stamped with the last time.
 * If the random bits are all ones, the increment would carry into the time:
 * move to last's millisecond plus one with fresh random bytes instead.
 *
 * Returns false, leaving last as it was, only when last is the largest value
 * of its shape (time ULID_TIME_MAX, random bits all ones): nothing greater
 * exists.  now_ms must be at most ULID_TIME_MAX; with v7, last (if
 * have_last) must have the shape, as every value this step made has.
 */
static inline bool
ulid_monotonic_step_shaped(uint8_t *last, bool have_last, uint64_t now_ms,
						   const uint8_t *random, uint8_t *next, bool v7)
{
	uint64_t	last_ms = have_last ? ulid_get_time(last) : 0;
	int			i;

	if (!have_last || now_ms > last_ms)
	{
		ulid_set_time(next, now_ms);
		memcpy(next + ULID_TIME_BYTES, random, ULID_RANDOM_BYTES);
		if (v7)
			ulid_set_v7_bits(next);
		memcpy(last, next, ULID_LEN);
		return true;
	}

	/*
	 * Add one to the random bits of bytes 15..6, carrying leftwards.  A
	 * byte's random bits are its low bits, so adding one to a byte whose
	 * random bits are not all ones stays inside them; all ones become zeros,
	 * the fixed bits above them kept, and carry on.
	 */
	memcpy(next, last, ULID_LEN);
	for (i = ULID_LEN - 1; i >= ULID_TIME_BYTES; i--)
	{
		uint8_t		mask = v7 ? ulid_v7_random_mask(i) : 0xFF;

		if ((next[i] & mask) != mask)
		{
			next[i]++;
			break;
		}
		next[i] &= (uint8_t) ~mask;
	}
	if (i < ULID_TIME_BYTES)
	{
		/* The random bits wrapped to zero: they were all ones. */
		if (last_ms == ULID_TIME_MAX)
		{
			memcpy(next, last, ULID_LEN);
			return false;
		}
		ulid_set_time(next, last_ms + 1);
		memcpy(next + ULID_TIME_BYTES, random, ULID_RANDOM_BYTES);
		if (v7)
			ulid_set_v7_bits(next);
	}
	memcpy(last, next, ULID_LEN);
	return true;
}

/* The step of gen_monotonic_ulid(): over all 80 random bits. */
static inline bool
ulid_monotonic_step(uint8_t *last, bool have_last, uint64_t now_ms,
					const uint8_t *random, uint8_t *next)
{
	return ulid_monotonic_step_shaped(last, have_last, now_ms, random, next,
									  false);
}

/*
 * The step of gen_monotonic_ulid_v7(): over the 74 random bits of the
 * UUIDv7 shape (rand_b's 62, carrying into rand_a's 12, carrying into the
 * next millisecond); every value it returns has the shape.
 */
static inline bool
ulid_monotonic_step_v7(uint8_t *last, bool have_last, uint64_t now_ms,
					   const uint8_t *random, uint8_t *next)
{
	return ulid_monotonic_step_shaped(last, have_last, now_ms, random, next,
									  true);
}

#endif							/* ULID_MONOTONIC_H */
