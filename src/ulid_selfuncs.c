/*
 * ulid_selfuncs.c
 *		Restriction selectivity of the ulid comparisons and of id <@ r: each
 *		window on a column is paired from the relation's clauses, which are
 *		read once per planning.
 */
#include "postgres.h"

/* Some of these reach headers with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "catalog/pg_type_d.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#pragma GCC diagnostic pop

#include "ulid.h"

/*****************************************************************************
 *	Estimates
 *
 *	Core's scalarltsel family finds a constant's bucket in the column's
 *	histogram, but for a type it does not know it places the constant in
 *	the middle of that bucket (convert_to_scalar), and it pairs "id >= a AND
 *	id < b" into one range only when both estimators are its own
 *	(clausesel.c).  A one-hour window inside a bucket of a month's history
 *	then comes out at one row.  ulid_ineqsel, the estimator of every ulid
 *	comparison (with a ulid, a uuid or a time), interpolates within the
 *	bucket by the 128-bit value, and finds the other end of a window among
 *	the relation's restriction clauses, so that the two estimates multiply
 *	to the window's: the more selective end gives its own figure, the other
 *	the window's divided by it.  The window's figure is combined as core
 *	combines a range pair, over these better per-end figures.
 *****************************************************************************/

/* node without the binary-compatible casts above it (uuid_col::ulid). */
static Node *
strip_relabel(Node *node)
{
	while (node && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	return node;
}

/*
 * One bound on the column among the relation's restriction clauses: from an
 * operator clause (args) estimated by ulid_ineqsel, or one end of an
 * "id <@ r" with a constant r (range > 0 numbers that clause, args NULL).
 * Its selectivity is read when first needed (sel_known), with the
 * operator's function (opfunc) for the statistics' security check and,
 * where our reading of the statistics does not apply, core's estimator for
 * the operator (opno, strategy, collation).
 */
typedef struct BoundClause
{
	List	   *args;
	int			range;
	int			group;
	int			seq;			/* its place among all the bounds, in group order */
	Oid			opno;
	Oid			opfunc;
	StrategyNumber strategy;
	Oid			collation;
	bool		sel_known;
	UlidBound	bound;
} BoundClause;

/*
 * Every bound that the restriction clauses of one relation put on one of
 * its columns, found once per planning: each conjunction the planner
 * estimates on its own (a group: and_lists()), the bounds in it, and two
 * sorted indexes over them, by the clause (args) and by the bound, each
 * sorted then by seq so that a search finds the first in group order.
 * Without it each of the 2N clauses of N OR-ed windows searched all N
 * groups, and planning grew with N squared.  The column's statistics and
 * the smallest and largest values an index gives are read once too.  Valid
 * for this root, rel, varRelid and column while the rel's restriction
 * clauses are the same list of the same length.
 */
typedef struct ColumnBounds
{
	PlannerInfo *root;
	RelOptInfo *rel;
	List	   *restrictinfo;
	int			nrestrict;
	int			varRelid;
	Node	   *column;
	List	  **groups;			/* of BoundClause */
	BoundClause **by_args;		/* those with args, by args then seq */
	int			nby_args;
	BoundClause **by_value;		/* those known, by bound_key_cmp() then seq */
	int			nby_value;
	ColumnStats stats;
} ColumnBounds;

/*
 * Every list of clauses that the planner estimates as a conjunction on the
 * relation: its restriction clauses, and each AND arm of an OR among them,
 * at any depth.  Core pairs the ends of a window within each such list.
 */
static void
and_lists(List *clauses, List **lists)
{
	ListCell   *lc;

	*lists = lappend(*lists, clauses);
	foreach(lc, clauses)
	{
		Node	   *node = (Node *) lfirst(lc);
		ListCell   *arm;

		if (IsA(node, RestrictInfo))
			node = (Node *) ((RestrictInfo *) node)->orclause;
		if (node == NULL || !is_orclause(node))
			continue;
		foreach(arm, ((BoolExpr *) node)->args)
		{
			if (is_andclause(lfirst(arm)))
				and_lists(((BoolExpr *) lfirst(arm))->args, lists);
		}
	}
}

/*
 * The ColumnBounds of the plannings going on, one list a memory context: the
 * context of the PlannerInfo they point into (planner_cxt), which a query
 * planned inside a planning (a function that estimation runs) may not share.
 * A reset or deletion of that context unlinks its list (column_bounds_forget)
 * before any address an entry compares with can be reused.
 */
typedef struct ColumnBoundsCache
{
	MemoryContext cxt;
	List	   *entries;		/* of ColumnBounds, the newest last */
	MemoryContextCallback forget;
	struct ColumnBoundsCache *next;
} ColumnBoundsCache;

static ColumnBoundsCache *column_bounds_caches = NULL;

/* At most this many relations' columns are remembered in one context. */
#define COLUMN_BOUNDS_KEPT 64

static void
column_bounds_forget(void *arg)
{
	for (ColumnBoundsCache **c = &column_bounds_caches; *c != NULL; c = &(*c)->next)
	{
		if (*c == arg)
		{
			*c = (*c)->next;
			break;
		}
	}
}

/* The cache of a memory context, made on first use. */
static ColumnBoundsCache *
column_bounds_cache(MemoryContext cxt)
{
	ColumnBoundsCache *c;

	for (c = column_bounds_caches; c != NULL; c = c->next)
		if (c->cxt == cxt)
			return c;
	c = MemoryContextAllocZero(cxt, sizeof(ColumnBoundsCache));
	c->cxt = cxt;
	c->forget.func = column_bounds_forget;
	c->forget.arg = c;
	MemoryContextRegisterResetCallback(cxt, &c->forget);
	c->next = column_bounds_caches;
	column_bounds_caches = c;
	return c;
}

/* The order of the by_value index: direction, kind, value. */
static int
bound_key_cmp(const UlidBound *a, const UlidBound *b)
{
	if (a->is_lower != b->is_lower)
		return a->is_lower ? 1 : -1;
	if (a->none != b->none)
		return a->none ? 1 : -1;
	if (a->inclusive != b->inclusive)
		return a->inclusive ? 1 : -1;
	return a->none ? 0 : ulid_internal_cmp(&a->value, &b->value);
}

static int
by_args_qsort_cmp(const void *a, const void *b)
{
	const BoundClause *x = *(BoundClause *const *) a;
	const BoundClause *y = *(BoundClause *const *) b;

	if (x->args != y->args)
		return (uintptr_t) x->args < (uintptr_t) y->args ? -1 : 1;
	return x->seq - y->seq;
}

static int
by_value_qsort_cmp(const void *a, const void *b)
{
	const BoundClause *x = *(BoundClause *const *) a;
	const BoundClause *y = *(BoundClause *const *) b;
	int			c = bound_key_cmp(&x->bound, &y->bound);

	return c != 0 ? c : x->seq - y->seq;
}

/* Add a bound to its group, and to all in group order. */
static void
add_bound(ColumnBounds *cb, BoundClause *bc, List **all)
{
	bc->seq = list_length(*all);
	cb->groups[bc->group] = lappend(cb->groups[bc->group], bc);
	*all = lappend(*all, bc);
}

/*
 * The bounds that the clauses of one conjunction (group g) put on the
 * column of vardata, their selectivities not yet read.
 */
static void
group_bounds(PlannerInfo *root, ColumnBounds *cb, int g, List *clauses, List **all)
{
	int			ranges = 0;
	ListCell   *lc;

	foreach(lc, clauses)
	{
		Node	   *node = (Node *) lfirst(lc);
		OpExpr	   *op;
		StrategyNumber strategy;
		int			time_arg;
		int			var_arg;
		Node	   *other;
		const char *symbol;

		CHECK_FOR_INTERRUPTS();
		if (IsA(node, RestrictInfo))
		{
			if (((RestrictInfo *) node)->pseudoconstant)
				continue;
			node = (Node *) ((RestrictInfo *) node)->clause;
		}
		op = (OpExpr *) node;
		if (!is_opclause(op) || list_length(op->args) != 2)
			continue;
		if (equal(strip_relabel(linitial(op->args)), cb->column))
			var_arg = 0;
		else if (equal(strip_relabel(lsecond(op->args)), cb->column))
			var_arg = 1;
		else
			continue;
		other = (Node *) list_nth(op->args, 1 - var_arg);
		if (contain_var_clause(other) || contain_volatile_functions(other))
			continue;
		other = estimate_expression_value(root, other);

		if (ulid_comparison_of(op->opno, &strategy, &time_arg))
		{
			BoundClause *bc;

			symbol = ulid_function_symbol(get_oprrest(op->opno));
			if (symbol == NULL || strcmp(symbol, "ulid_ineqsel") != 0)
				continue;
			bc = palloc0(sizeof(BoundClause));
			if (!ulid_make_bound(strategy, time_arg, var_arg, other, &bc->bound))
				continue;
			bc->args = op->args;
			bc->group = g;
			bc->opno = op->opno;
			bc->opfunc = get_opcode(op->opno);
			bc->strategy = strategy;
			bc->collation = op->inputcollid;
			add_bound(cb, bc, all);
			continue;
		}

		/* id <@ r, r @> id: its two ends, for the index conditions made of them */
		symbol = ulid_function_symbol(get_opcode(op->opno));
		if (symbol != NULL && IsA(other, Const) && !((Const *) other)->constisnull &&
			exprType(other) == TSTZRANGEOID &&
			strcmp(symbol, var_arg == 0 ? "ulid_contained_by_tstzrange" : "tstzrange_contains_ulid") == 0)
		{
			TypeCacheEntry *typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
			RangeType  *r = DatumGetRangeTypeP(((Const *) other)->constvalue);

			ranges++;
			for (int end = 0; end < 2; end++)
			{
				BoundClause *bc = palloc0(sizeof(BoundClause));
				bool		infinite;
				Ulid	   *u = range_bound_ulid(typcache, r, end == 0, &infinite);

				if (infinite)
					continue;
				bc->range = ranges;
				bc->group = g;
				bc->opfunc = get_opcode(op->opno);
				bc->bound.is_lower = (end == 0);
				bc->bound.known = true;
				bc->bound.none = (u == NULL);
				bc->bound.inclusive = true;
				if (u != NULL)
					memcpy(bc->bound.value.data, u->data, ULID_LEN);
				add_bound(cb, bc, all);
			}
		}
	}
}

/*
 * The ColumnBounds of the column of vardata (a column of vardata->rel) for
 * this planning: remembered, or found now.  NULL without a relation.
 */
static ColumnBounds *
column_bounds(PlannerInfo *root, VariableStatData *vardata, int varRelid)
{
	RelOptInfo *rel = vardata->rel;
	Node	   *column = strip_relabel(vardata->var);
	MemoryContext cxt = root->planner_cxt;
	ColumnBoundsCache *cache;
	ColumnBounds *cb;
	MemoryContext old;
	List	   *lists = NIL;
	List	   *all = NIL;
	ListCell   *lc;
	int			g;

	if (rel == NULL)
		return NULL;
	if (cxt == NULL)
		cxt = CurrentMemoryContext; /* made here, remembered nowhere */
	else
	{
		cache = column_bounds_cache(cxt);
		foreach(lc, cache->entries)
		{
			cb = lfirst(lc);
			if (cb->root == root && cb->rel == rel && cb->varRelid == varRelid &&
				cb->restrictinfo == rel->baserestrictinfo &&
				cb->nrestrict == list_length(rel->baserestrictinfo) &&
				equal(cb->column, column))
				return cb;
		}
	}

	old = MemoryContextSwitchTo(cxt);
	cb = palloc0(sizeof(ColumnBounds));
	cb->root = root;
	cb->rel = rel;
	cb->restrictinfo = rel->baserestrictinfo;
	cb->nrestrict = list_length(rel->baserestrictinfo);
	cb->varRelid = varRelid;
	cb->column = copyObject(column);
	cb->stats.cxt = cxt;

	and_lists(rel->baserestrictinfo, &lists);
	cb->groups = palloc0(sizeof(List *) * Max(list_length(lists), 1));
	g = 0;
	foreach(lc, lists)
		group_bounds(root, cb, g++, (List *) lfirst(lc), &all);
	list_free(lists);

	/* The two indexes. */
	cb->by_args = palloc(sizeof(BoundClause *) * Max(list_length(all), 1));
	cb->by_value = palloc(sizeof(BoundClause *) * Max(list_length(all), 1));
	foreach(lc, all)
	{
		BoundClause *bc = lfirst(lc);

		if (bc->args != NULL)
			cb->by_args[cb->nby_args++] = bc;
		if (bc->bound.known)
			cb->by_value[cb->nby_value++] = bc;
	}
	list_free(all);
	qsort(cb->by_args, cb->nby_args, sizeof(BoundClause *), by_args_qsort_cmp);
	qsort(cb->by_value, cb->nby_value, sizeof(BoundClause *), by_value_qsort_cmp);

	/*
	 * Remembered only now that it is whole; and looked up again, since
	 * group_bounds() may have planned other queries meanwhile (a STABLE
	 * function estimated), which changes the caches.
	 */
	if (root->planner_cxt != NULL)
	{
		cache = column_bounds_cache(cxt);
		if (list_length(cache->entries) >= COLUMN_BOUNDS_KEPT)
			cache->entries = list_delete_first(cache->entries);
		cache->entries = lappend(cache->entries, cb);
	}
	MemoryContextSwitchTo(old);
	return cb;
}

/* The selectivity of one bound of cb, read once. */
static Selectivity
bound_clause_sel(PlannerInfo *root, VariableStatData *vardata, ColumnBounds *cb,
				 BoundClause *bc)
{
	if (!bc->sel_known)
	{
		if (!ulid_bound_selectivity(root, vardata, &cb->stats, bc->opfunc, &bc->bound))
			bc->bound.sel = bc->range > 0 ? DEFAULT_INEQ_SEL :
				ulid_core_ineqsel(bc->strategy, root, bc->opno, bc->args,
							 cb->varRelid, bc->collation);
		bc->sel_known = true;
	}
	return bc->bound.sel;
}

/*
 * The clause among the bounds that the one being estimated is: the same
 * clause (its args and operator), or, for a clause the planner made from
 * one (the index conditions of "id > ts" or "id <@ r", an index predicate,
 * a negated clause sharing the args of another), the first with the same
 * known bound.
 */
static BoundClause *
find_bound(ColumnBounds *cb, List *args, Oid opno, const UlidBound *b)
{
	int			lo = 0;
	int			hi = cb->nby_args;

	/* The first with these args. */
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if ((uintptr_t) cb->by_args[mid]->args < (uintptr_t) args)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < cb->nby_args && cb->by_args[lo]->args == args && cb->by_args[lo]->opno == opno)
		return cb->by_args[lo];
	if (!b->known)
		return NULL;

	/* The first with this bound. */
	lo = 0;
	hi = cb->nby_value;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (bound_key_cmp(&cb->by_value[mid]->bound, b) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < cb->nby_value && bound_key_cmp(&cb->by_value[lo]->bound, b) == 0)
		return cb->by_value[lo];
	return NULL;
}

/*
 * The tightest bound of each direction in the group of self (inequalities,
 * range 0, or one "id <@ r"): the smallest selectivity, the first of equals,
 * as clauselist_selectivity keeps the more restrictive of two.
 */
static void
tightest_bounds(PlannerInfo *root, VariableStatData *vardata, ColumnBounds *cb,
				BoundClause *self, BoundClause **lower, BoundClause **upper)
{
	ListCell   *lc;

	*lower = *upper = NULL;
	foreach(lc, cb->groups[self->group])
	{
		BoundClause *bc = lfirst(lc);
		BoundClause **best = bc->bound.is_lower ? lower : upper;

		if (bc->range != self->range)
			continue;
		bound_clause_sel(root, vardata, cb, bc);
		if (*best == NULL || bc->bound.sel < (*best)->bound.sel)
			*best = bc;
	}
}

/*
 * Restriction selectivity of every ulid comparison ("id < x" with x a ulid,
 * a uuid or a time, either way round).  Alone, a bound's own figure.  When
 * the relation's restriction clauses bound the same column from the other
 * side too, this clause and its partner share the window's figure: the more
 * selective end gives its own, the other the window's divided by it, and a
 * looser bound of the same side 1.  So the clauses multiply to the window,
 * each end alone is right for the more selective end, and the planner's
 * index conditions made from these clauses pair the same way.  What the
 * statistics cannot answer (no statistics, the time's side of a
 * comparison) goes to core's estimator.
 */
PG_FUNCTION_INFO_V1(ulid_ineqsel);
Datum
ulid_ineqsel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			opno = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	StrategyNumber strategy;
	int			time_arg;
	VariableStatData vardata;
	Node	   *other;
	bool		varonleft;
	UlidBound	b;
	ColumnBounds *cb;
	BoundClause *self = NULL;
	BoundClause *lower;
	BoundClause *upper;
	BoundClause *carrier;
	Selectivity window;
	Selectivity sel;

	CHECK_FOR_INTERRUPTS();
	if (!ulid_comparison_of(opno, &strategy, &time_arg))
		PG_RETURN_FLOAT8(DEFAULT_INEQ_SEL);
	if (!get_restriction_variable(root, args, varRelid, &vardata, &other, &varonleft))
		PG_RETURN_FLOAT8(ulid_core_ineqsel(strategy, root, opno, args, varRelid, PG_GET_COLLATION()));
	if (!ulid_make_bound(strategy, time_arg, varonleft ? 0 : 1, other, &b))
	{
		ReleaseVariableStats(vardata);
		PG_RETURN_FLOAT8(ulid_core_ineqsel(strategy, root, opno, args, varRelid, PG_GET_COLLATION()));
	}

	/*
	 * The conjunction this clause is in: the relation's restriction clauses
	 * or an AND arm of an OR among them, found by the clause itself, else
	 * (a clause the planner made) by its bound.
	 */
	cb = column_bounds(root, &vardata, varRelid);
	if (cb != NULL)
		self = find_bound(cb, args, opno, &b);
	if (self != NULL && self->args == args && self->opno == opno)
		sel = bound_clause_sel(root, &vardata, cb, self);
	else if (ulid_bound_selectivity(root, &vardata, cb ? &cb->stats : NULL, get_opcode(opno), &b))
		sel = b.sel;
	else
		sel = ulid_core_ineqsel(strategy, root, opno, args, varRelid, PG_GET_COLLATION());

	if (self != NULL)
	{
		tightest_bounds(root, &vardata, cb, self, &lower, &upper);
		if (self != lower && self != upper)
			sel = 1.0;			/* a looser bound of the same side */
		else if (lower != NULL && upper != NULL)
		{
			window = ulid_window_selectivity(lower->bound.sel, upper->bound.sel,
										nulltestsel(root, IS_NULL, vardata.var,
													varRelid, JOIN_INNER, NULL));
			carrier = lower->bound.sel <= upper->bound.sel ? lower : upper;
			if (self == carrier)
				sel = carrier->bound.sel;
			else if (carrier->bound.sel > 0.0)
				sel = window / carrier->bound.sel;
			else
				sel = 1.0;
		}
	}
	ReleaseVariableStats(vardata);
	CLAMP_PROBABILITY(sel);
	PG_RETURN_FLOAT8(sel);
}

/*
 * Restriction selectivity of "id <@ r" and "r @> id": for a constant range,
 * its two ends' figures (from ulid_ineqsel's reading of the statistics)
 * combined as a window; an unbounded end admits every non-NULL row.  Core's
 * rangesel does not apply (it expects a range on the other side too).
 * Without statistics, or for a range known only at execution,
 * DEFAULT_RANGE_INEQ_SEL (0.005), core's guess for an unknown window.
 */
PG_FUNCTION_INFO_V1(ulid_tstzrange_sel);
Datum
ulid_tstzrange_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	VariableStatData vardata;
	Node	   *other;
	bool		varonleft;
	TypeCacheEntry *typcache;
	RangeType  *r;
	UlidBound	end[2];
	bool		infinite[2];
	ColumnBounds *cb;
	Selectivity nullfrac;
	Selectivity sel;

	if (!get_restriction_variable(root, args, varRelid, &vardata, &other, &varonleft))
		PG_RETURN_FLOAT8(DEFAULT_RANGE_INEQ_SEL);
	if (!IsA(other, Const) || exprType(other) != TSTZRANGEOID)
	{
		ReleaseVariableStats(vardata);
		PG_RETURN_FLOAT8(DEFAULT_RANGE_INEQ_SEL);
	}
	if (((Const *) other)->constisnull)
	{
		ReleaseVariableStats(vardata);
		PG_RETURN_FLOAT8(0.0);
	}

	typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
	r = DatumGetRangeTypeP(((Const *) other)->constvalue);
	nullfrac = nulltestsel(root, IS_NULL, vardata.var, varRelid, JOIN_INNER, NULL);
	cb = column_bounds(root, &vardata, varRelid);
	for (int i = 0; i < 2; i++)
	{
		Ulid	   *u = range_bound_ulid(typcache, r, i == 0, &infinite[i]);

		if (u == NULL)
		{
			/* Empty, or no ULID within an end: no row. */
			ReleaseVariableStats(vardata);
			PG_RETURN_FLOAT8(0.0);
		}
		memset(&end[i], 0, sizeof(UlidBound));
		end[i].is_lower = (i == 0);
		end[i].known = true;
		end[i].inclusive = true;
		end[i].value = *u;
		if (infinite[i])
			end[i].sel = 1.0 - nullfrac;
		else if (!ulid_bound_selectivity(root, &vardata, cb ? &cb->stats : NULL,
									 get_opcode(PG_GETARG_OID(1)), &end[i]))
		{
			ReleaseVariableStats(vardata);
			PG_RETURN_FLOAT8(DEFAULT_RANGE_INEQ_SEL);
		}
	}
	ReleaseVariableStats(vardata);

	sel = ulid_window_selectivity(end[0].sel, end[1].sel, nullfrac);
	PG_RETURN_FLOAT8(sel);
}
