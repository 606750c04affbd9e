/*
 * ulid_abbrev.h
 *		The abbreviated sort key of a ULID where a Datum has 32 bits: wasm32
 *		(PGlite) and 32-bit servers before PostgreSQL 19.
 *
 * Where a Datum has 64 bits the key is the first 8 bytes (ulid.c).  Where it
 * has 32, the first 4 bytes are the top 32 bits of the 48-bit time, which
 * change once in 65.5 seconds: the ids of a minute, which is what a sort of
 * fresh ids holds, would all tie, and the sort would give up abbreviating.
 * So the key is instead the time relative to that of the first value the
 * sort abbreviates (the base), coded like a small float so that times near
 * the base keep every millisecond and far ones a coarser step:
 *
 *	d = time - base, in ms; a = |d|
 *	a < 2^20 (17.5 minutes): code = a << 10 | the next 10 bits of the ULID
 *	otherwise, e = the bit length of a - 20 (1 to 28):
 *	  code = 2^30 + (e - 1) * 2^19 + (a >> e) - 2^19, a step of 2^e ms
 *	key = 2^31 + code when d >= 0, 2^31 - 1 - code' when d < 0, where code'
 *	  is code with its 10 random bits inverted (a larger id of the same
 *	  millisecond is then a larger key on both sides).
 *
 * The key never decreases as the ULID increases, so a smaller key is a
 * smaller ULID, and equal ULIDs have equal keys: what an abbreviated key
 * must be (ties go to the full comparison).  A sort's runs are merged by the
 * full comparison, so keys made with different bases are never compared.
 */
#ifndef ULID_ABBREV_H
#define ULID_ABBREV_H

#include <stdint.h>

#include "ulid_layout.h"

#define ULID_ABBREV32_FINE_BITS	20	/* exact milliseconds: |d| < 2^20 */
#define ULID_ABBREV32_RANDOM_BITS	10

/* The magnitude code of a = |time - base| (see above), below 2^31. */
static inline uint32_t
ulid_abbrev32_code(uint64_t a, uint32_t random_bits)
{
	int			len = 0;

	if (a < ((uint64_t) 1 << ULID_ABBREV32_FINE_BITS))
		return (uint32_t) (a << ULID_ABBREV32_RANDOM_BITS) | random_bits;
	while ((a >> len) != 0)
		len++;
	len -= ULID_ABBREV32_FINE_BITS;		/* e: 1 to 28 for a below 2^48 */
	return ((uint32_t) 1 << 30) + ((uint32_t) (len - 1) << 19) +
		(uint32_t) (a >> len) - ((uint32_t) 1 << 19);
}

/* The 32-bit key of ULID u in a sort whose first value has time base_ms. */
static inline uint32_t
ulid_abbrev32(const uint8_t *u, uint64_t base_ms)
{
	uint64_t	t = ulid_get_time(u);
	uint32_t	random_bits = ((uint32_t) u[ULID_TIME_BYTES] << 2) |
		((uint32_t) u[ULID_TIME_BYTES + 1] >> 6);
	uint32_t	mask = ((uint32_t) 1 << ULID_ABBREV32_RANDOM_BITS) - 1;

	if (t >= base_ms)
		return ((uint32_t) 1 << 31) + ulid_abbrev32_code(t - base_ms, random_bits);
	return ((uint32_t) 1 << 31) - 1 - ulid_abbrev32_code(base_ms - t, mask ^ random_bits);
}

#endif							/* ULID_ABBREV_H */
