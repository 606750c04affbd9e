/*
 * ulid_layout.h
 *		The byte layout of a ULID and its value as a number.
 *
 * Pure C with no PostgreSQL dependency, so that the unit tests can include
 * it without a server.
 *
 * Bytes 0-5 hold the Unix time in milliseconds, big-endian; bytes 6-15 hold
 * the 80 random bits.  The whole is one 128-bit big-endian integer, so
 * memcmp() order is numeric order is time order.
 */
#ifndef ULID_LAYOUT_H
#define ULID_LAYOUT_H

#include <stdint.h>

#define ULID_LEN			16
#define ULID_TIME_BYTES		6
#define ULID_RANDOM_BYTES	10
#define ULID_TIME_MAX		((((uint64_t) 1) << 48) - 1)	/* 10889-08-02 05:31:50.655 UTC */

/* The millisecond timestamp stored in the first 6 bytes of u. */
static inline uint64_t
ulid_get_time(const uint8_t *u)
{
	return ((uint64_t) u[0] << 40) | ((uint64_t) u[1] << 32) |
		((uint64_t) u[2] << 24) | ((uint64_t) u[3] << 16) |
		((uint64_t) u[4] << 8) | (uint64_t) u[5];
}

/* Store ms (at most ULID_TIME_MAX) in the first 6 bytes of u. */
static inline void
ulid_set_time(uint8_t *u, uint64_t ms)
{
	u[0] = (uint8_t) (ms >> 40);
	u[1] = (uint8_t) (ms >> 32);
	u[2] = (uint8_t) (ms >> 24);
	u[3] = (uint8_t) (ms >> 16);
	u[4] = (uint8_t) (ms >> 8);
	u[5] = (uint8_t) ms;
}

/*
 * b - a as a double, for a <= b (BRIN minmax-multi's distance), monotone in
 * the exact 128-bit difference.  The subtraction is exact; converting the
 * high and low words separately keeps close values apart (rounding the two
 * ULIDs to doubles first would put ids of one millisecond 0 apart).  From
 * 2^53 up the high word alone decides: there the low word is less than half
 * a unit in the last place, and dropping it keeps the result monotone.
 */
static inline double
ulid_distance(const uint8_t *a, const uint8_t *b)
{
	uint64_t	ah = 0,
				al = 0,
				bh = 0,
				bl = 0,
				hi,
				lo;

	for (int i = 0; i < 8; i++)
	{
		ah = (ah << 8) | a[i];
		al = (al << 8) | a[i + 8];
		bh = (bh << 8) | b[i];
		bl = (bl << 8) | b[i + 8];
	}
	lo = bl - al;
	hi = bh - ah - (bl < al);
	if (hi >= ((uint64_t) 1 << 53))
		return (double) hi * 18446744073709551616.0;
	return (double) hi * 18446744073709551616.0 + (double) lo;
}

#endif							/* ULID_LAYOUT_H */
