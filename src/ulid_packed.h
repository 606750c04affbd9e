/*
 * ulid_packed.h
 *		gen_ulid()'s step: the values one process makes in one millisecond
 *		ascend, so that a primary key filled by gen_ulid() packs its index as
 *		a sequence's would.
 *
 * Pure C with no PostgreSQL dependency, so that the unit tests can check each
 * branch of the step without a server.
 *
 * Why: at bulk rates hundreds of ids share a millisecond.  Drawn
 * independently, they land at random among the rightmost leaf pages of the
 * index, which then split in the middle and stay half full: a 16M-row
 * primary key took 626 MB, against 481 MB in the order gen_monotonic_ulid()
 * makes.  Ascending within the millisecond, every insert goes to the right
 * edge and the splits leave full pages behind.
 *
 * How: the first value of a millisecond has 80 fresh random bits, as always.
 * Each later value of the same millisecond in the same process is the one
 * before plus a fresh random increment from 1 to 2^63.  Unlike
 * gen_monotonic_ulid(), nothing here waits for, follows or stretches the
 * clock: every value carries the millisecond it was made in, and when the
 * increment would carry past the 80 bits (rarely: at a thousand values a
 * millisecond, about once in 260,000 values) the value is fresh random bits
 * instead, and the order starts again from there.  So ascending is what
 * nearly always happens, not a promise; gen_monotonic_ulid() is the promise.
 */
#ifndef ULID_PACKED_H
#define ULID_PACKED_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ulid_layout.h"

/*
 * The increment drawn from the first 8 of the fresh random bytes: 1 to 2^63,
 * so never zero (values stay distinct) and 63 bits of it unknown to anyone
 * who has seen the value before.
 */
static inline uint64_t
ulid_packed_increment(const uint8_t *random)
{
	uint64_t	r = 0;

	for (int i = 0; i < 8; i++)
		r = (r << 8) | random[i];
	return (r >> 1) + 1;
}

/*
 * The next gen_ulid() value, for the millisecond now_ms, written to both
 * next and last.  random is ULID_RANDOM_BYTES fresh random bytes; have_last
 * says whether last holds this process's previous value.
 *
 * Same millisecond as last: last's 80 random bits plus the increment, unless
 * that carries out of them.  Otherwise (the first value, another
 * millisecond, whichever way the clock moved, or the carry): now_ms and the
 * fresh bytes.  The time is always now_ms.  Returns whether the value is
 * last's plus an increment (for the tests).
 */
static inline bool
ulid_packed_step(uint8_t *last, bool have_last, uint64_t now_ms,
				 const uint8_t *random, uint8_t *next)
{
	if (have_last && ulid_get_time(last) == now_ms)
	{
		uint64_t	lo = 0;
		uint64_t	sum;
		unsigned	hi = ((unsigned) last[6] << 8) | last[7];

		for (int i = 8; i < ULID_LEN; i++)
			lo = (lo << 8) | last[i];
		sum = lo + ulid_packed_increment(random);
		if (sum < lo)			/* the low 64 bits wrapped: carry */
			hi++;
		if (hi <= 0xFFFF)
		{
			memcpy(next, last, ULID_TIME_BYTES);
			next[6] = (uint8_t) (hi >> 8);
			next[7] = (uint8_t) hi;
			for (int i = ULID_LEN - 1; i >= 8; i--, sum >>= 8)
				next[i] = (uint8_t) sum;
			memcpy(last, next, ULID_LEN);
			return true;
		}
	}
	ulid_set_time(next, now_ms);
	memcpy(next + ULID_TIME_BYTES, random, ULID_RANDOM_BYTES);
	memcpy(last, next, ULID_LEN);
	return false;
}

#endif							/* ULID_PACKED_H */
