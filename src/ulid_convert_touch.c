/*
 * ulid_convert_touch.c
 *		What a conversion locks, rebuilds and checks again, read from pg_depend,
 *		in the order it locks them, and the publications of its tables.
 */
#include "postgres.h"

#include <ctype.h>

/* Some of these reach headers with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/index.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/objectaddress.h"
#include "catalog/partition.h"
#include "catalog/pg_attrdef.h"
#include "catalog/pg_constraint.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_language.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_policy.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_publication.h"
#include "catalog/pg_publication_rel.h"
#include "catalog/pg_rewrite.h"
#include "catalog/pg_statistic_ext.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"
#pragma GCC diagnostic pop

#include "ulid.h"
#include "ulid_convert.h"

/*****************************************************************************
 *	What a conversion touches, and the order of its locks
 *
 *	ALTER COLUMN TYPE finds what it must rebuild, or refuses to, in pg_depend:
 *	the objects that depend on the column of each table it changes.  Among
 *	them are the foreign keys at either end of the column, which it drops and
 *	adds again: that locks the table at the other end ACCESS EXCLUSIVE when
 *	ALTER TABLE reaches it, after the column's own indexes are rebuilt, and
 *	checks each foreign key again with a scan of its referencing table.
 *
 *	Left to ALTER TABLE, a conversion would hold the table while it waits
 *	for a referencing table that an application transaction holds, one
 *	that then reads the table: a deadlock, found after deadlock_timeout, in
 *	which either may be rolled back.  So the conversion takes every lock it
 *	will need before it changes anything, in one order: the referencing
 *	tables, then the table and its partitions (parents before their
 *	partitions, as ALTER TABLE and every query lock them), then the
 *	referenced tables, each group by partition depth, then OID.  That is
 *	the order in which an application's write to a referencing table takes
 *	them (its table, then the referenced one for the foreign key check), so
 *	the most common application transaction waits for the conversion or the
 *	conversion for it, and neither for the other at once.  Each lock waits as
 *	any lock does, no longer than lock_timeout; a conversion that times out
 *	or is cancelled has changed nothing.
 *
 *	The scans cannot be skipped.  ALTER TABLE keeps a foreign key without
 *	checking it again only if its equality operator is the same after the
 *	type change (ATAddForeignKeyConstraint() in tablecmds.c compares the old
 *	pfeqop with the new), and the point of the conversion is that the
 *	operator becomes ulid's.  The values change no byte and ulid's equality
 *	is uuid's, bytewise, so the check cannot fail; but the only way around it
 *	would be to mark the constraint valid in pg_constraint by hand, which an
 *	extension should not do.  docs/migrating.md gives the route for a
 *	referencing table too large to scan under the lock: NOT VALID, then
 *	VALIDATE CONSTRAINT, which takes a lock that lets writes through.
 *****************************************************************************/

/* Order objects by catalog, then OID: creation order, stable for a report. */
static int
object_cmp(const ListCell *a, const ListCell *b)
{
	const ObjectAddress *x = lfirst(a);
	const ObjectAddress *y = lfirst(b);

	if (x->classId != y->classId)
		return x->classId < y->classId ? -1 : 1;
	if (x->objectId != y->objectId)
		return x->objectId < y->objectId ? -1 : 1;
	return x->objectSubId - y->objectSubId;
}

/*
 * The objects that depend on column col of the tables of tree, as ALTER
 * COLUMN TYPE finds them in pg_depend, each once, in creation order; the
 * column's defaults, handled apart, are not among them.
 */
List *
column_dependents(List *tree, const char *col)
{
	Relation	depend = table_open(DependRelationId, AccessShareLock);
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, tree)
	{
		Oid			relid = lfirst_oid(lc);
		AttrNumber	attnum = get_attnum(relid, col);
		ScanKeyData key[3];
		SysScanDesc scan;
		HeapTuple	tuple;

		if (attnum == InvalidAttrNumber)
			continue;
		ScanKeyInit(&key[0], Anum_pg_depend_refclassid, BTEqualStrategyNumber, F_OIDEQ,
					ObjectIdGetDatum(RelationRelationId));
		ScanKeyInit(&key[1], Anum_pg_depend_refobjid, BTEqualStrategyNumber, F_OIDEQ,
					ObjectIdGetDatum(relid));
		ScanKeyInit(&key[2], Anum_pg_depend_refobjsubid, BTEqualStrategyNumber, F_INT4EQ,
					Int32GetDatum(attnum));
		scan = systable_beginscan(depend, DependReferenceIndexId, true, NULL, 3, key);
		while (HeapTupleIsValid(tuple = systable_getnext(scan)))
		{
			Form_pg_depend dep = (Form_pg_depend) GETSTRUCT(tuple);
			ObjectAddress *object;
			ListCell   *seen;
			bool		known = false;

			if (dep->classid == AttrDefaultRelationId)
				continue;
			foreach(seen, result)
			{
				ObjectAddress *o = lfirst(seen);

				known |= o->classId == dep->classid && o->objectId == dep->objid &&
					o->objectSubId == dep->objsubid;
			}
			if (known)
				continue;
			object = palloc(sizeof(ObjectAddress));
			object->classId = dep->classid;
			object->objectId = dep->objid;
			object->objectSubId = dep->objsubid;
			result = lappend(result, object);
		}
		systable_endscan(scan);
	}
	table_close(depend, AccessShareLock);
	list_sort(result, object_cmp);
	return result;
}


static int
convert_lock_cmp(const ListCell *a, const ListCell *b)
{
	const ConvertLock *x = lfirst(a);
	const ConvertLock *y = lfirst(b);

	if (x->depth != y->depth)
		return x->depth - y->depth;
	return x->relid < y->relid ? -1 : x->relid > y->relid ? 1 : 0;
}

/* Add relid and the tables that inherit from it to *locks, once each. */
static void
add_lock(List **locks, List *skip, Oid relid, const char *why)
{
	ListCell   *lc;

	foreach(lc, find_all_inheritors(relid, NoLock, NULL))
	{
		Oid			r = lfirst_oid(lc);
		ListCell   *l;
		bool		known = list_member_oid(skip, r);
		ConvertLock *lock;

		foreach(l, *locks)
			known |= ((ConvertLock *) lfirst(l))->relid == r;
		if (known)
			continue;
		lock = palloc(sizeof(ConvertLock));
		lock->relid = r;
		lock->depth = get_rel_relispartition(r) ? list_length(get_partition_ancestors(r)) : 0;
		lock->why = why;
		*locks = lappend(*locks, lock);
	}
}

/*
 * The tables a conversion of column col of relid locks ACCESS EXCLUSIVE, in
 * the order it locks them (see above); *tree is set to relid and the tables
 * inheriting from it, as find_all_inheritors() lists them.  The foreign keys
 * count only when the column changes type: the repair of a column already
 * ulid replaces defaults and leaves them be.  Read without locks by the dry
 * run, and under them by lock_conversion().
 */
List *
conversion_locks(Oid relid, const char *col, Oid ulid_type, List **tree)
{
	AttrNumber	attnum = get_attnum(relid, col);
	List	   *referencing = NIL;
	List	   *referenced = NIL;
	List	   *result = NIL;
	ListCell   *lc;

	*tree = find_all_inheritors(relid, NoLock, NULL);
	if (attnum != InvalidAttrNumber && get_atttype(relid, attnum) != ulid_type)
		foreach(lc, column_dependents(*tree, col))
		{
			ObjectAddress *o = lfirst(lc);
			HeapTuple	tuple;
			Form_pg_constraint con;

			if (o->classId != ConstraintRelationId)
				continue;
			tuple = SearchSysCache1(CONSTROID, ObjectIdGetDatum(o->objectId));
			if (!HeapTupleIsValid(tuple))
				continue;
			con = (Form_pg_constraint) GETSTRUCT(tuple);
			if (con->contype != CONSTRAINT_FOREIGN)
				;
			else if (!list_member_oid(*tree, con->conrelid))
				add_lock(&referencing, *tree, con->conrelid,
						 "its foreign key references the column");
			else if (!list_member_oid(*tree, con->confrelid))
				add_lock(&referenced, *tree, con->confrelid,
						 "the column's foreign key references it");
			ReleaseSysCache(tuple);
		}
	list_sort(referencing, convert_lock_cmp);
	list_sort(referenced, convert_lock_cmp);

	result = referencing;
	foreach(lc, *tree)
	{
		ConvertLock *lock = palloc(sizeof(ConvertLock));

		lock->relid = lfirst_oid(lc);
		lock->depth = 0;
		lock->why = lock->relid == relid ? "the table converted" : "inherits the column";
		result = lappend(result, lock);
	}
	/* a table at both ends is locked once, with the referencing ones */
	foreach(lc, referenced)
	{
		ConvertLock *lock = lfirst(lc);
		ListCell   *l;
		bool		known = false;

		foreach(l, referencing)
			known |= ((ConvertLock *) lfirst(l))->relid == lock->relid;
		if (!known)
			result = lappend(result, lock);
	}
	return result;
}

/*
 * Take every lock a conversion needs, before it changes anything, in
 * conversion_locks()'s order, and return the tree of tables it converts.
 * What was read before the locks is read again under them, until nothing
 * new turns up: a foreign key added or a partition attached in between is
 * locked too.  Once the tree is locked, neither can happen.
 */
List *
lock_conversion(Oid relid, const char *col, Oid ulid_type)
{
	List	   *locked = NIL;

	for (;;)
	{
		List	   *tree;
		bool		all_held = true;
		ListCell   *lc;

		foreach(lc, conversion_locks(relid, col, ulid_type, &tree))
		{
			Oid			r = ((ConvertLock *) lfirst(lc))->relid;

			if (list_member_oid(locked, r))
				continue;
			LockRelationOid(r, AccessExclusiveLock);
			locked = lappend_oid(locked, r);
			all_held = false;
		}
		if (all_held)
			return tree;
	}
}
/*****************************************************************************
 *	Publications
 *
 *	Logical replication sends a ulid column's values as ulid text (or its
 *	16 bytes in binary mode).  A subscriber whose column is still uuid cannot
 *	read the text ("invalid input syntax for type uuid"): its apply worker
 *	fails in a loop and the publisher keeps its WAL until the subscriber's
 *	column is converted too, when it catches up with no row lost.  A
 *	subscriber converted first reads both forms (ulid_in takes the uuid
 *	text, ulid_recv its bytes).  So the conversion warns, on a publisher,
 *	that subscribers convert first.  A column in a publication's column list
 *	or row filter is refused by ALTER COLUMN TYPE with a message about WHERE
 *	clauses; the conversion refuses it first, giving the statements that
 *	take the table out of the publication and put it back as it was.
 *****************************************************************************/

static int
publication_name_cmp(const ListCell *a, const ListCell *b)
{
	return strcmp(get_publication_name(lfirst_oid(a), false),
				  get_publication_name(lfirst_oid(b), false));
}

/*
 * The publications that publish a table of tree or an ancestor of relid
 * (by table, by schema or as all tables), by name.
 */
List *
tree_publications(Oid relid, List *tree)
{
	List	   *pubids = GetAllTablesPublications();
	List	   *ancestors = list_concat(list_make1_oid(relid), get_partition_ancestors(relid));
	ListCell   *lc;

#if PG_VERSION_NUM >= 190000
	/* FOR ALL TABLES EXCEPT (TABLE t): t and its partitions are not in it */
	foreach(lc, ancestors)
		pubids = list_difference_oid(pubids, GetRelationExcludedPublications(lfirst_oid(lc)));
#endif
	foreach(lc, list_concat_copy(tree, ancestors))
	{
		Oid			r = lfirst_oid(lc);

		pubids = list_concat_unique_oid(pubids, relation_publications(r));
		pubids = list_concat_unique_oid(pubids, GetSchemaPublications(get_rel_namespace(r)));
	}
	list_sort(pubids, publication_name_cmp);
	return pubids;
}

/* "a", "b": the names of publications, quoted, for a message. */
char *
publication_names(List *pubids)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, pubids)
		appendStringInfo(&buf, "%s\"%s\"", foreach_current_index(lc) > 0 ? ", " : "",
						 get_publication_name(lfirst_oid(lc), false));
	return buf.data;
}

/*
 * For a table in a publication with a column list or row filter that names
 * column col (pg_publication_rel row prid): what names it ("publication "p"
 * names it in its column list"), and the statements that convert it.
 */
void
publication_column_use(Oid prid, const char *col, char **use, char **route)
{
	HeapTuple	tuple = SearchSysCache1(PUBLICATIONREL, ObjectIdGetDatum(prid));
	Form_pg_publication_rel pr;
	Oid			pr_pubid;
	const char *pub;
	char	   *table;
	AttrNumber	attnum;
	bool		isnull;
	Datum		datum;
	bool		in_list = false;
	bool		in_filter = false;
	char	   *filter = NULL;
	StringInfoData add;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for publication table %u", prid);
	pr = (Form_pg_publication_rel) GETSTRUCT(tuple);
	pr_pubid = pr->prpubid;
	pub = quote_identifier(get_publication_name(pr->prpubid, false));
	table = DatumGetCString(DirectFunctionCall1(regclassout, ObjectIdGetDatum(pr->prrelid)));
	attnum = get_attnum(pr->prrelid, col);
	initStringInfo(&add);
	appendStringInfo(&add, "ALTER PUBLICATION %s ADD TABLE %s", pub, table);

	datum = SysCacheGetAttr(PUBLICATIONREL, tuple, Anum_pg_publication_rel_prattrs, &isnull);
	if (!isnull)
	{
		int2vector *attrs = (int2vector *) DatumGetPointer(datum);

		appendStringInfoString(&add, " (");
		for (int i = 0; i < attrs->dim1; i++)
		{
			in_list |= attrs->values[i] == attnum;
			appendStringInfo(&add, "%s%s", i > 0 ? ", " : "",
							 quote_identifier(get_attname(pr->prrelid, attrs->values[i], false)));
		}
		appendStringInfoChar(&add, ')');
	}
	datum = SysCacheGetAttr(PUBLICATIONREL, tuple, Anum_pg_publication_rel_prqual, &isnull);
	if (!isnull)
	{
		Node	   *qual = stringToNode(TextDatumGetCString(datum));
		Bitmapset  *attrs = NULL;

		pull_varattnos(qual, 1, &attrs);
		in_filter = bms_is_member(attnum - FirstLowInvalidHeapAttributeNumber, attrs);
		filter = deparse_expression(qual, deparse_context_for(get_rel_name(pr->prrelid), pr->prrelid),
									false, false);
	}
	ReleaseSysCache(tuple);

	*use = psprintf("Publication \"%s\" names it in its %s",
					get_publication_name(pr_pubid, false),
					in_list && in_filter ? "column list and row filter" :
					in_list ? "column list" : "row filter");
	/* a row filter takes columns of built-in types only: ulid is not one */
	if (in_filter)
		*route = psprintf("A row filter can name only columns of built-in types, so the filter must do without \"%s\". In one transaction: ALTER PUBLICATION %s DROP TABLE %s; SELECT * FROM ulid_convert_column(%s, %s); %s WHERE (a filter without \"%s\"). The filter was WHERE (%s).",
						  col, pub, table, quote_literal_cstr(table), quote_literal_cstr(col),
						  add.data, col, filter);
	else
		*route = psprintf("In one transaction: ALTER PUBLICATION %s DROP TABLE %s; SELECT * FROM ulid_convert_column(%s, %s); %s%s%s%s;",
						  pub, table, quote_literal_cstr(table), quote_literal_cstr(col), add.data,
						  filter != NULL ? " WHERE (" : "", filter != NULL ? filter : "",
						  filter != NULL ? ")" : "");
}
