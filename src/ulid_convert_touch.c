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
#include "access/sysattr.h"
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
#include "catalog/pg_partitioned_table.h"
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
 *	checks each foreign key again with a scan of its referencing table.  A
 *	key that references a partitioned table has a constraint (and triggers)
 *	for each partition, and a partitioned referencing table one for each of
 *	its partitions, so those partitions are locked too; a table that
 *	inherits from the one at the other end (plain inheritance) has no part
 *	in the key, and ALTER TABLE never locks it.  Nor does the conversion.
 *
 *	Left to ALTER TABLE, a conversion would hold the table while it waits
 *	for a referencing table that an application transaction holds, one
 *	that then reads the table: a deadlock, found after deadlock_timeout, in
 *	which either may be rolled back.  So the conversion takes every lock it
 *	will need before it changes anything (after its own table's SHARE UPDATE
 *	EXCLUSIVE, under which it refuses what it must), in one order: the
 *	referencing tables, then the table and its partitions (parents before
 *	their partitions, as ALTER TABLE and every query lock them), then the
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
 * The column whose default (or generation expression) is pg_attrdef row
 * attrdefoid: core's GetAttrDefaultColumnAddress(), which PGlite does not
 * export.
 */
static ObjectAddress
attrdef_column(Oid attrdefoid)
{
	Relation	attrdef = table_open(AttrDefaultRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	ObjectAddress result = InvalidObjectAddress;

	ScanKeyInit(&key, Anum_pg_attrdef_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(attrdefoid));
	scan = systable_beginscan(attrdef, AttrDefaultOidIndexId, true, NULL, 1, &key);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_attrdef def = (Form_pg_attrdef) GETSTRUCT(tuple);

		ObjectAddressSubSet(result, RelationRelationId, def->adrelid, def->adnum);
	}
	systable_endscan(scan);
	table_close(attrdef, AccessShareLock);
	return result;
}

/*
 * The objects that depend on column col of the tables of tree, as ALTER
 * COLUMN TYPE finds them in pg_depend, each once, in creation order; the
 * column's defaults, handled apart, are not among them, and a generated
 * column's expression that uses the column is given as that column.
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

			object = palloc(sizeof(ObjectAddress));
			object->classId = dep->classid;
			object->objectId = dep->objid;
			object->objectSubId = dep->objsubid;
			if (dep->classid == AttrDefaultRelationId)
			{
				/*
				 * The column's own default is handled apart; another
				 * column's is the expression of a generated column that
				 * uses this one.
				 */
				*object = attrdef_column(dep->objid);
				if (object->objectId == relid && object->objectSubId == attnum)
					continue;
			}
			foreach(seen, result)
			{
				ObjectAddress *o = lfirst(seen);

				known |= o->classId == object->classId && o->objectId == object->objectId &&
					o->objectSubId == object->objectSubId;
			}
			if (!known)
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

/*
 * Add relid to *locks once, unless it is in skip.  Only relid: a foreign
 * key does not reach the tables that inherit from its table (plain
 * inheritance), and each partition a key does reach has a constraint of its
 * own on the column, which adds it.
 */
static void
add_lock(List **locks, List *skip, Oid relid, const char *why)
{
	ListCell   *l;
	ConvertLock *lock;

	if (list_member_oid(skip, relid))
		return;
	foreach(l, *locks)
		if (((ConvertLock *) lfirst(l))->relid == relid)
			return;
	lock = palloc(sizeof(ConvertLock));
	lock->relid = relid;
	lock->depth = get_rel_relispartition(relid) ? list_length(get_partition_ancestors(relid)) : 0;
	lock->why = why;
	*locks = lappend(*locks, lock);
}

static char *
relation_description(Oid relid)
{
	ObjectAddress object = {RelationRelationId, relid, 0};

	return getObjectDescription(&object, false);
}

/*
 * The table that the foreign key con references as its user declared it:
 * a key that references a partitioned table has a constraint for each of
 * its partitions (conparentid leading up to the declared one), whose
 * triggers ALTER TABLE drops and makes again.
 */
static Oid
key_referenced_root(Form_pg_constraint con)
{
	Oid			result = con->confrelid;
	Oid			parent = con->conparentid;

	while (OidIsValid(parent))
	{
		HeapTuple	tuple = SearchSysCache1(CONSTROID, ObjectIdGetDatum(parent));

		if (!HeapTupleIsValid(tuple))
			break;
		result = ((Form_pg_constraint) GETSTRUCT(tuple))->confrelid;
		parent = ((Form_pg_constraint) GETSTRUCT(tuple))->conparentid;
		ReleaseSysCache(tuple);
	}
	return result;
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
			{
				Oid			top = key_referenced_root(con);

				add_lock(&referenced, *tree, con->confrelid,
						 top == con->confrelid ? "the column's foreign key references it" :
						 psprintf("a partition of %s, which the column's foreign key references",
								  relation_description(top)));
			}
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
 *	What ALTER COLUMN TYPE refuses
 *
 *	The conversion refuses what ALTER TABLE would refuse before it locks
 *	any table but its own (ulid_convert_column()), and the dry run reports
 *	the same as blockers.  So it reads the tables of the tree and the
 *	column's dependents from the catalogs without locking them, as
 *	find_all_inheritors(..., NoLock) and pg_depend give them, and never
 *	opens them; the checks run again once everything is locked.  ALTER
 *	TABLE finds each of these after it has locked the whole tree (the
 *	dependents and the tables that use the row type later still), so the
 *	conversion refuses with its words.
 *****************************************************************************/

/* Whether the partition key of partitioned table relid uses column attnum. */
static bool
partition_key_uses(Oid relid, AttrNumber attnum)
{
	HeapTuple	tuple = SearchSysCache1(PARTRELID, ObjectIdGetDatum(relid));
	Form_pg_partitioned_table form;
	bool		uses = false;
	bool		isnull;
	Datum		exprs;

	if (!HeapTupleIsValid(tuple))
		return false;
	form = (Form_pg_partitioned_table) GETSTRUCT(tuple);
	for (int i = 0; i < form->partnatts; i++)
		uses |= form->partattrs.values[i] == attnum;
	exprs = SysCacheGetAttr(PARTRELID, tuple, Anum_pg_partitioned_table_partexprs, &isnull);
	if (!isnull)
	{
		Bitmapset  *attrs = NULL;

		pull_varattnos(stringToNode(TextDatumGetCString(exprs)), 1, &attrs);
		uses |= bms_is_member(attnum - FirstLowInvalidHeapAttributeNumber, attrs);
	}
	ReleaseSysCache(tuple);
	return uses;
}

/*
 * A column of a table (or materialized view) that stores type typid, a
 * table's row type, directly or inside an array, domain, range or
 * composite type, as "table.column"; or NULL.  ALTER COLUMN TYPE refuses to
 * change a table whose row type is stored (core's
 * find_composite_type_dependencies(), which this follows).
 */
static char *
row_type_user(Oid typid)
{
	Relation	depend = table_open(DependRelationId, AccessShareLock);
	ScanKeyData key[2];
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *result = NULL;

	ScanKeyInit(&key[0], Anum_pg_depend_refclassid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(TypeRelationId));
	ScanKeyInit(&key[1], Anum_pg_depend_refobjid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(typid));
	scan = systable_beginscan(depend, DependReferenceIndexId, true, NULL, 2, key);
	while (result == NULL && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_depend dep = (Form_pg_depend) GETSTRUCT(tuple);
		char		relkind;

		if (dep->classid == TypeRelationId)
			result = row_type_user(dep->objid);
		if (dep->classid != RelationRelationId || dep->objsubid <= 0)
			continue;
		relkind = get_rel_relkind(dep->objid);
		if (relkind == RELKIND_RELATION || relkind == RELKIND_MATVIEW ||
			relkind == RELKIND_PARTITIONED_TABLE)
			result = psprintf("%s.%s", get_rel_name(dep->objid),
							  get_attname(dep->objid, dep->objsubid, false));
		else if (OidIsValid(get_rel_type_id(dep->objid)))
			result = row_type_user(get_rel_type_id(dep->objid));
	}
	systable_endscan(scan);
	table_close(depend, AccessShareLock);
	return result;
}

static ConvertBlocker *
make_blocker(ObjectAddress *object, int sqlstate, char *message, char *detail)
{
	ConvertBlocker *b = palloc(sizeof(ConvertBlocker));

	b->object = getObjectDescription(object, false);
	b->sqlstate = sqlstate;
	b->message = message;
	b->detail = detail;
	return b;
}

/*
 * What ALTER COLUMN TYPE refuses in the tables of relid's tree, changing
 * column col: a typed table; a column of a partition key (of the table or
 * of a partitioned partition); a column that a table of the tree inherits
 * from a table outside it too; a table whose row type another table
 * stores; a table of the tree that the caller does not own (ALTER TABLE
 * checks each one it recurses into).  Core's errors, one blocker each.
 */
List *
table_blockers(Oid relid, const char *col)
{
	List	   *numparents;
	List	   *tree = find_all_inheritors(relid, NoLock, &numparents);
	List	   *result = NIL;
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	ListCell   *lt;
	ListCell   *ln;

	if (HeapTupleIsValid(tuple))
	{
		ObjectAddress table = {RelationRelationId, relid, 0};

		if (OidIsValid(((Form_pg_class) GETSTRUCT(tuple))->reloftype))
			result = lappend(result, make_blocker(&table, ERRCODE_WRONG_OBJECT_TYPE,
												  pstrdup("cannot alter column type of typed table"),
												  NULL));
		ReleaseSysCache(tuple);
	}
	forboth(lt, tree, ln, numparents)
	{
		Oid			r = lfirst_oid(lt);
		AttrNumber	attnum = get_attnum(r, col);
		ObjectAddress column = {RelationRelationId, r, attnum};
		ObjectAddress table = {RelationRelationId, r, 0};
		char	   *user;

		if (attnum == InvalidAttrNumber)
			continue;
		if (r != relid && !relation_ownercheck(r, GetUserId()))
			result = lappend(result,
							 make_blocker(&table, ERRCODE_INSUFFICIENT_PRIVILEGE,
										  psprintf("must be owner of %s %s",
												   get_rel_relkind(r) == RELKIND_FOREIGN_TABLE ?
												   "foreign table" : "table", get_rel_name(r)),
										  NULL));
		tuple = SearchSysCacheAttName(r, col);
		if (HeapTupleIsValid(tuple))
		{
			if (r != relid && ((Form_pg_attribute) GETSTRUCT(tuple))->attinhcount > lfirst_int(ln))
				result = lappend(result,
								 make_blocker(&column, ERRCODE_INVALID_TABLE_DEFINITION,
											  psprintf("cannot alter inherited column \"%s\" of relation \"%s\"",
													   col, get_rel_name(r)),
											  psprintf("Table \"%s\" inherits the column from a table outside the tree of \"%s\" too.",
													   get_rel_name(r), get_rel_name(relid))));
			ReleaseSysCache(tuple);
		}
		if (get_rel_relkind(r) == RELKIND_PARTITIONED_TABLE && partition_key_uses(r, attnum))
			result = lappend(result,
							 make_blocker(&column, ERRCODE_INVALID_TABLE_DEFINITION,
										  psprintf("cannot alter column \"%s\" because it is part of the partition key of relation \"%s\"",
												   col, get_rel_name(r)),
										  NULL));
		if ((user = row_type_user(get_rel_type_id(r))) != NULL)
			result = lappend(result,
							 make_blocker(&table, ERRCODE_FEATURE_NOT_SUPPORTED,
										  psprintf("cannot alter table \"%s\" because column \"%s\" uses its row type",
												   get_rel_name(r), user),
										  NULL));
	}
	return result;
}

/*
 * Whether a dependent of the column (column_dependents()) makes ALTER
 * COLUMN TYPE refuse it: a view or rule, a trigger, a policy, a function's
 * SQL-standard body, a generated column, a publication's column list or
 * row filter.
 */
bool
dependent_blocks(ObjectAddress *o)
{
	return o->classId == RewriteRelationId || o->classId == ProcedureRelationId ||
		o->classId == TriggerRelationId || o->classId == PolicyRelationId ||
		o->classId == PublicationRelRelationId ||
		(o->classId == RelationRelationId && o->objectSubId != 0);
}

/*
 * Refuse the conversion of column col of relid for a dependent that
 * blocks it (dependent_blocks()), with ALTER TABLE's words; for a
 * publication, with the statements that convert it.
 */
void
refuse_dependent(ObjectAddress *o, Oid relid, const char *col)
{
	char	   *what = getObjectDescription(o, false);

	if (o->classId == PublicationRelRelationId)
	{
		char	   *use;
		char	   *route;

		publication_column_use(o->objectId, col, &use, &route);
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("cannot convert column \"%s\" of table \"%s\"", col, get_rel_name(relid)),
				errdetail("%s, and ALTER COLUMN TYPE cannot change a column that a publication's column list or row filter names.",
						  use),
				errhint("%s", route));
	}
	if (o->classId == RelationRelationId)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("cannot alter type of a column used by a generated column"),
				errdetail("Column \"%s\" is used by generated column \"%s\".", col,
						  get_attname(o->objectId, o->objectSubId, false)));
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("cannot alter type of a column used %s",
				   o->classId == RewriteRelationId ? "by a view or rule" :
				   o->classId == TriggerRelationId ? "in a trigger definition" :
				   o->classId == PolicyRelationId ? "in a policy definition" :
				   "by a function or procedure"),
			errdetail("%s depends on column \"%s\"", what, col));
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
