/*
 * ulid_uuidtext.h
 *		The text form of a UUID on input: 36 characters <-> 16 bytes.
 *
 * ulid_in accepts a UUID in its canonical 8-4-4-4-12 hyphenated form,
 * "550e8400-e29b-41d4-a716-446655440000", in any case, so that a uuid text
 * dump loads into a ulid column; the bytes are those of the uuid-to-ulid
 * cast.  Only that form: every other spelling (braces, no hyphens, a urn:uuid:
 * prefix, white space) is an error whose detail shows the canonical form,
 * which ulid_uuid_other_spelling() writes, or says how many digits are
 * missing or too many.
 *
 * Pure C with no PostgreSQL dependency, so that the unit tests and the
 * fuzzer can include it without a server.
 */
#ifndef ULID_UUIDTEXT_H
#define ULID_UUIDTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ulid_layout.h"

#define ULID_UUID_TEXT_LEN	36	/* characters of the canonical form */
#define ULID_UUID_DIGITS	32	/* hexadecimal digits of any form */

/* Value of a hexadecimal digit in either case, or -1. */
static inline int
ulid_hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Whether position i (0-based) of the canonical form holds a hyphen. */
static inline bool
ulid_uuid_hyphen_at(size_t i)
{
	return i == 8 || i == 13 || i == 18 || i == 23;
}

/*
 * Whether byte c may stand at position i (0-based) of the canonical form: a
 * hyphen at 8, 13, 18 and 23, a hexadecimal digit everywhere else.
 */
static inline bool
ulid_uuid_char_ok(size_t i, unsigned char c)
{
	return ulid_uuid_hyphen_at(i) ? c == '-' : ulid_hex_value(c) >= 0;
}

/*
 * Decode the len bytes at s into u if they are a UUID in the canonical form,
 * and return whether they were.  u is written only on success.
 */
static inline bool
ulid_uuid_decode(const char *s, size_t len, uint8_t *u)
{
	const unsigned char *p = (const unsigned char *) s;
	size_t		d = 0;			/* digits read */

	if (len != ULID_UUID_TEXT_LEN)
		return false;
	for (size_t i = 0; i < ULID_UUID_TEXT_LEN; i++)
		if (!ulid_uuid_char_ok(i, p[i]))
			return false;
	for (size_t i = 0; i < ULID_UUID_TEXT_LEN; i++)
	{
		if (ulid_uuid_hyphen_at(i))
			continue;
		if (d % 2 == 0)
			u[d / 2] = (uint8_t) (ulid_hex_value(p[i]) << 4);
		else
			u[d / 2] |= (uint8_t) ulid_hex_value(p[i]);
		d++;
	}
	return true;
}

/*
 * Whether the len bytes at s are a UUID written in another way than the
 * canonical form, and how many hexadecimal digits it has: a UUID, for this,
 * is hexadecimal digits with hyphens anywhere among them (core's uuid type
 * reads "a0eebc999c0b4ef8bb6d6bb9bd380a11" and
 * "a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11"), optionally in braces or after a
 * "urn:uuid:" prefix (either case), optionally with spaces, tabs or line
 * breaks around it; it must have 32 digits, or at least one digit and
 * braces or the prefix, or at least half a UUID's digits (16) and a hyphen,
 * which a ULID never has.  Fewer digits among hyphens ("1-2", a date) are
 * no UUID a reader was writing, and are not counted as one.  Return the number
 * of digits, or -1 if s is not such a UUID.  With 32 digits, also write the
 * canonical form in lower case, as uuid's output writes it, to canonical (36
 * bytes, no terminator).  The canonical form itself gives 32 as well: the
 * caller asks only after ulid_uuid_decode() has refused the string.
 */
static inline int
ulid_uuid_other_spelling(const char *s, size_t len, char *canonical)
{
	static const char urn[] = "urn:uuid:";
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *) s;
	const unsigned char *end = p + len;
	char		digits[ULID_UUID_DIGITS];
	int			ndigits = 0;
	bool		framed = false; /* braces or the prefix */
	bool		hyphen = false;

	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' ||
					   end[-1] == '\n' || end[-1] == '\r'))
		end--;
	if ((size_t) (end - p) >= sizeof(urn) - 1)
	{
		size_t		i;

		for (i = 0; i < sizeof(urn) - 1; i++)
		{
			unsigned char c = p[i];

			if (c >= 'A' && c <= 'Z')
				c = (unsigned char) (c - 'A' + 'a');
			if (c != (unsigned char) urn[i])
				break;
		}
		if (i == sizeof(urn) - 1)
		{
			p += i;
			framed = true;
		}
	}
	if (end - p >= 2 && *p == '{' && end[-1] == '}')
	{
		p++;
		end--;
		framed = true;
	}
	for (; p < end; p++)
	{
		int			v = ulid_hex_value(*p);

		if (v >= 0)
		{
			if (ndigits < ULID_UUID_DIGITS)
				digits[ndigits] = hex[v];
			ndigits++;
		}
		else if (*p == '-')
			hyphen = true;
		else
			return -1;
	}
	if (ndigits != ULID_UUID_DIGITS)
		return ((framed && ndigits > 0) ||
				(hyphen && ndigits >= ULID_UUID_DIGITS / 2)) ? ndigits : -1;

	for (size_t i = 0, d = 0; i < ULID_UUID_TEXT_LEN; i++)
		canonical[i] = ulid_uuid_hyphen_at(i) ? '-' : digits[d++];
	return ULID_UUID_DIGITS;
}

#endif							/* ULID_UUIDTEXT_H */
