/*
 * ulid_packed.h
 *		The step of gen_ulid() and gen_ulid_v7(): the values one process makes
 *		in one millisecond ascend, so that a primary key filled by either
 *		packs its index as a sequence's would, and sorts as fast as values
 *		drawn independently.
 *
 * Pure C with no PostgreSQL dependency, so that the unit tests can check each
 * branch of the step without a server.
 *
 * Why ascend: at bulk rates hundreds of ids share a millisecond.  Drawn
 * independently, they land at random among the rightmost leaf pages of the
 * index, which then split in the middle and stay half full: a 16M-row
 * primary key took 626 MB, against 481 MB in the order gen_monotonic_ulid()
 * makes.  Ascending within the millisecond, every insert goes to the right
 * edge and the splits leave full pages behind.
 *
 * How: the first value of a millisecond has fresh random bits, as always (80;
 * 73 in the UUIDv7 shape, whose counter starts in the lower half).  Each
 * later value of the same millisecond in the same process keeps the counter
 * of the one before plus one, and fresh random bits below it.  The counter
 * is the random bits within the first 8 bytes: bytes 6-7 (16 bits), or
 * rand_a (12 bits) in the UUIDv7 shape, which is RFC 9562's method 1 with a
 * randomly seeded counter.  Below it, 64 fresh bits (62 in rand_b) in every
 * value.
 *
 * Why the counter sits there: sorting compares first an abbreviated key, the
 * first 8 bytes (ulid_sortsupport in ulid.c; uuid's is the same).  Counting
 * in those bytes, every value of a millisecond has its own abbreviation and
 * a sort settles neighbours without the full comparison.  1.1's step, a
 * random increment from 1 to 2^63 in the whole 80 bits, changed them only
 * every fourth value, and shuffled ids of one millisecond sorted 1.3 to 1.4
 * times slower than independent ones (bench/workloads/sort_generated.sql).
 *
 * Nothing here waits for, follows or stretches the clock: every value
 * carries the millisecond it was made in.  When the counter is already at
 * its largest the value is fresh random bits instead, and the order starts
 * again from there: with n values a millisecond, in about n in 65,536
 * milliseconds; in the UUIDv7 shape, whose first value of a millisecond
 * starts its counter in the lower half (below), never below 2,049 values a
 * millisecond.  So ascending is what nearly always happens, not a promise;
 * gen_monotonic_ulid() is the promise.
 */
#ifndef ULID_PACKED_H
#define ULID_PACKED_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ulid_layout.h"

/*
 * The largest counter of each shape: bytes 6-7 of a ULID, or their low 12
 * bits (rand_a) below the UUIDv7 version.
 */
#define ULID_PACKED_COUNTER_MAX		0xFFFF
#define ULID_PACKED_COUNTER_MAX_V7	0x0FFF

/*
 * rand_a's top bit, in byte 6, clear in the first value of a millisecond of
 * the UUIDv7 shape: RFC 9562's counter rollover guard.  12 bits give a
 * random start little room (a thousand values a millisecond restarted in a
 * quarter of the milliseconds, and a bulk load's primary key came out 1.10
 * times gen_monotonic_ulid()'s); starting in the lower half leaves at least
 * 2,048 steps, at the price of one random bit in that first value.  The
 * plain shape's 16 bits restart rarely enough without it, and keep their 80.
 */
#define ULID_PACKED_GUARD_V7		0x08

/* The counter of u: bytes 6-7, masked to the shape's bits. */
static inline unsigned
ulid_packed_counter(const uint8_t *u, bool v7)
{
	unsigned	c = ((unsigned) u[6] << 8) | u[7];

	return v7 ? c & ULID_PACKED_COUNTER_MAX_V7 : c;
}

/*
 * The next value of gen_ulid() (v7 false) or gen_ulid_v7() (v7 true), for
 * the millisecond now_ms, written to both next and last.  random is
 * ULID_RANDOM_BYTES fresh random bytes; have_last says whether last holds
 * this process's previous value of the same shape.
 *
 * Same millisecond as last, and last's counter below its largest: last's
 * time and counter plus one, then random's last 8 bytes.  Otherwise (the
 * first value, another millisecond, whichever way the clock moved, or the
 * counter at its largest): now_ms and all of random, with rand_a's top bit
 * cleared in the UUIDv7 shape.  That shape's version and variant are then
 * written over their bits.  The time is always
 * now_ms.  Returns whether the counter was stepped (for the tests).
 */
static inline bool
ulid_packed_step(uint8_t *last, bool have_last, uint64_t now_ms,
				 const uint8_t *random, uint8_t *next, bool v7)
{
	bool		stepped = false;

	if (have_last && ulid_get_time(last) == now_ms)
	{
		unsigned	counter = ulid_packed_counter(last, v7);

		if (counter < (v7 ? ULID_PACKED_COUNTER_MAX_V7 : ULID_PACKED_COUNTER_MAX))
		{
			counter++;
			memcpy(next, last, ULID_TIME_BYTES);
			next[6] = (uint8_t) (counter >> 8);
			next[7] = (uint8_t) counter;
			memcpy(next + 8, random + 2, ULID_LEN - 8);
			stepped = true;
		}
	}
	if (!stepped)
	{
		ulid_set_time(next, now_ms);
		memcpy(next + ULID_TIME_BYTES, random, ULID_RANDOM_BYTES);
		if (v7)
			next[6] &= (uint8_t) ~ULID_PACKED_GUARD_V7;	/* rand_a's top bit */
	}
	if (v7)
		ulid_set_v7_bits(next);
	memcpy(last, next, ULID_LEN);
	return stepped;
}

#endif							/* ULID_PACKED_H */
