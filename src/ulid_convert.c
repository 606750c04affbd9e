/*
 * ulid_convert.c
 *		ulid_convert_column(), which turns a uuid column into a ulid column in
 *		place, and the checks it shares with its dry run
 *		(ulid_convert_dry_run.c); what it locks and rebuilds is read in
 *		ulid_convert_touch.c, and the event trigger that warns of uuid
 *		generators left as a ulid column's default is ulid_check_defaults.c.
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
#include "access/xact.h"
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
#include "commands/defrem.h"
#include "commands/event_trigger.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_node.h"
#include "parser/parse_utilcmd.h"
#include "parser/parser.h"
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
 *	Converting uuid columns
 *
 *	ulid_convert_column() turns a uuid column into a ulid column in place and
 *	replaces a default that generates uuids with gen_ulid().  The event
 *	trigger function ulid_check_defaults() warns when DDL leaves a ulid
 *	column whose default is such a generator cast to ulid, which is what a
 *	plain ALTER COLUMN ... TYPE ulid does to DEFAULT gen_random_uuid().
 *****************************************************************************/


/* Whether funcid is core's uuidv7() (PostgreSQL 18 on), either form. */
static bool
is_core_uuidv7(Oid funcid)
{
	char	   *name;

	if (get_func_namespace(funcid) != PG_CATALOG_NAMESPACE)
		return false;
	name = get_func_name(funcid);
	return name != NULL && strcmp(name, "uuidv7") == 0;
}

/*
 * Whether funcid is a uuid generator whose values mean nothing as a time:
 * core's gen_random_uuid() and uuidv4() (18 on), uuid-ossp's
 * uuid_generate_v1(), _v1mc() and _v4().  A function of one's own is not
 * guessed at: it may hand out ids from somewhere that gen_ulid() does not.
 */
static bool
is_known_uuid_generator(Oid funcid)
{
	char	   *name = get_func_name(funcid);
	Oid			ossp;

	if (name == NULL)
		return false;
	if (get_func_namespace(funcid) == PG_CATALOG_NAMESPACE)
		return strcmp(name, "gen_random_uuid") == 0 || strcmp(name, "uuidv4") == 0;
	if (strcmp(name, "uuid_generate_v1") != 0 && strcmp(name, "uuid_generate_v1mc") != 0 &&
		strcmp(name, "uuid_generate_v4") != 0)
		return false;
	ossp = get_extension_oid("uuid-ossp", true);
	return OidIsValid(ossp) && getExtensionOfObject(ProcedureRelationId, funcid) == ossp;
}

/*
 * The expression of the given type under the binary casts (RelabelTypes) of
 * expr, or NULL: the uuid that a ulid default casts (implicit when ALTER
 * COLUMN TYPE converted the default or when a uuid expression was given as
 * the default, explicit when written, gen_random_uuid()::ulid), or the ulid
 * under a uuid default "gen_ulid()::uuid".
 */
Node *
under_cast(Node *expr, Oid type)
{
	while (expr != NULL && (IsA(expr, RelabelType) || IsA(expr, CoerceToDomain)))
	{
		expr = IsA(expr, RelabelType) ? (Node *) ((RelabelType *) expr)->arg :
			(Node *) ((CoerceToDomain *) expr)->arg;
		if (exprType(expr) == type)
			return expr;
	}
	return NULL;
}

/*
 * Classify a default expression of type uuid.  A known uuid generator
 * (is_known_uuid_generator()) makes values whose time means nothing once
 * cast to ulid, so it must become gen_ulid().  Kept as they are: core's
 * uuidv7(), whose first 48 bits are the Unix millisecond, so its values are
 * ULIDs of the right time (and stay valid UUIDv7), monotonic in a session as
 * before; a ulid expression cast to uuid (a uuid column defaulting to
 * gen_ulid() or gen_ulid_v7(), whose cast the conversion drops); and a
 * default that is not volatile (a constant), which gives the same bytes.
 * Anything else volatile, one's own generator included, is not guessed at.
 */
UuidDefaultKind
classify_uuid_default(Node *expr, Oid ulid_type)
{
	FuncExpr   *call = expr != NULL && IsA(expr, FuncExpr) ? (FuncExpr *) expr : NULL;

	if (expr == NULL)
		return UUID_DEFAULT_NONE;
	if (under_cast(expr, ulid_type) != NULL)
		return UUID_DEFAULT_UNCAST;
	if (call != NULL && is_core_uuidv7(call->funcid))
		return UUID_DEFAULT_KEEP;
	if (!contain_volatile_functions(expr))
		return UUID_DEFAULT_KEEP;
	if (call != NULL && call->args == NIL && is_known_uuid_generator(call->funcid))
		return UUID_DEFAULT_GENERATOR;
	return UUID_DEFAULT_UNKNOWN;
}

/* The default expression of column attnum of rel, or NULL. */
Node *
column_default(Relation rel, AttrNumber attnum)
{
	TupleConstr *constr = RelationGetDescr(rel)->constr;

	if (constr == NULL)
		return NULL;
	for (int i = 0; i < constr->num_defval; i++)
		if (constr->defval[i].adnum == attnum)
			return stringToNode(constr->defval[i].adbin);
	return NULL;
}

/*
 * The default expression of column attnum of table relid, or NULL, read
 * from pg_attrdef: the table need not be open, nor locked.
 */
Node *
column_default_of(Oid relid, AttrNumber attnum)
{
	Relation	attrdef = table_open(AttrDefaultRelationId, AccessShareLock);
	ScanKeyData key[2];
	SysScanDesc scan;
	HeapTuple	tuple;
	Node	   *result = NULL;

	ScanKeyInit(&key[0], Anum_pg_attrdef_adrelid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	ScanKeyInit(&key[1], Anum_pg_attrdef_adnum, BTEqualStrategyNumber, F_INT2EQ,
				Int16GetDatum(attnum));
	scan = systable_beginscan(attrdef, AttrDefaultIndexId, true, NULL, 2, key);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		adbin = heap_getattr(tuple, Anum_pg_attrdef_adbin,
										 RelationGetDescr(attrdef), &isnull);

		if (!isnull)
			result = stringToNode(TextDatumGetCString(adbin));
	}
	systable_endscan(scan);
	table_close(attrdef, AccessShareLock);
	return result;
}

/* default_text() of table relid, which need not be open. */
char *
default_text_of(Oid relid, Node *expr)
{
	if (expr == NULL)
		return NULL;
	return deparse_expression(expr, deparse_context_for(get_rel_name(relid), relid),
							  false, false);
}

/* An expression of a column default of rel as pg_get_expr() shows it, or NULL. */
char *
default_text(Relation rel, Node *expr)
{
	if (expr == NULL)
		return NULL;
	return deparse_expression(expr,
							  deparse_context_for(RelationGetRelationName(rel),
												  RelationGetRelid(rel)),
							  false, false);
}

/* The name of a relation, schema-qualified and quoted, for a statement. */
static char *
qualified_relation_name(Oid relid)
{
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
									  get_rel_name(relid));
}

/* Run one ALTER TABLE through SPI. */
static void
run_alter(const char *sql)
{
	int			rc = SPI_execute(sql, false, 0);

	if (rc != SPI_OK_UTILITY)
		elog(ERROR, "SPI_execute failed for \"%s\": %s", sql, SPI_result_code_string(rc));
}

/*
 * Pin search_path to pg_catalog (then pg_temp, which is never searched for
 * functions or operators) until AtEOXact_GUC(true, the level returned).
 * Everything ulid_convert_column() runs through SPI, and everything it
 * deparses to run again, is resolved under it: the functions and operators
 * of its catalog query, the statements it makes, the index definitions and
 * defaults it reads back.  Under the caller's search_path, a function or
 * operator planted in any schema on it with exact argument types would be
 * chosen over pg_catalog's polymorphic or coerced one (unnest(oid[]) over
 * unnest(anyarray), <>(oid, integer) over <>(oid, oid)), and would run with
 * the privileges of whoever converts a table: a superuser, in a migration.
 * Names outside pg_catalog are deparsed schema-qualified under it, so an
 * index or default made again refers to the very objects it did.
 */
int
pin_search_path(void)
{
	int			nestlevel = NewGUCNestLevel();

	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return nestlevel;
}

/* The ulid type of the extension that holds function fn_oid (relocatable). */
Oid
extension_ulid_type(Oid fn_oid)
{
	return GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum("ulid"),
						   ObjectIdGetDatum(get_func_namespace(fn_oid)));
}

/*
 * The BRIN indexes of the tables being converted (relids, parents first)
 * that index column col with a class of core's for uuid that has a ulid
 * counterpart: uuid_bloom_ops and uuid_minmax_multi_ops.  ALTER COLUMN TYPE
 * would rebuild them with the same uuid class (it names a class that is not
 * the type's default, and the ulid column is binary-coercible to uuid), and
 * then neither id = '...'::ulid nor id = '...'::uuid could use them.  So
 * they are dropped before the ALTER and made again after it, each as it
 * was (name, columns, options, predicate, tablespace, comment; a partitioned
 * index made ON ONLY its table, its partitions' indexes attached again)
 * with the ulid class; the repair of a column already ulid does the same
 * without the ALTER.  An index attached to one of a table outside relids
 * (the repair of a partition alone) is left as it is.  The default classes
 * (B-tree, hash, BRIN minmax, btree_gist's and btree_gin's) need none of
 * this: the ALTER picks ulid's.  One row per index, the indexes of the
 * deepest tables first.  Read-write SPI, so that a second conversion in the
 * same statement sees the first's indexes.  Run under pin_search_path(),
 * and written so that every function and operator it names is pg_catalog's
 * with its exact argument types.
 */
static const char *const convert_index_query =
	"WITH tables AS (\n"
	"	SELECT relid, pos FROM pg_catalog.unnest($1::pg_catalog.oid[]) WITH ORDINALITY t(relid, pos)),\n"
	"keys AS (\n"
	"	SELECT i.indexrelid, i.indrelid, k.n, k.attnum, k.opclass, k.coll\n"
	"	FROM pg_catalog.pg_index i JOIN tables t ON t.relid = i.indrelid,\n"
	"		ROWS FROM (pg_catalog.unnest(i.indkey::pg_catalog.int2[]),\n"
	"				   pg_catalog.unnest(i.indclass::pg_catalog.oid[]),\n"
	"				   pg_catalog.unnest(i.indcollation::pg_catalog.oid[]))\n"
	"			WITH ORDINALITY k(attnum, opclass, coll, n)\n"
	"	WHERE k.n <= i.indnkeyatts),\n"
	"mapped AS (\n"
	"	SELECT k.indexrelid, k.n, m.ulid_class\n"
	"	FROM keys k\n"
	"	JOIN pg_catalog.pg_attribute a ON a.attrelid = k.indrelid AND a.attnum = k.attnum AND a.attname = $2\n"
	"	JOIN pg_catalog.pg_opclass oc ON oc.oid = k.opclass\n"
	"		AND oc.opcnamespace = 'pg_catalog'::pg_catalog.regnamespace::pg_catalog.oid\n"
	"	JOIN pg_catalog.pg_am am ON am.oid = oc.opcmethod AND am.amname = 'brin'\n"
	"	JOIN (VALUES ('uuid_bloom_ops', 'ulid_bloom_ops'),\n"
	"				 ('uuid_minmax_multi_ops', 'ulid_minmax_multi_ops')) m(uuid_class, ulid_class)\n"
	"		ON m.uuid_class = oc.opcname)\n"
	"SELECT c.oid AS index, c.relkind = 'I' AS partitioned,\n"
	"	pg_catalog.format('%I.%I', ns.nspname, c.relname) AS name,\n"
	"	EXISTS (SELECT FROM pg_catalog.pg_inherits h WHERE h.inhrelid = c.oid) AS attached,\n"
	"	pg_catalog.format('CREATE INDEX %I ON %s%I.%I USING %I (%s)%s%s%s',\n"
	"		c.relname, CASE WHEN c.relkind = 'I' THEN 'ONLY ' ELSE '' END, tns.nspname, t.relname, am.amname,\n"
	"		(SELECT pg_catalog.string_agg(\n"
	"			CASE WHEN k.attnum = 0 THEN '(' || pg_catalog.pg_get_indexdef(k.indexrelid, k.n::int, false) || ')'\n"
	"				 ELSE pg_catalog.quote_ident(ta.attname) END\n"
	"			|| CASE WHEN k.coll <> 0::pg_catalog.oid THEN ' COLLATE ' || pg_catalog.format('%I.%I', cns.nspname, co.collname) ELSE '' END\n"
	"			|| ' ' || CASE WHEN m.ulid_class IS NOT NULL THEN pg_catalog.format('%I.%I', $3, m.ulid_class)\n"
	"						   ELSE pg_catalog.format('%I.%I', ons.nspname, oc.opcname) END\n"
	"			|| COALESCE((SELECT '(' || pg_catalog.string_agg(pg_catalog.format('%I = %L',\n"
	"							pg_catalog.split_part(o, '=', 1), pg_catalog.substr(o, pg_catalog.strpos(o, '=') + 1)), ', ') || ')'\n"
	"						 FROM pg_catalog.unnest(ia.attoptions) o), ''),\n"
	"			', ' ORDER BY k.n)\n"
	"		 FROM keys k\n"
	"		 JOIN pg_catalog.pg_opclass oc ON oc.oid = k.opclass\n"
	"		 JOIN pg_catalog.pg_namespace ons ON ons.oid = oc.opcnamespace\n"
	"		 JOIN pg_catalog.pg_attribute ia ON ia.attrelid = k.indexrelid AND ia.attnum = k.n\n"
	"		 LEFT JOIN pg_catalog.pg_attribute ta ON ta.attrelid = k.indrelid AND ta.attnum = k.attnum\n"
	"		 LEFT JOIN pg_catalog.pg_collation co ON co.oid = k.coll\n"
	"		 LEFT JOIN pg_catalog.pg_namespace cns ON cns.oid = co.collnamespace\n"
	"		 LEFT JOIN mapped m ON m.indexrelid = k.indexrelid AND m.n = k.n\n"
	"		 WHERE k.indexrelid = c.oid),\n"
	"		COALESCE(' WITH (' || (SELECT pg_catalog.string_agg(pg_catalog.format('%I = %L',\n"
	"					pg_catalog.split_part(o, '=', 1), pg_catalog.substr(o, pg_catalog.strpos(o, '=') + 1)), ', ')\n"
	"				 FROM pg_catalog.unnest(c.reloptions) o) || ')', ''),\n"
	"		CASE WHEN c.reltablespace <> 0::pg_catalog.oid\n"
	"			 THEN ' TABLESPACE ' || pg_catalog.quote_ident((SELECT spcname FROM pg_catalog.pg_tablespace WHERE oid = c.reltablespace))\n"
	"			 ELSE '' END,\n"
	"		COALESCE(' WHERE ' || pg_catalog.pg_get_expr(i.indpred, i.indrelid), '')) AS definition,\n"
	"	pg_catalog.obj_description(c.oid, 'pg_class') AS comment,\n"
	"	ARRAY(SELECT pg_catalog.format('%I.%I', hns.nspname, hc.relname)\n"
	"		  FROM pg_catalog.pg_inherits h JOIN pg_catalog.pg_class hc ON hc.oid = h.inhrelid\n"
	"		  JOIN pg_catalog.pg_namespace hns ON hns.oid = hc.relnamespace\n"
	"		  WHERE h.inhparent = c.oid) AS children,\n"
	"	i.indrelid AS on_table\n"
	"FROM (SELECT DISTINCT indexrelid FROM mapped) x\n"
	"JOIN pg_catalog.pg_index i ON i.indexrelid = x.indexrelid\n"
	"JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid\n"
	"JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace\n"
	"JOIN pg_catalog.pg_class t ON t.oid = i.indrelid\n"
	"JOIN pg_catalog.pg_namespace tns ON tns.oid = t.relnamespace\n"
	"JOIN pg_catalog.pg_am am ON am.oid = c.relam\n"
	"JOIN tables tb ON tb.relid = i.indrelid\n"
	"WHERE (SELECT r.indrelid FROM pg_catalog.pg_index r\n"
	"       WHERE r.indexrelid = COALESCE(pg_catalog.pg_partition_root(c.oid)::pg_catalog.oid, c.oid))\n"
	"      IN (SELECT relid FROM tables)\n"
	"ORDER BY tb.pos DESC, c.oid\n";

/* One index that the conversion makes again with ulid's classes. */
typedef struct ConvertIndex
{
	Oid			index;
	Oid			table;
	char	   *name;			/* schema-qualified, quoted */
	bool		partitioned;
	bool		attached;		/* to a partitioned index: dropped with it */
	char	   *definition;
	char	   *comment;		/* or NULL */
	Datum		children;		/* text[]: the partitions' indexes to attach */
} ConvertIndex;

/* The indexes to make again, from convert_index_query; under SPI. */
static ConvertIndex *
convert_indexes(List *relids, const char *col, const char *ext_schema_name, int *n)
{
	Datum	   *oids = palloc(sizeof(Datum) * list_length(relids));
	Oid			argtypes[3] = {OIDARRAYOID, NAMEOID, TEXTOID};
	Datum		args[3];
	NameData	colname;
	ConvertIndex *result;
	int			i = 0;
	ListCell   *lc;

	foreach(lc, relids)
		oids[i++] = ObjectIdGetDatum(lfirst_oid(lc));
	namestrcpy(&colname, col);
	args[0] = PointerGetDatum(construct_array(oids, list_length(relids), OIDOID,
											  sizeof(Oid), true, TYPALIGN_INT));
	args[1] = NameGetDatum(&colname);
	args[2] = CStringGetTextDatum(ext_schema_name);
	if (SPI_execute_with_args(convert_index_query, 3, argtypes, args, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the indexes of column \"%s\"", col);
	*n = (int) SPI_processed;
	result = palloc0(sizeof(ConvertIndex) * Max(*n, 1));
	for (i = 0; i < *n; i++)
	{
		HeapTuple	tuple = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;

		result[i].index = DatumGetObjectId(SPI_getbinval(tuple, desc, 1, &isnull));
		result[i].table = DatumGetObjectId(SPI_getbinval(tuple, desc, 8, &isnull));
		result[i].name = SPI_getvalue(tuple, desc, 3);
		result[i].partitioned = DatumGetBool(SPI_getbinval(tuple, desc, 2, &isnull));
		result[i].attached = DatumGetBool(SPI_getbinval(tuple, desc, 4, &isnull));
		result[i].definition = SPI_getvalue(tuple, desc, 5);
		result[i].comment = SPI_getvalue(tuple, desc, 6);
		result[i].children = SPI_getbinval(tuple, desc, 7, &isnull);
	}
	return result;
}

/*
 * The indexes that ulid_convert_column() would drop and make again with
 * ulid's classes (convert_index_query), for the dry run.
 */
List *
remade_indexes(List *tree, const char *col, Oid fn_oid)
{
	MemoryContext outer = CurrentMemoryContext;
	int			nestlevel = pin_search_path();
	List	   *result = NIL;
	ConvertIndex *indexes;
	int			n;

	SPI_connect();
	indexes = convert_indexes(tree, col, get_namespace_name(get_func_namespace(fn_oid)), &n);
	for (int i = 0; i < n; i++)
	{
		MemoryContext spi = MemoryContextSwitchTo(outer);

		result = lappend_oid(result, indexes[i].index);
		MemoryContextSwitchTo(spi);
	}
	SPI_finish();
	AtEOXact_GUC(true, nestlevel);
	return result;
}

/*
 * Make one index again from its definition, as ALTER TABLE makes again the
 * indexes of a column whose type it changes (ATExecAddIndex() in
 * tablecmds.c): through DefineIndex() without the privilege checks, so that
 * an index in a tablespace or schema where the table's owner may no longer
 * create one comes back where it was, as it would after ALTER TABLE.  A
 * CREATE INDEX statement would check them.
 */
static void
define_index(Oid table, const char *definition)
{
	RawStmt    *raw = linitial_node(RawStmt, raw_parser(definition, RAW_PARSE_DEFAULT));
	IndexStmt  *stmt = transformIndexStmt(table, castNode(IndexStmt, raw->stmt), definition);

#if PG_VERSION_NUM >= 190000
	ParseState *pstate = make_parsestate(NULL);

	pstate->p_sourcetext = definition;
	(void) DefineIndex(pstate, table, stmt, InvalidOid, InvalidOid, InvalidOid, -1,
					   false, false, true, false, false);
#elif PG_VERSION_NUM >= 160000
	(void) DefineIndex(table, stmt, InvalidOid, InvalidOid, InvalidOid, -1,
					   false, false, true, false, false);
#else
	(void) DefineIndex(table, stmt, InvalidOid, InvalidOid, InvalidOid,
					   false, false, true, false, false);
#endif
	CommandCounterIncrement();
}

/*
 * Make the indexes again after the ALTER, children before their parents,
 * with default_tablespace empty: an index without a TABLESPACE clause goes
 * where it was, the database's default, whatever the session's setting.
 */
static void
remake_indexes(ConvertIndex *indexes, int n)
{
	int			nestlevel = NewGUCNestLevel();

	(void) set_config_option("default_tablespace", "", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	for (int i = 0; i < n; i++)
	{
		define_index(indexes[i].table, indexes[i].definition);
		if (indexes[i].comment != NULL)
			run_alter(psprintf("COMMENT ON INDEX %s IS %s", indexes[i].name,
							   quote_literal_cstr(indexes[i].comment)));
		if (indexes[i].partitioned)
		{
			ArrayType  *children = DatumGetArrayTypeP(indexes[i].children);
			Datum	   *names;
			int			nchildren;

			deconstruct_array(children, TEXTOID, -1, false, TYPALIGN_INT,
							  &names, NULL, &nchildren);
			for (int c = 0; c < nchildren; c++)
				run_alter(psprintf("ALTER INDEX %s ATTACH PARTITION %s", indexes[i].name,
								   TextDatumGetCString(names[c])));
		}
	}
	AtEOXact_GUC(true, nestlevel);
}


/*
 * Ownership first, as ALTER TABLE checks it, before taking any lock that
 * would make others wait.
 */
void
check_owner(Oid relid)
{
	char		relkind = get_rel_relkind(relid);

	if (relkind == '\0')
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("relation with OID %u does not exist", relid));
	if (!relation_ownercheck(relid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, get_relkind_objtype(relkind),
					   get_rel_name(relid));
}

/*
 * Check that column col of rel (locked) can be converted, or its default
 * replaced, and refuse with a clear error what cannot.  Returns the column's
 * number; *already_ulid says whether it is of type ulid already.
 */
static AttrNumber
check_column(Relation rel, const char *col, Oid ulid_type, bool *already_ulid)
{
	Oid			relid = RelationGetRelid(rel);
	char		relkind = rel->rd_rel->relkind;
	AttrNumber	attnum;
	Form_pg_attribute att;

	if (relkind == RELKIND_FOREIGN_TABLE)
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("cannot convert a column of foreign table \"%s\"",
					   RelationGetRelationName(rel)),
				errdetail("Only the local declaration would change; the remote column would stay uuid."),
				errhint("Convert the remote column, then change the declaration with ALTER FOREIGN TABLE."));
	if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE)
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("\"%s\" is not a table", RelationGetRelationName(rel)));

	attnum = get_attnum(relid, col);
	if (attnum == InvalidAttrNumber)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_COLUMN),
				errmsg("column \"%s\" of relation \"%s\" does not exist",
					   col, RelationGetRelationName(rel)));
	if (attnum < 0)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("cannot alter system column \"%s\"", col));
	att = TupleDescAttr(RelationGetDescr(rel), attnum - 1);

	if (att->attgenerated != '\0')
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("cannot convert generated column \"%s\"", col),
				errdetail("A generated column has no default to replace."),
				errhint("ALTER TABLE ... ALTER COLUMN ... TYPE ulid converts it with its expression."));

	/*
	 * uuid, or ulid already (then only the default is replaced).  No identity
	 * column is of either type: identity needs an integer.  A domain over
	 * uuid is refused: its constraints would not follow the column to ulid.
	 */
	*already_ulid = OidIsValid(ulid_type) && att->atttypid == ulid_type;
	if (att->atttypid != UUIDOID && !*already_ulid)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column \"%s\" of relation \"%s\" is of type %s, not uuid",
					   col, RelationGetRelationName(rel), format_type_be(att->atttypid)),
				getBaseType(att->atttypid) == UUIDOID ?
				errdetail("A domain's constraints would not apply to the column once it is of type ulid.") : 0);
	/*
	 * A partition's or child's column changes type with its parent's: ALTER
	 * TABLE refuses it alone, and so does this, naming the table to convert.
	 * Already ulid, its own default (and its partitions') can be replaced.
	 */
	if (att->attinhcount > 0 && !*already_ulid)
	{
		if (rel->rd_rel->relispartition)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_TABLE_DEFINITION),
					errmsg("cannot convert inherited column \"%s\"", col),
					errhint("Convert the column of partitioned table \"%s\" instead: that converts every partition.",
							get_rel_name(llast_oid(get_partition_ancestors(relid)))));
		ereport(ERROR,
				errcode(ERRCODE_INVALID_TABLE_DEFINITION),
				errmsg("cannot convert inherited column \"%s\"", col),
				errhint("Convert the column of the table it inherits from instead: that converts every inheriting table."));
	}
	return attnum;
}

/*
 * check_column() of relid (locked, or dropped meanwhile: then an error);
 * whether the column is of type ulid already.
 */
bool
check_table_column(Oid relid, const char *col, Oid ulid_type)
{
	Relation	rel = try_relation_open(relid, NoLock);
	bool		already_ulid;

	if (rel == NULL)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("relation with OID %u does not exist", relid));
	(void) check_column(rel, col, ulid_type, &already_ulid);
	relation_close(rel, NoLock);
	return already_ulid;
}

/*
 * The default of column col of each table of tree, classified before
 * anything changes, from the catalogs (the tables need not be locked).
 * With raise, a default that cannot be converted is an error (the
 * conversion); without, it is returned as UUID_DEFAULT_UNKNOWN (the dry
 * run).
 */
ConvertTarget *
classify_targets(List *tree, Oid relid, const char *col, bool already_ulid, Oid ulid_type,
				 bool raise, int *ntargets)
{
	ConvertTarget *targets = palloc0(sizeof(ConvertTarget) * list_length(tree));
	ListCell   *lc;

	*ntargets = 0;
	foreach(lc, tree)
	{
		ConvertTarget *t = &targets[(*ntargets)++];
		Oid			r = lfirst_oid(lc);
		Node	   *expr = column_default_of(r, get_attnum(r, col));
		Node	   *uuid_expr = already_ulid ? under_cast(expr, UUIDOID) : expr;

		if (get_rel_relkind(r) == RELKIND_FOREIGN_TABLE)
			ereport(ERROR,
					errcode(ERRCODE_WRONG_OBJECT_TYPE),
					errmsg("cannot convert a column of foreign table \"%s\"", get_rel_name(r)),
					errdetail("It inherits column \"%s\" from \"%s\"; only its local declaration would change.",
							  col, get_rel_name(relid)));
		t->relid = r;
		t->old_default = default_text_of(r, expr);
		/* a ulid default that casts no uuid is the column's own: kept */
		t->kind = expr == NULL ? UUID_DEFAULT_NONE :
			uuid_expr == NULL ? UUID_DEFAULT_KEEP : classify_uuid_default(uuid_expr, ulid_type);
		if (t->kind == UUID_DEFAULT_UNCAST)
			t->uncast_expr = under_cast(uuid_expr, ulid_type);
		if (t->kind == UUID_DEFAULT_UNKNOWN && raise)
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("cannot convert the default of column \"%s\" of relation \"%s\"",
						   col, get_rel_name(r)),
					errdetail("The default %s is volatile and is not a uuid generator this function knows (gen_random_uuid(), uuidv4(), uuid-ossp's uuid_generate_v1(), _v1mc(), _v4()).",
							  t->old_default),
					errhint("Drop the default, convert the column, then set the default it should have, such as gen_ulid()."));
	}
	return targets;
}

/*****************************************************************************
 *	The conversion and its dry run
 *****************************************************************************/

/*
 * Refuse what the conversion of column col of relid will not do, or ALTER
 * TABLE would refuse, reading the tables of its tree and the column's
 * dependents from the catalogs: only relid need be locked.  Whether the
 * column is of type ulid already (then only defaults and indexes are
 * repaired, and ALTER TABLE does not run).
 */
static bool
check_conversion(Oid relid, const char *col, Oid ulid_type)
{
	bool		already_ulid = check_table_column(relid, col, ulid_type);
	List	   *tree = find_all_inheritors(relid, NoLock, NULL);
	int			ntargets;
	ListCell   *lc;

	(void) classify_targets(tree, relid, col, already_ulid, ulid_type, true, &ntargets);
	if (already_ulid)
		return true;
	foreach(lc, table_blockers(relid, col))
	{
		ConvertBlocker *b = lfirst(lc);

		ereport(ERROR,
				errcode(b->sqlstate),
				errmsg_internal("%s", b->message),
				b->detail != NULL ? errdetail_internal("%s", b->detail) : 0);
	}
	foreach(lc, column_dependents(tree, col))
		if (dependent_blocks(lfirst(lc)))
			refuse_dependent(lfirst(lc), relid, col);
	return false;
}

/*
 * ulid_convert_column(tab, col): convert column col of table tab from uuid to
 * ulid in place, in the caller's transaction, and replace a default that
 * generates uuids with gen_ulid().  The ALTER TABLE converts the inheriting
 * tables (partitions) too, so each of their defaults is treated the same
 * way.  A column already of type ulid gets only its default replaced: the
 * repair after a plain ALTER COLUMN TYPE.  One row per table: the table, its
 * default before and after.
 *
 * Ownership is checked first, with ALTER TABLE's error, so that no one else
 * waits for a lock.  Then the table alone is locked SHARE UPDATE
 * EXCLUSIVE, which lets reads and writes through but not DDL, and
 * everything the conversion or ALTER TABLE would refuse is refused
 * (check_conversion()) before any other table is locked.  That lock is
 * released before every lock the conversion needs is taken
 * (lock_conversion(), in its order), so that the conversion waits in that
 * order holding nothing: held on the table while lock_conversion() waits
 * for the referencing tables, it would deadlock with a conversion at the
 * other end of a foreign key (which holds the referencing table and waits
 * for this one), and with a transaction that has written the table and
 * then asks for a lock it conflicts with (CREATE INDEX), which a queued
 * request lets go ahead.  Nothing has changed yet, and the checks run
 * again under the full locks; then the statements run with quoted,
 * schema-qualified names.  A refusal leaves the lock to the end of the
 * (sub)transaction, as an ERROR does every lock.
 */
PG_FUNCTION_INFO_V1(ulid_convert_column);
Datum
ulid_convert_column(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *col = NameStr(*PG_GETARG_NAME(1));
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			ext_schema = get_func_namespace(fcinfo->flinfo->fn_oid);
	Oid			ulid_type = extension_ulid_type(fcinfo->flinfo->fn_oid);
	bool		already_ulid;
	List	   *tree;
	ConvertTarget *targets;
	int			ntargets;
	const char *qcol = quote_identifier(col);
	int			nestlevel;

	InitMaterializedSRF(fcinfo, 0);
	check_owner(relid);
	LockRelationOid(relid, ShareUpdateExclusiveLock);
	(void) check_conversion(relid, col, ulid_type);
	UnlockRelationOid(relid, ShareUpdateExclusiveLock);
	tree = lock_conversion(relid, col, ulid_type);
	already_ulid = check_conversion(relid, col, ulid_type);
	targets = classify_targets(tree, relid, col, already_ulid, ulid_type, true, &ntargets);

	if (!already_ulid)
	{
		List	   *pubs = tree_publications(relid, tree);

		if (pubs != NIL)
			ereport(WARNING,
					errcode(ERRCODE_WARNING),
					errmsg_plural("table \"%s\" is published by publication %s",
								  "table \"%s\" is published by publications %s",
								  list_length(pubs), get_rel_name(relid), publication_names(pubs)),
					errdetail("A subscriber whose column \"%s\" is still uuid cannot read the ulid text that a subscription in text mode and every initial table copy send: its apply worker fails until the column is converted there too.",
							  col),
					errhint("Convert the column on each subscriber first: a ulid column there reads rows sent as uuid or as ulid."));
	}

	/*
	 * Drop the generators first, so that no statement leaves a uuid
	 * generator on a ulid column (and the event trigger has nothing to warn
	 * about); convert (recursing, as it must); set gen_ulid().  Everything
	 * from here to SPI_finish() is resolved under pin_search_path(), the
	 * defaults and index definitions to make again deparsed under it too
	 * (the rows returned show the defaults as the caller's search_path does).
	 */
	nestlevel = pin_search_path();
	for (int i = 0; i < ntargets; i++)
		if (targets[i].kind == UUID_DEFAULT_UNCAST)
		{
			Relation	r = relation_open(targets[i].relid, NoLock);

			targets[i].uncast_default = default_text(r, targets[i].uncast_expr);
			relation_close(r, NoLock);
		}
	SPI_connect();
	for (int i = 0; i < ntargets && !already_ulid; i++)
		if (targets[i].kind == UUID_DEFAULT_GENERATOR)
			run_alter(psprintf("ALTER TABLE ONLY %s ALTER COLUMN %s DROP DEFAULT",
							   qualified_relation_name(targets[i].relid), qcol));
	{
		int			nindexes;
		ConvertIndex *indexes = convert_indexes(tree, col, get_namespace_name(ext_schema),
												&nindexes);

		for (int i = 0; i < nindexes; i++)
			if (!indexes[i].attached)
				run_alter(psprintf("DROP INDEX %s", indexes[i].name));
		if (!already_ulid)
			run_alter(psprintf("ALTER TABLE %s ALTER COLUMN %s TYPE %s",
							   qualified_relation_name(relid), qcol,
							   quote_qualified_identifier(get_namespace_name(ext_schema), "ulid")));
		remake_indexes(indexes, nindexes);
	}
	for (int i = 0; i < ntargets; i++)
	{
		if (targets[i].kind == UUID_DEFAULT_GENERATOR)
			run_alter(psprintf("ALTER TABLE ONLY %s ALTER COLUMN %s SET DEFAULT %s()",
							   qualified_relation_name(targets[i].relid), qcol,
							   quote_qualified_identifier(get_namespace_name(ext_schema),
														  "gen_ulid")));
		else if (targets[i].kind == UUID_DEFAULT_UNCAST)
			run_alter(psprintf("ALTER TABLE ONLY %s ALTER COLUMN %s SET DEFAULT %s",
							   qualified_relation_name(targets[i].relid), qcol,
							   targets[i].uncast_default));
	}
	SPI_finish();
	AtEOXact_GUC(true, nestlevel);

	for (int i = 0; i < ntargets; i++)
	{
		Relation	r = relation_open(targets[i].relid, NoLock);
		char	   *new_default = default_text(r, column_default(r, get_attnum(targets[i].relid, col)));
		Datum		values[3];
		bool		nulls[3] = {false, targets[i].old_default == NULL, new_default == NULL};

		values[0] = ObjectIdGetDatum(targets[i].relid);
		values[1] = nulls[1] ? (Datum) 0 : CStringGetTextDatum(targets[i].old_default);
		values[2] = nulls[2] ? (Datum) 0 : CStringGetTextDatum(new_default);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		relation_close(r, NoLock);
	}
	return (Datum) 0;
}
