/*
 * ulid_gist.c
 *		GiST support: keys are ranges of ulids; exclusion with <>, and the
 *		<-> ordering by time.
 */
#include "postgres.h"

#include <float.h>

/* Some of these reach headers with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "access/gist.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"
#pragma GCC diagnostic pop

#include "ulid.h"
#include "ulid_base32.h"

/*****************************************************************************
 *	GiST support
 *
 *	ulid_gist_ops, in the manner of contrib/btree_gist for fixed-size keys:
 *	each entry's key is the [lower, upper] pair of the ulids under it, a leaf
 *	holding [v, v].  The tree is then a B-tree whose pages may overlap, which
 *	is what an exclusion constraint needs next to a range column.
 *****************************************************************************/

typedef struct UlidGistKey
{
	Ulid		lower;
	Ulid		upper;
} UlidGistKey;

StaticAssertDecl(sizeof(UlidGistKey) == 2 * ULID_LEN,
				 "ulid_gist_key is INTERNALLENGTH 32 in the SQL script");

#define DatumGetUlidGistKeyP(X)	((UlidGistKey *) DatumGetPointer(X))

/* Strategy 6, <>, for exclusion constraints (btree_gist's number). */
#define ULID_GIST_NE_STRATEGY		6
/* Strategy 15, <->, the ordering operator (btree_gist's number). */
#define ULID_GIST_DISTANCE_STRATEGY	15

/* The key type has no text input: it exists only inside the index. */
PG_FUNCTION_INFO_V1(ulid_gist_key_in);
Datum
ulid_gist_key_in(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("cannot accept a value of type %s", "ulid_gist_key"),
			 errdetail("It is the key of the ulid GiST operator class, made only by the index.")));
	PG_RETURN_VOID();			/* keep the compiler quiet */
}

/* The two bounds, as "[lower,upper]" (gist_page_items() shows keys so). */
PG_FUNCTION_INFO_V1(ulid_gist_key_out);
Datum
ulid_gist_key_out(PG_FUNCTION_ARGS)
{
	UlidGistKey *key = DatumGetUlidGistKeyP(PG_GETARG_DATUM(0));
	char	   *result = palloc(2 * ULID_TEXT_LEN + 4);
	char	   *p = result;

	*p++ = '[';
	ulid_base32_encode(key->lower.data, p);
	p += ULID_TEXT_LEN;
	*p++ = ',';
	ulid_base32_encode(key->upper.data, p);
	p += ULID_TEXT_LEN;
	*p++ = ']';
	*p = '\0';
	PG_RETURN_CSTRING(result);
}

/* The <-> operator: the milliseconds between the times of two ulids. */
PG_FUNCTION_INFO_V1(ulid_dist);
Datum
ulid_dist(PG_FUNCTION_ARGS)
{
	uint64		a = ulid_get_time(PG_GETARG_ULID_P(0)->data);
	uint64		b = ulid_get_time(PG_GETARG_ULID_P(1)->data);

	PG_RETURN_FLOAT8((float8) (a > b ? a - b : b - a));
}

/*
 * GiST support function 1: can the subtree under this key hold a value v
 * with "v op query"?  On a leaf (lower = upper = v) the answer is exact, so
 * no recheck.
 */
PG_FUNCTION_INFO_V1(ulid_gist_consistent);
Datum
ulid_gist_consistent(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	Ulid	   *query = PG_GETARG_ULID_P(1);
	StrategyNumber strategy = (StrategyNumber) PG_GETARG_UINT16(2);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(4);
	UlidGistKey *key = DatumGetUlidGistKeyP(entry->key);
	bool		result;

	*recheck = false;
	switch (strategy)
	{
		case BTLessStrategyNumber:
			result = ulid_internal_cmp(&key->lower, query) < 0;
			break;
		case BTLessEqualStrategyNumber:
			result = ulid_internal_cmp(&key->lower, query) <= 0;
			break;
		case BTEqualStrategyNumber:
			result = ulid_internal_cmp(&key->lower, query) <= 0 &&
				ulid_internal_cmp(&key->upper, query) >= 0;
			break;
		case BTGreaterEqualStrategyNumber:
			result = ulid_internal_cmp(&key->upper, query) >= 0;
			break;
		case BTGreaterStrategyNumber:
			result = ulid_internal_cmp(&key->upper, query) > 0;
			break;
		case ULID_GIST_NE_STRATEGY:
			/* Only a subtree holding nothing but the query itself is out. */
			result = !(ulid_internal_cmp(&key->lower, query) == 0 &&
					   ulid_internal_cmp(&key->upper, query) == 0);
			break;
		default:
			elog(ERROR, "unrecognized strategy number: %d", strategy);
			result = false;		/* keep the compiler quiet */
	}
	PG_RETURN_BOOL(result);
}

/* GiST support function 2: the key covering every key of the vector. */
PG_FUNCTION_INFO_V1(ulid_gist_union);
Datum
ulid_gist_union(PG_FUNCTION_ARGS)
{
	GistEntryVector *entryvec = (GistEntryVector *) PG_GETARG_POINTER(0);
	int		   *size = (int *) PG_GETARG_POINTER(1);
	UlidGistKey *result = palloc(sizeof(UlidGistKey));

	*result = *DatumGetUlidGistKeyP(entryvec->vector[0].key);
	for (int i = 1; i < entryvec->n; i++)
	{
		UlidGistKey *key = DatumGetUlidGistKeyP(entryvec->vector[i].key);

		if (ulid_internal_cmp(&key->lower, &result->lower) < 0)
			result->lower = key->lower;
		if (ulid_internal_cmp(&key->upper, &result->upper) > 0)
			result->upper = key->upper;
	}
	*size = sizeof(UlidGistKey);
	PG_RETURN_POINTER(result);
}

/* GiST support function 3: a leaf's ulid v becomes the key [v, v]. */
PG_FUNCTION_INFO_V1(ulid_gist_compress);
Datum
ulid_gist_compress(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *result;
	UlidGistKey *key;

	if (!entry->leafkey)
		PG_RETURN_POINTER(entry);

	key = palloc(sizeof(UlidGistKey));
	key->lower = *DatumGetUlidP(entry->key);
	key->upper = key->lower;
	result = palloc(sizeof(GISTENTRY));
	gistentryinit(*result, PointerGetDatum(key), entry->rel, entry->page,
				  entry->offset, false);
	PG_RETURN_POINTER(result);
}

/*
 * GiST support function 5: the cost of adding a key under an entry, as
 * btree_gist gives it for numbers: how much the entry's range must grow,
 * relative to the grown range, in (0, 1], and 0 if it need not grow.  The
 * lengths are 128-bit differences as doubles (ulid_distance()), and a ratio
 * keeps the result inside a float4 whatever the values.
 */
PG_FUNCTION_INFO_V1(ulid_gist_penalty);
Datum
ulid_gist_penalty(PG_FUNCTION_ARGS)
{
	UlidGistKey *orig = DatumGetUlidGistKeyP(((GISTENTRY *) PG_GETARG_POINTER(0))->key);
	UlidGistKey *add = DatumGetUlidGistKeyP(((GISTENTRY *) PG_GETARG_POINTER(1))->key);
	float	   *penalty = (float *) PG_GETARG_POINTER(2);
	double		growth = 0.0;

	if (ulid_internal_cmp(&add->lower, &orig->lower) < 0)
		growth += ulid_distance(add->lower.data, orig->lower.data);
	if (ulid_internal_cmp(&add->upper, &orig->upper) > 0)
		growth += ulid_distance(orig->upper.data, add->upper.data);

	*penalty = 0.0f;
	if (growth > 0.0)
	{
		double		width = ulid_distance(orig->lower.data, orig->upper.data);

		/* FLT_MIN: any growth at all costs more than none. */
		*penalty = FLT_MIN + (float) (growth / (growth + width));
	}
	PG_RETURN_POINTER(penalty);
}

/* An entry of a page being split, for sorting. */
typedef struct UlidGistSortItem
{
	OffsetNumber offset;
	UlidGistKey *key;
} UlidGistSortItem;

/* Order by lower bound, then upper bound. */
static int
ulid_gist_sort_cmp(const void *a, const void *b)
{
	const UlidGistKey *ka = ((const UlidGistSortItem *) a)->key;
	const UlidGistKey *kb = ((const UlidGistSortItem *) b)->key;
	int			cmp = ulid_internal_cmp(&ka->lower, &kb->lower);

	return cmp != 0 ? cmp : ulid_internal_cmp(&ka->upper, &kb->upper);
}

/* Widen *into to cover key. */
static void
ulid_gist_extend(UlidGistKey *into, const UlidGistKey *key)
{
	if (ulid_internal_cmp(&key->lower, &into->lower) < 0)
		into->lower = key->lower;
	if (ulid_internal_cmp(&key->upper, &into->upper) > 0)
		into->upper = key->upper;
}

/*
 * GiST support function 6: split a full page in two.  One dimension, so the
 * split that keeps the halves apart is the sorted order cut in the middle:
 * the lower half left, the upper half right.
 */
PG_FUNCTION_INFO_V1(ulid_gist_picksplit);
Datum
ulid_gist_picksplit(PG_FUNCTION_ARGS)
{
	GistEntryVector *entryvec = (GistEntryVector *) PG_GETARG_POINTER(0);
	GIST_SPLITVEC *v = (GIST_SPLITVEC *) PG_GETARG_POINTER(1);
	OffsetNumber maxoff = entryvec->n - 1;
	int			nitems = maxoff - FirstOffsetNumber + 1;
	UlidGistSortItem *items = palloc(nitems * sizeof(UlidGistSortItem));
	UlidGistKey *left = palloc(sizeof(UlidGistKey));
	UlidGistKey *right = palloc(sizeof(UlidGistKey));

	for (OffsetNumber i = FirstOffsetNumber; i <= maxoff; i = OffsetNumberNext(i))
	{
		items[i - FirstOffsetNumber].offset = i;
		items[i - FirstOffsetNumber].key = DatumGetUlidGistKeyP(entryvec->vector[i].key);
	}
	qsort(items, nitems, sizeof(UlidGistSortItem), ulid_gist_sort_cmp);

	v->spl_left = palloc(nitems * sizeof(OffsetNumber));
	v->spl_right = palloc(nitems * sizeof(OffsetNumber));
	v->spl_nleft = 0;
	v->spl_nright = 0;
	*left = *items[0].key;
	*right = *items[nitems - 1].key;
	for (int i = 0; i < nitems; i++)
	{
		if (i < nitems / 2)
		{
			v->spl_left[v->spl_nleft++] = items[i].offset;
			ulid_gist_extend(left, items[i].key);
		}
		else
		{
			v->spl_right[v->spl_nright++] = items[i].offset;
			ulid_gist_extend(right, items[i].key);
		}
	}
	v->spl_ldatum = PointerGetDatum(left);
	v->spl_rdatum = PointerGetDatum(right);
	pfree(items);
	PG_RETURN_POINTER(v);
}

/* GiST support function 7: are two keys equal? */
PG_FUNCTION_INFO_V1(ulid_gist_same);
Datum
ulid_gist_same(PG_FUNCTION_ARGS)
{
	UlidGistKey *a = DatumGetUlidGistKeyP(PG_GETARG_DATUM(0));
	UlidGistKey *b = DatumGetUlidGistKeyP(PG_GETARG_DATUM(1));
	bool	   *result = (bool *) PG_GETARG_POINTER(2);

	*result = ulid_internal_cmp(&a->lower, &b->lower) == 0 &&
		ulid_internal_cmp(&a->upper, &b->upper) == 0;
	PG_RETURN_POINTER(result);
}

/*
 * GiST support function 8: the least <-> distance from the query to any
 * value under the key: 0 if the query's millisecond lies between the
 * bounds' milliseconds, else the gap to the nearer bound.  Exact on a leaf.
 */
PG_FUNCTION_INFO_V1(ulid_gist_distance);
Datum
ulid_gist_distance(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	uint64		t = ulid_get_time(PG_GETARG_ULID_P(1)->data);
	StrategyNumber strategy = (StrategyNumber) PG_GETARG_UINT16(2);
	UlidGistKey *key = DatumGetUlidGistKeyP(entry->key);
	uint64		lower = ulid_get_time(key->lower.data);
	uint64		upper = ulid_get_time(key->upper.data);

	if (strategy != ULID_GIST_DISTANCE_STRATEGY)
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	if (t < lower)
		PG_RETURN_FLOAT8((float8) (lower - t));
	if (t > upper)
		PG_RETURN_FLOAT8((float8) (t - upper));
	PG_RETURN_FLOAT8(0.0);
}

/* Sorted build: keys in the order of their lower, then upper bounds. */
static int
ulid_gist_key_cmp(Datum a, Datum b, SortSupport ssup)
{
	UlidGistKey *ka = DatumGetUlidGistKeyP(a);
	UlidGistKey *kb = DatumGetUlidGistKeyP(b);
	int			cmp = ulid_internal_cmp(&ka->lower, &kb->lower);

	(void) ssup;
	return cmp != 0 ? cmp : ulid_internal_cmp(&ka->upper, &kb->upper);
}

/*
 * GiST support function 11: CREATE INDEX sorts the leaf keys and packs the
 * pages bottom-up instead of inserting one key at a time: a faster build
 * and full pages, as a B-tree build gives.
 */
PG_FUNCTION_INFO_V1(ulid_gist_sortsupport);
Datum
ulid_gist_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = ulid_gist_key_cmp;
	PG_RETURN_VOID();
}

/* GiST support function 9: the ulid of a leaf key, for index-only scans. */
PG_FUNCTION_INFO_V1(ulid_gist_fetch);
Datum
ulid_gist_fetch(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *result = palloc(sizeof(GISTENTRY));
	Ulid	   *value = palloc(sizeof(Ulid));

	*value = DatumGetUlidGistKeyP(entry->key)->lower;
	gistentryinit(*result, PointerGetDatum(value), entry->rel, entry->page,
				  entry->offset, false);
	PG_RETURN_POINTER(result);
}
