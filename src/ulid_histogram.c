/*
 * ulid_histogram.c
 *		The estimator's reading of a column: what a comparison clause means
 *		as a bound on the column, and that bound's selectivity from the
 *		column's most common values, histogram and index endpoints.
 */
#include "postgres.h"

/* Some of these reach headers with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "access/genam.h"
#include "access/relscan.h"
#include "access/table.h"
#include "commands/defrem.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_statistic.h"
#include "optimizer/paths.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
#pragma GCC diagnostic pop

#include "ulid.h"

/*
 * The comparison an operator makes, from its function's C symbol as the
 * planner support functions read it: the strategy as written (args[0] op
 * args[1]) and which argument is a time (-1: both are ulid or uuid).
 */
bool
ulid_comparison_of(Oid opno, StrategyNumber *strategy, int *time_arg)
{
	const char *symbol = ulid_function_symbol(get_opcode(opno));
	const char *op;

	if (symbol == NULL)
		return false;
	if (strncmp(symbol, "ulid_timestamptz_", 17) == 0)
	{
		*time_arg = 1;
		op = symbol + 17;
	}
	else if (strncmp(symbol, "timestamptz_ulid_", 17) == 0)
	{
		*time_arg = 0;
		op = symbol + 17;
	}
	else if (strncmp(symbol, "ulid_", 5) == 0)
	{
		*time_arg = -1;
		op = symbol + 5;
	}
	else
		return false;
	if (strcmp(op, "lt") == 0)
		*strategy = BTLessStrategyNumber;
	else if (strcmp(op, "le") == 0)
		*strategy = BTLessEqualStrategyNumber;
	else if (strcmp(op, "ge") == 0)
		*strategy = BTGreaterEqualStrategyNumber;
	else if (strcmp(op, "gt") == 0)
		*strategy = BTGreaterStrategyNumber;
	else
		return false;
	return true;
}

/*
 * The bound "var op other" puts on var, the argument var_arg of a comparison
 * of that strategy; other is the other argument, already estimated.  False
 * if var is the time.
 */
bool
ulid_make_bound(StrategyNumber strategy, int time_arg, int var_arg, Node *other,
		   UlidBound *b)
{
	Const	   *c;
	Ulid	   *u;

	if (var_arg == time_arg)
		return false;
	if (var_arg == 1)
		strategy = BTMaxStrategyNumber + 1 - strategy;	/* a < id is id > a */
	memset(b, 0, sizeof(UlidBound));
	b->is_lower = (strategy == BTGreaterStrategyNumber ||
				   strategy == BTGreaterEqualStrategyNumber);
	if (!IsA(other, Const))
		return true;
	c = (Const *) other;
	b->known = true;
	if (c->constisnull)
	{
		b->none = true;
		return true;
	}
	if (time_arg < 0)
	{
		memcpy(b->value.data, DatumGetUlidP(c->constvalue)->data, ULID_LEN);
		b->inclusive = (strategy == BTGreaterEqualStrategyNumber ||
						strategy == BTLessEqualStrategyNumber);
		return true;
	}
	if (b->is_lower)
		u = ulid_lower_bound_of_time(DatumGetTimestampTz(c->constvalue),
							 strategy == BTGreaterEqualStrategyNumber);
	else
		u = ulid_upper_bound_of_time(DatumGetTimestampTz(c->constvalue),
							 strategy == BTLessEqualStrategyNumber);
	if (u == NULL)
		b->none = true;
	else
		memcpy(b->value.data, u->data, ULID_LEN);
	b->inclusive = true;
	return true;
}

/* Whether the value v meets the bound b. */
static bool
bound_admits(const UlidBound *b, const Ulid *v)
{
	int			c = ulid_internal_cmp(v, &b->value);

	if (b->none)
		return false;
	if (c == 0)
		return b->inclusive;
	return b->is_lower ? c > 0 : c < 0;
}

/*
 * The smallest (or the largest) value of the column now, from the first
 * column of a btree index on it that sorts in byte order: the first entry
 * at that end, whether its row is visible or not (SnapshotAny, one descent,
 * however many dead entries precede it).  Rows made since ANALYZE lie past
 * the histogram's last bound, and "id > now() - interval '1 hour'" falls
 * there; core reads the index the same way for its own types
 * (get_actual_variable_range, which is not exported).
 */
static bool
index_endpoint(PlannerInfo *root, VariableStatData *vardata, bool largest, Ulid *result)
{
#ifdef __PGLITE__
	/* PGlite exports no index scan functions: no probe (src/ulid_pglite.c) */
	(void) root;
	(void) vardata;
	(void) largest;
	(void) result;
	return false;
#else
	RangeTblEntry *rte;
	ListCell   *lc;

	if (vardata->rel == NULL || vardata->rel->indexlist == NIL)
		return false;
	rte = root->simple_rte_array[vardata->rel->relid];
	if (rte->rtekind != RTE_RELATION || rte->inh)
		return false;
	foreach(lc, vardata->rel->indexlist)
	{
		IndexOptInfo *index = lfirst_node(IndexOptInfo, lc);
		Oid			opclass;
		Relation	heap;
		Relation	indexrel;
		IndexScanDesc scan;
		ScanKeyData key;
		bool		found = false;

		if (index->relam != BTREE_AM_OID || index->indpred != NIL ||
			index->hypothetical || !index->canreturn[0] ||
			!match_index_to_operand(vardata->var, 0, index))
			continue;
		opclass = GetDefaultOpClass(index->opcintype[0], BTREE_AM_OID);
		if (!OidIsValid(opclass) || get_opclass_family(opclass) != index->opfamily[0] ||
			get_typlen(index->opcintype[0]) != ULID_LEN)
			continue;

		heap = table_open(rte->relid, NoLock);
		indexrel = index_open(index->indexoid, NoLock);
		ScanKeyEntryInitialize(&key, SK_ISNULL | SK_SEARCHNOTNULL, 1, InvalidStrategy,
							   InvalidOid, InvalidOid, InvalidOid, (Datum) 0);
#if PG_VERSION_NUM >= 190000
		scan = index_beginscan(heap, indexrel, SnapshotAny, NULL, 1, 0, 0);
#elif PG_VERSION_NUM >= 180000
		scan = index_beginscan(heap, indexrel, SnapshotAny, NULL, 1, 0);
#else
		scan = index_beginscan(heap, indexrel, SnapshotAny, 1, 0);
#endif
		scan->xs_want_itup = true;
		index_rescan(scan, &key, 1, NULL, 0);
		if (index_getnext_tid(scan, largest != index->reverse_sort[0] ?
							  BackwardScanDirection : ForwardScanDirection) != NULL &&
			scan->xs_itup != NULL)
		{
			bool		isnull;
			Datum		value = index_getattr(scan->xs_itup, 1, scan->xs_itupdesc, &isnull);

			if (!isnull)
			{
				memcpy(result->data, DatumGetUlidP(value)->data, ULID_LEN);
				found = true;
			}
		}
		index_endscan(scan);
		index_close(indexrel, NoLock);
		table_close(heap, NoLock);
		if (found)
			return true;
	}
	return false;
#endif
}

/* index_endpoint(), remembered in stats. */
static bool
column_endpoint(PlannerInfo *root, VariableStatData *vardata, ColumnStats *stats,
				bool largest, Ulid *result)
{
	if (!stats->end_read[largest])
	{
		stats->end_found[largest] = index_endpoint(root, vardata, largest, &stats->end[largest]);
		stats->end_read[largest] = true;
	}
	if (stats->end_found[largest])
		*result = stats->end[largest];
	return stats->end_found[largest];
}

/* The 16-byte values of a statistics slot, copied into cxt. */
static Ulid *
slot_values(AttStatsSlot *sslot, MemoryContext cxt)
{
	Ulid	   *values = MemoryContextAlloc(cxt, sizeof(Ulid) * Max(sslot->nvalues, 1));

	for (int i = 0; i < sslot->nvalues; i++)
		values[i] = *DatumGetUlidP(sslot->values[i]);
	return values;
}

/* Read the column's statistics into stats, once. */
static void
read_column_stats(VariableStatData *vardata, ColumnStats *stats)
{
	AttStatsSlot sslot;

	if (stats->read)
		return;
	stats->read = true;
	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_MCV,
						 InvalidOid, ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
	{
		if (get_typlen(sslot.valuetype) == ULID_LEN)
		{
			stats->nmcv = sslot.nvalues;
			stats->mcv = slot_values(&sslot, stats->cxt);
			stats->mcv_freq = MemoryContextAlloc(stats->cxt, sizeof(float4) * Max(sslot.nnumbers, 1));
			memcpy(stats->mcv_freq, sslot.numbers, sizeof(float4) * sslot.nnumbers);
		}
		free_attstatsslot(&sslot);
	}
	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_HISTOGRAM,
						 InvalidOid, ATTSTATSSLOT_VALUES))
	{
		if (sslot.nvalues >= 2 && get_typlen(sslot.valuetype) == ULID_LEN)
		{
			stats->nhist = sslot.nvalues;
			stats->hist = slot_values(&sslot, stats->cxt);
		}
		free_attstatsslot(&sslot);
	}
}

/*
 * The fraction of the histogram's population below v.  The bounds divide
 * it into equally populated buckets; within its bucket v is placed by the
 * 128-bit value (its time, then its random bits), as core places a time.
 * In the first or last bucket, or beyond, that end of the histogram is
 * moved to the column's smallest or largest value now, if an index knows a
 * farther one, as core's ineq_histogram_selectivity does.
 */
static double
histogram_fraction_below(PlannerInfo *root, VariableStatData *vardata, ColumnStats *stats,
						 const Ulid *v)
{
	const Ulid *hist = stats->hist;
	int			n = stats->nhist;
	int			lo = 0;
	int			hi = n;
	const Ulid *first = &hist[0];
	const Ulid *last = &hist[n - 1];
	const Ulid *a;
	const Ulid *b;
	Ulid		actual_first;
	Ulid		actual_last;

	/* The first bound above v. */
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (ulid_internal_cmp(&hist[mid], v) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo <= 1 && column_endpoint(root, vardata, stats, false, &actual_first) &&
		ulid_internal_cmp(&actual_first, first) < 0)
	{
		first = &actual_first;
		if (lo == 0 && ulid_internal_cmp(v, first) >= 0)
			lo = 1;
	}
	if (lo >= n - 1 && column_endpoint(root, vardata, stats, true, &actual_last) &&
		ulid_internal_cmp(&actual_last, last) > 0)
	{
		last = &actual_last;
		if (lo == n && ulid_internal_cmp(v, last) < 0)
			lo = n - 1;
	}
	if (lo == 0)
		return 0.0;
	if (lo == n)
		return 1.0;
	a = (lo - 1 == 0) ? first : &hist[lo - 1];
	b = (lo == n - 1) ? last : &hist[lo];
	return (lo - 1 + ulid_distance(a->data, v->data) / ulid_distance(a->data, b->data)) /
		(n - 1);
}

/*
 * The selectivity of the known bound b alone (NULLs count in the whole),
 * from the column's statistics read as core's scalarineqsel reads them: the
 * most common values that meet it, then the histogram for the rest, half
 * of the rest without one.  False without statistics of 16-byte values, or
 * when core would not read them for this user with the operator's function
 * (statistic_proc_security_check: ours calls none, but says no more than
 * core would).
 */
bool
ulid_bound_selectivity(PlannerInfo *root, VariableStatData *vardata, ColumnStats *stats,
				  Oid opfunc, UlidBound *b)
{
	ColumnStats local;
	double		mcv_sel = 0.0;
	double		sumcommon = 0.0;
	double		below = 0.5;
	double		sel;

	if (!b->known || !HeapTupleIsValid(vardata->statsTuple) ||
		get_typlen(vardata->atttype) != ULID_LEN ||
		!statistic_proc_security_check(vardata, opfunc))
		return false;
	if (b->none)
	{
		b->sel = 0.0;
		return true;
	}
	if (stats == NULL)
	{
		memset(&local, 0, sizeof(local));
		local.cxt = CurrentMemoryContext;
		stats = &local;
	}
	read_column_stats(vardata, stats);
	for (int i = 0; i < stats->nmcv; i++)
	{
		if (bound_admits(b, &stats->mcv[i]))
			mcv_sel += stats->mcv_freq[i];
		sumcommon += stats->mcv_freq[i];
	}
	if (stats->nhist >= 2)
		below = histogram_fraction_below(root, vardata, stats, &b->value);
	sel = (1.0 - ((Form_pg_statistic) GETSTRUCT(vardata->statsTuple))->stanullfrac - sumcommon) *
		(b->is_lower ? 1.0 - below : below) + mcv_sel;
	CLAMP_PROBABILITY(sel);
	b->sel = sel;
	return true;
}

/* Core's estimator for a comparison of this strategy, for what ours cannot read. */
Selectivity
ulid_core_ineqsel(StrategyNumber strategy, PlannerInfo *root, Oid opno, List *args,
			 int varRelid, Oid collation)
{
	PGFunction	fn;

	switch (strategy)
	{
		case BTLessStrategyNumber:
			fn = scalarltsel;
			break;
		case BTLessEqualStrategyNumber:
			fn = scalarlesel;
			break;
		case BTGreaterEqualStrategyNumber:
			fn = scalargesel;
			break;
		default:
			fn = scalargtsel;
			break;
	}
	return DatumGetFloat8(DirectFunctionCall4Coll(fn, collation,
												  PointerGetDatum(root),
												  ObjectIdGetDatum(opno),
												  PointerGetDatum(args),
												  Int32GetDatum(varRelid)));
}

/*
 * The selectivity of a window, both ends' figures combined as core's
 * clauselist_selectivity combines a range pair: lo + hi - 1, plus the NULLs
 * both excluded; a default if either end is a default, a small positive
 * figure for an empty or very narrow one.
 */
Selectivity
ulid_window_selectivity(Selectivity lo, Selectivity hi, Selectivity nullfrac)
{
	Selectivity sel;

	if (lo == DEFAULT_INEQ_SEL || hi == DEFAULT_INEQ_SEL)
		return DEFAULT_RANGE_INEQ_SEL;
	sel = lo + hi - 1.0 + nullfrac;
	if (sel <= 0.0)
		sel = (sel < -0.01) ? DEFAULT_RANGE_INEQ_SEL : 1.0e-10;
	CLAMP_PROBABILITY(sel);
	return sel;
}
