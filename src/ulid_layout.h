/*
 * ulid_layout.h
 *		The byte layout of a ULID and its value as a number.
 *
 * Pure C with no PostgreSQL dependency, so that the unit tests can include
 * it without a server.
 *
 * Bytes 0-5 hold the Unix time in milliseconds, big-endian; bytes 6-15 hold
 * the 80 random bits (74 in the UUIDv7 shape, below).  The whole is one
 * 128-bit big-endian integer, so memcmp() order is numeric order is time
 * order.
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
 * The UUIDv7 shape (RFC 9562) that gen_ulid_v7() and gen_monotonic_ulid_v7()
 * give a ULID: the version, 0111, in the high 4 bits of byte 6 and the
 * variant, 10, in the high 2 bits of byte 8.  The time is where UUIDv7 wants
 * it already; of the 80 random bits, 74 stay random: rand_a, the low 12 bits
 * of bytes 6-7, and rand_b, the low 62 bits of bytes 8-15.  The fixed bits
 * are the same in every such value, so these values compare among themselves
 * by time, then rand_a, then rand_b.
 */
#define ULID_V7_VERSION_BYTE	6
#define ULID_V7_VARIANT_BYTE	8

/* Write the version and variant bits into u, keeping every other bit. */
static inline void
ulid_set_v7_bits(uint8_t *u)
{
	u[ULID_V7_VERSION_BYTE] = (uint8_t) ((u[ULID_V7_VERSION_BYTE] & 0x0F) | 0x70);
	u[ULID_V7_VARIANT_BYTE] = (uint8_t) ((u[ULID_V7_VARIANT_BYTE] & 0x3F) | 0x80);
}

/*
 * The random bits of byte i (ULID_TIME_BYTES to ULID_LEN - 1) of a
 * UUIDv7-shaped ULID: the low bits, below the version or the variant.
 */
static inline uint8_t
ulid_v7_random_mask(int i)
{
	return i == ULID_V7_VERSION_BYTE ? 0x0F :
		i == ULID_V7_VARIANT_BYTE ? 0x3F : 0xFF;
}

/*
 * b - a as a double, for a <= b (BRIN minmax-multi's distance, and, given a
 * sign, ulidrange's subtype_diff), monotone in the exact 128-bit difference.
 * The subtraction is exact; converting the high and low words separately
 * keeps close values apart (rounding the two ULIDs to doubles first would put
 * ids of one millisecond 0 apart).  From 2^53 up the high word alone decides:
 * there the low word is less than half a unit in the last place, and
 * dropping it keeps the result monotone.
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
