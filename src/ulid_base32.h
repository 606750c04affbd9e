/*
 * ulid_base32.h
 *		Crockford Base32 text form of a ULID: 16 bytes <-> 26 characters.
 *
 * Pure C with no PostgreSQL dependency, so that the unit tests and the
 * fuzzer can include it without a server.
 *
 * The 26 characters hold 130 bits: two always-zero bits followed by the
 * 128-bit big-endian value.  Hence the first character carries only the top
 * three bits of byte 0 (it must be 0-7), the second its low five bits, and
 * the remaining 24 characters are three groups of 8 characters = 5 bytes.
 */
#ifndef ULID_BASE32_H
#define ULID_BASE32_H

#include <stddef.h>
#include <stdint.h>

#include "ulid_layout.h"

#define ULID_TEXT_LEN	26		/* characters */

/* The alphabet: digits and upper-case letters without I, L, O and U. */
static const char ulid_base32_alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/*
 * Value of each input byte, or -1.  Both cases are accepted, and Crockford's
 * aliases read I and L as 1 and O as 0; U and every non-ASCII byte are
 * invalid.  The unit tests rebuild this table from the rules above.
 */
static const int8_t ulid_base32_value[256] = {
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,
	-1, 10, 11, 12, 13, 14, 15, 16, 17, 1, 18, 19, 1, 20, 21, 0,
	22, 23, 24, 25, 26, -1, 27, 28, 29, 30, 31, -1, -1, -1, -1, -1,
	-1, 10, 11, 12, 13, 14, 15, 16, 17, 1, 18, 19, 1, 20, 21, 0,
	22, 23, 24, 25, 26, -1, 27, 28, 29, 30, 31, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
};

/* Why a string is not a ULID; ulid_base32_decode() returns one of these. */
typedef enum
{
	ULID_DECODE_OK = 0,
	ULID_DECODE_BAD_LENGTH,		/* not 26 bytes long */
	ULID_DECODE_BAD_CHAR,		/* a byte outside the alphabet */
	ULID_DECODE_OVERFLOW		/* first character above 7: more than 128 bits */
} ulid_decode_status;

/* Write the 26 canonical (upper-case) characters of u to out; no terminator. */
static inline void
ulid_base32_encode(const uint8_t *u, char *out)
{
	out[0] = ulid_base32_alphabet[u[0] >> 5];
	out[1] = ulid_base32_alphabet[u[0] & 31];
	for (int g = 0; g < 3; g++)
	{
		const uint8_t *b = u + 1 + 5 * g;
		uint64_t	v = ((uint64_t) b[0] << 32) | ((uint64_t) b[1] << 24) |
			((uint64_t) b[2] << 16) | ((uint64_t) b[3] << 8) | b[4];
		char	   *o = out + 2 + 8 * g;

		for (int i = 7; i >= 0; i--)
		{
			o[i] = ulid_base32_alphabet[v & 31];
			v >>= 5;
		}
	}
}

/*
 * Decode the len bytes at s into u.  Length is checked first, then every
 * character, then the 128-bit range.  Callers that want to say which
 * character is wrong look for it themselves: this is the hot path.
 */
static inline ulid_decode_status
ulid_base32_decode(const char *s, size_t len, uint8_t *u)
{
	const unsigned char *p = (const unsigned char *) s;
	int			acc = 0;		/* OR of all values: negative if any is -1 */

	if (len != ULID_TEXT_LEN)
		return ULID_DECODE_BAD_LENGTH;
	for (int i = 0; i < ULID_TEXT_LEN; i++)
		acc |= ulid_base32_value[p[i]];
	if (acc < 0)
		return ULID_DECODE_BAD_CHAR;
	if (ulid_base32_value[p[0]] > 7)
		return ULID_DECODE_OVERFLOW;

	u[0] = (uint8_t) ((ulid_base32_value[p[0]] << 5) | ulid_base32_value[p[1]]);
	for (int g = 0; g < 3; g++)
	{
		const unsigned char *c = p + 2 + 8 * g;
		uint64_t	v = 0;
		uint8_t    *b = u + 1 + 5 * g;

		for (int i = 0; i < 8; i++)
			v = (v << 5) | (uint64_t) ulid_base32_value[c[i]];
		b[0] = (uint8_t) (v >> 32);
		b[1] = (uint8_t) (v >> 24);
		b[2] = (uint8_t) (v >> 16);
		b[3] = (uint8_t) (v >> 8);
		b[4] = (uint8_t) v;
	}
	return ULID_DECODE_OK;
}

#endif							/* ULID_BASE32_H */
