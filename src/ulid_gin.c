/*
 * ulid_gin.c
 *		GIN support: one key per row, the ulid itself, with range queries
 *		by partial match.
 */
#include "postgres.h"

/* Some of these reach headers with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "access/gin.h"
#pragma GCC diagnostic pop

#include "ulid.h"

/*****************************************************************************
 *	GIN support
 *
 *	One key per row, the ulid itself, the way contrib/btree_gin indexes a
 *	scalar, so that a ulid column can sit in a multi-column GIN index beside
 *	arrays, jsonb or tsvector.  Equality is an exact match; a range operator
 *	is a partial match that walks the sorted keys from where the range
 *	starts (the smallest ULID for < and <=, the bound for >= and >) until
 *	comparePartial says it is over.  The same functions serve the (ulid,
 *	uuid) operators: a uuid query holds the same 16 bytes, in the same order.
 *****************************************************************************/

/* A range query, for comparePartial: its strategy and its bound. */
typedef struct UlidGinQuery
{
	StrategyNumber strategy;
	Ulid		bound;
} UlidGinQuery;

/* The smallest ULID, where a scan for < or <= starts. */
static const Ulid ulid_gin_smallest = {{0}};

/* GIN support function 2: the one key of a row is its value. */
PG_FUNCTION_INFO_V1(ulid_gin_extract_value);
Datum
ulid_gin_extract_value(PG_FUNCTION_ARGS)
{
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	Datum	   *entries = palloc(sizeof(Datum));

	entries[0] = PG_GETARG_DATUM(0);
	*nentries = 1;
	PG_RETURN_POINTER(entries);
}

/*
 * GIN support function 3: the one key a query looks for, or where its partial
 * match starts.  The query is a ulid or a uuid; only its bytes are read.
 */
PG_FUNCTION_INFO_V1(ulid_gin_extract_query);
Datum
ulid_gin_extract_query(PG_FUNCTION_ARGS)
{
	const Ulid *query = PG_GETARG_ULID_P(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	bool	  **partialmatch = (bool **) PG_GETARG_POINTER(3);
	Pointer   **extra_data = (Pointer **) PG_GETARG_POINTER(4);
	UlidGinQuery *q = palloc(sizeof(UlidGinQuery));
	Ulid	   *start = palloc(sizeof(Ulid));
	Datum	   *entries = palloc(sizeof(Datum));

	q->strategy = strategy;
	memcpy(q->bound.data, query->data, ULID_LEN);

	*partialmatch = palloc(sizeof(bool));
	switch (strategy)
	{
		case BTLessStrategyNumber:
		case BTLessEqualStrategyNumber:
			*start = ulid_gin_smallest;
			(*partialmatch)[0] = true;
			break;
		case BTEqualStrategyNumber:
			*start = q->bound;
			(*partialmatch)[0] = false;
			break;
		case BTGreaterEqualStrategyNumber:
		case BTGreaterStrategyNumber:
			*start = q->bound;
			(*partialmatch)[0] = true;
			break;
		default:
			elog(ERROR, "unrecognized strategy number: %d", strategy);
	}

	*extra_data = palloc(sizeof(Pointer));
	(*extra_data)[0] = (Pointer) q;
	entries[0] = PointerGetDatum(start);
	*nentries = 1;
	PG_RETURN_POINTER(entries);
}

/*
 * GIN support function 4: a query has one key and a row one value, so a row
 * matches exactly when it has the key, and needs no recheck.
 */
PG_FUNCTION_INFO_V1(ulid_gin_consistent);
Datum
ulid_gin_consistent(PG_FUNCTION_ARGS)
{
	bool	   *check = (bool *) PG_GETARG_POINTER(0);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(5);

	*recheck = false;
	PG_RETURN_BOOL(check[0]);
}

/*
 * GIN support function 5: whether an index key, met on the walk from the
 * partial match's start, is in the range (0), is not but later keys may be
 * (-1), or ends the walk (1).
 */
PG_FUNCTION_INFO_V1(ulid_gin_compare_partial);
Datum
ulid_gin_compare_partial(PG_FUNCTION_ARGS)
{
	const Ulid *key = PG_GETARG_ULID_P(1);
	const UlidGinQuery *q = (const UlidGinQuery *) PG_GETARG_POINTER(3);
	int			cmp = ulid_internal_cmp(key, &q->bound);

	switch (q->strategy)
	{
		case BTLessStrategyNumber:
			PG_RETURN_INT32(cmp < 0 ? 0 : 1);
		case BTLessEqualStrategyNumber:
			PG_RETURN_INT32(cmp <= 0 ? 0 : 1);
		case BTGreaterEqualStrategyNumber:
			PG_RETURN_INT32(cmp >= 0 ? 0 : -1);
		case BTGreaterStrategyNumber:
			PG_RETURN_INT32(cmp > 0 ? 0 : -1);
		default:
			elog(ERROR, "unrecognized strategy number: %d", q->strategy);
	}
	PG_RETURN_INT32(1);			/* not reached */
}
