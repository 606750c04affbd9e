/*
 * ulid_objectid.h
 *		A MongoDB ObjectId as a ULID, and back.
 *
 * Pure C with no PostgreSQL dependency, so that the unit tests can include
 * it without a server.
 *
 * An ObjectId is 12 bytes: a 4-byte big-endian Unix time in seconds, then 8
 * bytes (5 random per process and a 3-byte counter).  Its ULID has the time
 * in milliseconds, seconds * 1000, then the ObjectId's last 8 bytes, then
 * two zero bytes.  Both are big-endian and the time comes first in both, so
 * the mapping keeps byte order: ObjectIds made in one second keep their
 * order, and every ObjectId has one ULID of its own.
 */
#ifndef ULID_OBJECTID_H
#define ULID_OBJECTID_H

#include <stdint.h>
#include <stddef.h>

#include "ulid_layout.h"
#include "ulid_uuidtext.h"	/* ulid_hex_value() */

#define ULID_OBJECTID_LEN		12
#define ULID_OBJECTID_HEX_LEN	24
#define ULID_OBJECTID_SECS_MAX	UINT64_C(4294967295)	/* 2106-02-07 06:28:15 UTC */

/* Why a ULID is not the image of an ObjectId (ulid_objectid_shape()). */
typedef enum UlidObjectIdShape
{
	ULID_OBJECTID_OK,
	ULID_OBJECTID_FRACTION,		/* the time is not a whole second */
	ULID_OBJECTID_TOO_LATE,		/* after ULID_OBJECTID_SECS_MAX seconds */
	ULID_OBJECTID_TAIL			/* the last two bytes are not zero */
} UlidObjectIdShape;

/* The ULID u of the 12 bytes of an ObjectId. */
static inline void
ulid_from_objectid_bytes(const uint8_t *oid, uint8_t *u)
{
	uint64_t	secs = ((uint64_t) oid[0] << 24) | ((uint64_t) oid[1] << 16) |
		((uint64_t) oid[2] << 8) | (uint64_t) oid[3];
	int			i;

	ulid_set_time(u, secs * 1000);
	for (i = 0; i < 8; i++)
		u[ULID_TIME_BYTES + i] = oid[4 + i];
	u[14] = 0;
	u[15] = 0;
}

/* Whether u is the ULID of an ObjectId, and if not, the first reason why. */
static inline UlidObjectIdShape
ulid_objectid_shape(const uint8_t *u)
{
	uint64_t	ms = ulid_get_time(u);

	if (ms % 1000 != 0)
		return ULID_OBJECTID_FRACTION;
	if (ms / 1000 > ULID_OBJECTID_SECS_MAX)
		return ULID_OBJECTID_TOO_LATE;
	if (u[14] != 0 || u[15] != 0)
		return ULID_OBJECTID_TAIL;
	return ULID_OBJECTID_OK;
}

/* The ObjectId of u, which ulid_objectid_shape() found to be one. */
static inline void
ulid_to_objectid_bytes(const uint8_t *u, uint8_t *oid)
{
	uint64_t	secs = ulid_get_time(u) / 1000;
	int			i;

	oid[0] = (uint8_t) (secs >> 24);
	oid[1] = (uint8_t) (secs >> 16);
	oid[2] = (uint8_t) (secs >> 8);
	oid[3] = (uint8_t) secs;
	for (i = 0; i < 8; i++)
		oid[4 + i] = u[ULID_TIME_BYTES + i];
}

/*
 * Read the 24 hexadecimal digits at s into the 12 bytes of an ObjectId.
 * Returns -1, or the offset of the first byte that is not a digit (oid is
 * then incomplete).
 */
static inline int
ulid_objectid_parse_hex(const char *s, uint8_t *oid)
{
	int			i;

	for (i = 0; i < ULID_OBJECTID_HEX_LEN; i += 2)
	{
		int			hi = ulid_hex_value((unsigned char) s[i]);
		int			lo;

		if (hi < 0)
			return i;
		lo = ulid_hex_value((unsigned char) s[i + 1]);
		if (lo < 0)
			return i + 1;
		oid[i / 2] = (uint8_t) (hi << 4 | lo);
	}
	return -1;
}

/* The 24 lower-case digits of an ObjectId into out, which holds 25 bytes. */
static inline void
ulid_objectid_format_hex(const uint8_t *oid, char *out)
{
	static const char digits[] = "0123456789abcdef";
	int			i;

	for (i = 0; i < ULID_OBJECTID_LEN; i++)
	{
		out[2 * i] = digits[oid[i] >> 4];
		out[2 * i + 1] = digits[oid[i] & 15];
	}
	out[ULID_OBJECTID_HEX_LEN] = '\0';
}

#endif							/* ULID_OBJECTID_H */
