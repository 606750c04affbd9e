/*
 * ulid_convert.c
 *		ulid_convert_column(), which turns a uuid column into a ulid column in
 *		place, and the event trigger that warns of uuid generators left as a
 *		ulid column's default.
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

/*****************************************************************************
 *	Converting uuid columns
 *
 *	ulid_convert_column() turns a uuid column into a ulid column in place and
 *	replaces a default that generates uuids with gen_ulid().  The event
 *	trigger function ulid_check_defaults() warns when DDL leaves a ulid
 *	column whose default is such a generator cast to ulid, which is what a
 *	plain ALTER COLUMN ... TYPE ulid does to DEFAULT gen_random_uuid().
 *****************************************************************************/

/* The publications that name a table (19 adds those that name it in EXCEPT). */
#if PG_VERSION_NUM >= 190000
#define relation_publications(relid) GetRelationIncludedPublications(relid)
#else
#define relation_publications(relid) GetRelationPublications(relid)
#endif

/* Whether roleid owns a relation (object_ownercheck() from 16 on). */
#if PG_VERSION_NUM < 160000
#define relation_ownercheck(relid, roleid) pg_class_ownercheck(relid, roleid)
#else
#define relation_ownercheck(relid, roleid) object_ownercheck(RelationRelationId, relid, roleid)
#endif

/* What becomes of a default of type uuid when its column becomes ulid. */
typedef enum UuidDefaultKind
{
	UUID_DEFAULT_NONE,			/* no default */
	UUID_DEFAULT_KEEP,			/* right as a ulid too: converted with the
								 * column */
	UUID_DEFAULT_UNCAST,		/* a ulid expression cast to uuid: becomes
								 * that expression, its cast dropped */
	UUID_DEFAULT_GENERATOR,		/* a uuid generator: becomes gen_ulid() */
	UUID_DEFAULT_UNKNOWN		/* volatile, and no generator we know */
} UuidDefaultKind;

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
static Node *
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
static UuidDefaultKind
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
static Node *
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

/* An expression of a column default of rel as pg_get_expr() shows it, or NULL. */
static char *
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
static int
pin_search_path(void)
{
	int			nestlevel = NewGUCNestLevel();

	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return nestlevel;
}

/* The ulid type of the extension that holds function fn_oid (relocatable). */
static Oid
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
	"		  WHERE h.inhparent = c.oid) AS children\n"
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
		run_alter(indexes[i].definition);
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

/* One table a conversion changes: the named one and each inheriting one. */
typedef struct ConvertTarget
{
	Oid			relid;
	UuidDefaultKind kind;
	char	   *old_default;	/* as pg_get_expr() shows it, or NULL */
	Node	   *uncast_expr;	/* UUID_DEFAULT_UNCAST: the ulid expression */
	char	   *uncast_default; /* and its text, under pin_search_path() */
} ConvertTarget;

/*
 * Ownership first, as ALTER TABLE checks it, before taking any lock that
 * would make others wait.
 */
static void
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
static bool
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
 * anything changes.  With raise, a default that cannot be converted is an
 * error (the conversion); without, it is returned as UUID_DEFAULT_UNKNOWN
 * (the dry run).
 */
static ConvertTarget *
classify_targets(List *tree, Oid relid, const char *col, bool already_ulid, Oid ulid_type,
				 bool raise, int *ntargets)
{
	ConvertTarget *targets = palloc0(sizeof(ConvertTarget) * list_length(tree));
	ListCell   *lc;

	*ntargets = 0;
	foreach(lc, tree)
	{
		ConvertTarget *t = &targets[(*ntargets)++];
		Relation	r = relation_open(lfirst_oid(lc), NoLock);
		Node	   *expr = column_default(r, get_attnum(RelationGetRelid(r), col));
		Node	   *uuid_expr = already_ulid ? under_cast(expr, UUIDOID) : expr;

		if (r->rd_rel->relkind == RELKIND_FOREIGN_TABLE)
			ereport(ERROR,
					errcode(ERRCODE_WRONG_OBJECT_TYPE),
					errmsg("cannot convert a column of foreign table \"%s\"",
						   RelationGetRelationName(r)),
					errdetail("It inherits column \"%s\" from \"%s\"; only its local declaration would change.",
							  col, get_rel_name(relid)));
		t->relid = RelationGetRelid(r);
		t->old_default = default_text(r, expr);
		/* a ulid default that casts no uuid is the column's own: kept */
		t->kind = expr == NULL ? UUID_DEFAULT_NONE :
			uuid_expr == NULL ? UUID_DEFAULT_KEEP : classify_uuid_default(uuid_expr, ulid_type);
		if (t->kind == UUID_DEFAULT_UNCAST)
			t->uncast_expr = under_cast(uuid_expr, ulid_type);
		if (t->kind == UUID_DEFAULT_UNKNOWN && raise)
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("cannot convert the default of column \"%s\" of relation \"%s\"",
						   col, RelationGetRelationName(r)),
					errdetail("The default %s is volatile and is not a uuid generator this function knows (gen_random_uuid(), uuidv4(), uuid-ossp's uuid_generate_v1(), _v1mc(), _v4()).",
							  t->old_default),
					errhint("Drop the default, convert the column, then set the default it should have, such as gen_ulid()."));
		relation_close(r, NoLock);
	}
	return targets;
}

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
static List *
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

/* A table a conversion locks, and why. */
typedef struct ConvertLock
{
	Oid			relid;
	int			depth;			/* how many partition ancestors it has */
	const char *why;
} ConvertLock;

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
static List *
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
static List *
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
static List *
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
static char *
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
static void
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

/*****************************************************************************
 *	The conversion and its dry run
 *****************************************************************************/

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
 * waits for a lock; then every lock the conversion needs is taken
 * (lock_conversion()); every other check runs under them, before anything
 * changes, and refuses what it cannot do safely: the statements then run
 * with quoted, schema-qualified names.
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
	ListCell   *lc;
	const char *qcol = quote_identifier(col);
	int			nestlevel;

	InitMaterializedSRF(fcinfo, 0);
	check_owner(relid);
	tree = lock_conversion(relid, col, ulid_type);
	already_ulid = check_table_column(relid, col, ulid_type);
	targets = classify_targets(tree, relid, col, already_ulid, ulid_type, true, &ntargets);

	if (!already_ulid)
	{
		List	   *pubs = tree_publications(relid, tree);

		foreach(lc, column_dependents(tree, col))
		{
			ObjectAddress *o = lfirst(lc);
			char	   *use;
			char	   *route;

			if (o->classId != PublicationRelRelationId)
				continue;
			publication_column_use(o->objectId, col, &use, &route);
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("cannot convert column \"%s\" of table \"%s\"", col, get_rel_name(relid)),
					errdetail("%s, and ALTER COLUMN TYPE cannot change a column that a publication's column list or row filter names.",
							  use),
					errhint("%s", route));
		}
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

/* One row of the dry run's report. */
static void
report_row(ReturnSetInfo *rsinfo, int *step, const char *action, const char *object,
		   const char *detail)
{
	Datum		values[4];
	bool		nulls[4] = {false, false, false, detail == NULL};

	values[0] = Int32GetDatum(++*step);
	values[1] = CStringGetTextDatum(action);
	values[2] = CStringGetTextDatum(object);
	values[3] = detail == NULL ? (Datum) 0 : CStringGetTextDatum(detail);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

static char *
describe(Oid classid, Oid objid)
{
	ObjectAddress object = {classid, objid, 0};

	return getObjectDescription(&object, false);
}

/*
 * Whether text names the table name as a word (case-insensitively): the
 * dry run's guess at a function whose body uses a table.
 */
static bool
names_word(const char *text, const char *name)
{
	size_t		len = strlen(name);

	for (const char *p = text; *p != '\0'; p++)
	{
		char		before = p == text ? ' ' : p[-1];

		if (pg_strncasecmp(p, name, len) == 0 &&
			!(isalnum((unsigned char) before) || before == '_' || before == '$') &&
			!(isalnum((unsigned char) p[len]) || p[len] == '_' || p[len] == '$'))
			return true;
	}
	return false;
}

/* Functions found by report_functions(), by OID: creation order. */
static int
function_cmp(const ListCell *a, const ListCell *b)
{
	Oid			x = linitial_oid((List *) lfirst(a));
	Oid			y = linitial_oid((List *) lfirst(b));

	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * The functions to review before converting: those written in a language
 * with a body (not C or internal), outside pg_catalog and
 * information_schema, whose body names a table of tree.  A guess from the
 * text: PL/pgSQL's dependencies are not recorded (a function with a
 * SQL-standard body is in pg_depend, and ALTER COLUMN TYPE refuses its
 * column).  Each with what to do.
 */
static void
report_functions(ReturnSetInfo *rsinfo, int *step, List *tree)
{
	Relation	proc = table_open(ProcedureRelationId, AccessShareLock);
	SysScanDesc scan = systable_beginscan(proc, InvalidOid, false, NULL, 0, NULL);
	HeapTuple	tuple;
	List	   *found = NIL;
	ListCell   *lc;

	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_proc p = (Form_pg_proc) GETSTRUCT(tuple);
		bool		isnull;
		Datum		src;
		char	   *body;
		bool		names = false;
		bool		uuid = p->prorettype == UUIDOID;

		if (p->prolang == INTERNALlanguageId || p->prolang == ClanguageId ||
			p->pronamespace == PG_CATALOG_NAMESPACE ||
			p->pronamespace == get_namespace_oid("information_schema", true))
			continue;
		src = heap_getattr(tuple, Anum_pg_proc_prosrc, RelationGetDescr(proc), &isnull);
		if (isnull)
			continue;
		(void) heap_getattr(tuple, Anum_pg_proc_prosqlbody, RelationGetDescr(proc), &isnull);
		if (!isnull)
			continue;			/* in pg_depend: a blocker if it uses the column */
		body = TextDatumGetCString(src);
		foreach(lc, tree)
			names |= names_word(body, get_rel_name(lfirst_oid(lc)));
		if (!names)
			continue;
		for (int i = 0; i < p->pronargs; i++)
			uuid |= p->proargtypes.values[i] == UUIDOID;
		{
			Datum		all = heap_getattr(tuple, Anum_pg_proc_proallargtypes,
										   RelationGetDescr(proc), &isnull);

			if (!isnull)
			{
				Datum	   *types;
				int			ntypes;

				deconstruct_array(DatumGetArrayTypeP(all), OIDOID, sizeof(Oid), true,
								  TYPALIGN_INT, &types, NULL, &ntypes);
				for (int i = 0; i < ntypes; i++)
					uuid |= DatumGetObjectId(types[i]) == UUIDOID;
			}
		}
		found = lappend(found, list_make2_oid(p->oid, (Oid) uuid));
	}
	systable_endscan(scan);
	table_close(proc, AccessShareLock);

	list_sort(found, function_cmp);
	foreach(lc, found)
	{
		List	   *f = lfirst(lc);

		report_row(rsinfo, step, "review", describe(ProcedureRelationId, linitial_oid(f)),
				   lsecond_oid(f) ?
				   "its body names the table and it takes or returns uuid: a uuid it declares for the column no longer matches, change it" :
				   "its body names the table: sessions that ran it before the conversion may fail until they reconnect");
	}
}

/*
 * What a dependent of the column (column_dependents()) becomes in a
 * conversion, as a row of the dry run: rebuilt, checked again (a scan), or a
 * blocker that ALTER COLUMN TYPE refuses.  Constraints of the types it
 * keeps as they are (not-null, from 18 on) give no row.
 */
static void
report_dependent(ReturnSetInfo *rsinfo, int *step, ObjectAddress *o, const char *col)
{
	char	   *what = getObjectDescription(o, true);

	if (what == NULL)
		return;
	switch (o->classId)
	{
		case RelationRelationId:
			{
				char		relkind = get_rel_relkind(o->objectId);

				if (relkind == RELKIND_SEQUENCE)
					return;
				if (o->objectSubId != 0)
					report_row(rsinfo, step, "blocker", what,
							   "a generated column uses the column: ALTER COLUMN TYPE refuses it; drop the generated column, convert, and add it again");
				else if (relkind == RELKIND_INDEX || relkind == RELKIND_PARTITIONED_INDEX)
					report_row(rsinfo, step, "rebuild", what,
							   psprintf("on %s", describe(RelationRelationId,
														  IndexGetRelation(o->objectId, false))));
				else
					report_row(rsinfo, step, "rebuild", what, NULL);
				return;
			}
		case ConstraintRelationId:
			{
				HeapTuple	tuple = SearchSysCache1(CONSTROID, ObjectIdGetDatum(o->objectId));
				Form_pg_constraint con;

				if (!HeapTupleIsValid(tuple))
					return;
				con = (Form_pg_constraint) GETSTRUCT(tuple);
				if (con->contype == CONSTRAINT_FOREIGN)
					report_row(rsinfo, step, con->convalidated ? "revalidate" : "rebuild", what,
							   con->convalidated ?
							   psprintf("a scan of %s, each row looked up in %s",
										describe(RelationRelationId, con->conrelid),
										describe(RelationRelationId, con->confrelid)) :
							   "NOT VALID: added again as it was, with no scan");
				else if (con->contype == CONSTRAINT_CHECK)
					report_row(rsinfo, step, "revalidate", what,
							   psprintf("a scan of %s",
										describe(RelationRelationId, con->conrelid)));
				else if (OidIsValid(con->conindid))
					report_row(rsinfo, step, "rebuild", describe(RelationRelationId, con->conindid),
							   psprintf("the index of %s", what));
				ReleaseSysCache(tuple);
				return;
			}
		case RewriteRelationId:
			report_row(rsinfo, step, "blocker", what,
					   "ALTER COLUMN TYPE refuses a column that a view or rule uses: drop it, convert, and create it again, in one transaction");
			return;
		case ProcedureRelationId:
			report_row(rsinfo, step, "blocker", what,
					   "ALTER COLUMN TYPE refuses a column that a function's SQL-standard body uses: drop it, convert, and create it again, in one transaction");
			return;
		case TriggerRelationId:
			report_row(rsinfo, step, "blocker", what,
					   "ALTER COLUMN TYPE refuses a column that a trigger's WHEN or UPDATE OF uses: drop it, convert, and create it again, in one transaction");
			return;
		case PolicyRelationId:
			report_row(rsinfo, step, "blocker", what,
					   "ALTER COLUMN TYPE refuses a column that a row security policy uses: drop it, convert, and create it again, in one transaction");
			return;
		case PublicationRelRelationId:
			{
				char	   *use;
				char	   *route;

				publication_column_use(o->objectId, col, &use, &route);
				report_row(rsinfo, step, "blocker", what,
						   psprintf("%s: ALTER COLUMN TYPE refuses it. %s", use, route));
				return;
			}
		case StatisticExtRelationId:
			report_row(rsinfo, step, "rebuild", what, "empty until the next ANALYZE");
			return;
		default:
			report_row(rsinfo, step, "rebuild", what, NULL);
			return;
	}
}

/*
 * ulid_convert_column_dry_run(tab, col): what ulid_convert_column(tab, col)
 * would do, one row per step in the order it takes them, changing nothing:
 * the tables it would lock (and why), what would stop it (blockers), the
 * tables converted and defaults replaced, the indexes and statistics
 * rebuilt, the constraints checked again with a scan, the publications
 * that publish the table, and the functions whose body names it.  The same
 * ownership check and column checks as the conversion, with the same
 * errors; the table is locked only as a SELECT locks it.
 */
PG_FUNCTION_INFO_V1(ulid_convert_column_dry_run);
Datum
ulid_convert_column_dry_run(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *col = NameStr(*PG_GETARG_NAME(1));
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			ext_schema = get_func_namespace(fcinfo->flinfo->fn_oid);
	Oid			ulid_type = extension_ulid_type(fcinfo->flinfo->fn_oid);
	bool		already_ulid;
	List	   *tree;
	List	   *locks;
	List	   *dependents;
	ConvertTarget *targets;
	int			ntargets;
	int			step = 0;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	check_owner(relid);
	LockRelationOid(relid, AccessShareLock);
	already_ulid = check_table_column(relid, col, ulid_type);
	locks = conversion_locks(relid, col, ulid_type, &tree);
	targets = classify_targets(tree, relid, col, already_ulid, ulid_type, false, &ntargets);
	dependents = already_ulid ? NIL : column_dependents(tree, col);

	foreach(lc, locks)
	{
		ConvertLock *lock = lfirst(lc);

		report_row(rsinfo, &step, "lock", describe(RelationRelationId, lock->relid),
				   psprintf("ACCESS EXCLUSIVE: %s", lock->why));
	}
	foreach(lc, dependents)
	{
		ObjectAddress *o = lfirst(lc);

		if (o->classId == RewriteRelationId || o->classId == ProcedureRelationId ||
			o->classId == TriggerRelationId || o->classId == PolicyRelationId ||
			o->classId == PublicationRelRelationId ||
			(o->classId == RelationRelationId && o->objectSubId != 0))
			report_dependent(rsinfo, &step, o, col);
	}
	for (int i = 0; i < ntargets; i++)
		if (targets[i].kind == UUID_DEFAULT_UNKNOWN)
		{
			ObjectAddress column = {RelationRelationId, targets[i].relid,
			get_attnum(targets[i].relid, col)};

			report_row(rsinfo, &step, "blocker",
					   psprintf("default of %s", getObjectDescription(&column, false)),
					   psprintf("%s is volatile and not a uuid generator the conversion knows: drop the default, convert, then set the default it should have",
								targets[i].old_default));
		}
	for (int i = 0; i < ntargets && !already_ulid; i++)
		report_row(rsinfo, &step, "convert", describe(RelationRelationId, targets[i].relid),
				   "uuid to ulid in place: no value changes, the table is not rewritten");
	for (int i = 0; i < ntargets; i++)
	{
		const char *to = NULL;

		if (targets[i].kind == UUID_DEFAULT_GENERATOR)
			to = psprintf("%s()", quote_qualified_identifier(get_namespace_name(ext_schema),
															 "gen_ulid"));
		else if (targets[i].kind == UUID_DEFAULT_UNCAST)
		{
			Relation	r = relation_open(targets[i].relid, NoLock);

			to = default_text(r, targets[i].uncast_expr);
			relation_close(r, NoLock);
		}
		if (to != NULL)
			report_row(rsinfo, &step, "default", describe(RelationRelationId, targets[i].relid),
					   psprintf("%s becomes %s", targets[i].old_default, to));
	}
	foreach(lc, dependents)
	{
		ObjectAddress *o = lfirst(lc);

		if (o->classId == RelationRelationId && o->objectSubId == 0)
			report_dependent(rsinfo, &step, o, col);
	}
	foreach(lc, dependents)
	{
		ObjectAddress *o = lfirst(lc);

		if (o->classId != RelationRelationId && o->classId != RewriteRelationId &&
			o->classId != ProcedureRelationId && o->classId != TriggerRelationId &&
			o->classId != PolicyRelationId && o->classId != PublicationRelRelationId)
			report_dependent(rsinfo, &step, o, col);
	}
	if (!already_ulid)
		foreach(lc, tree_publications(relid, tree))
			report_row(rsinfo, &step, "publication", describe(PublicationRelationId, lfirst_oid(lc)),
					   "publishes the table: convert the column on each subscriber first");
	if (!already_ulid)
		report_functions(rsinfo, &step, tree);
	return (Datum) 0;
}

/*
 * Whether a statement can leave a column with a new default: CREATE TABLE
 * (any column), or ALTER TABLE adding a column, setting a default or changing
 * a type (those columns, added to *columns).  Most ALTER TABLEs (constraints,
 * owners, storage), and so most of what a restore runs, stop here.
 */
static bool
statement_sets_defaults(Node *parsetree, List **columns)
{
	ListCell   *lc;

	*columns = NIL;
	/*
	 * Any CREATE TABLE: by ddl_command_end its statement no longer shows
	 * whether a LIKE copied defaults (the parse tree has been transformed in
	 * place on some majors), so it is not used to skip the check.  CREATE
	 * SCHEMA may hold CREATE TABLEs: the trigger sees only the CREATE SCHEMA,
	 * and the tables among the commands it reports.
	 */
	if (IsA(parsetree, CreateStmt) || IsA(parsetree, CreateForeignTableStmt) ||
		IsA(parsetree, CreateSchemaStmt))
		return true;
	if (!IsA(parsetree, AlterTableStmt))
		return false;
	foreach(lc, ((AlterTableStmt *) parsetree)->cmds)
	{
		AlterTableCmd *cmd = lfirst_node(AlterTableCmd, lc);

		if (cmd->subtype == AT_AddColumn)
			*columns = lappend(*columns, ((ColumnDef *) cmd->def)->colname);
		else if (cmd->subtype == AT_ColumnDefault || cmd->subtype == AT_AlterColumnType)
			*columns = lappend(*columns, cmd->name);
	}
	return *columns != NIL;
}

/*
 * Warn about each ulid column, of the tables the command created or altered,
 * whose default is a uuid generator cast to ulid.  columns, if not NIL,
 * limits the check to the columns the statement named.  A column that a
 * CREATE TABLE took from a parent (INHERITS, PARTITION OF) and does not
 * declare itself has the parent's default, which was warned about where it
 * was set, and whose hint converts the inheriting tables too: once a
 * default, not once a table.  (pg_restore makes an inheriting table, then
 * sets its inherited column's default again with ALTER TABLE ONLY: that one
 * warning is its column's.)
 */
static void
warn_uuid_defaults(Oid ulid_type, List *columns)
{
	List	   *relids = NIL;
	ListCell   *lc;
	int			nestlevel = pin_search_path();

	SPI_connect();
	if (SPI_execute("SELECT classid, objid FROM pg_catalog.pg_event_trigger_ddl_commands()",
					false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_event_trigger_ddl_commands()");
	AtEOXact_GUC(true, nestlevel);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		Oid			classid = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i],
															 SPI_tuptable->tupdesc, 1, &isnull));
		Oid			objid = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i],
														   SPI_tuptable->tupdesc, 2, &isnull));
		char		relkind = classid == RelationRelationId ? get_rel_relkind(objid) : '\0';

		if (relkind == RELKIND_RELATION || relkind == RELKIND_PARTITIONED_TABLE ||
			relkind == RELKIND_FOREIGN_TABLE)
			relids = list_append_unique_oid(relids, objid);
	}

	/* The command holds a lock on each: AccessShareLock does not wait. */
	foreach(lc, relids)
	{
		Relation	rel = relation_open(lfirst_oid(lc), AccessShareLock);
		TupleDesc	desc = RelationGetDescr(rel);

		for (int i = 0; i < desc->natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(desc, i);
			const char *name = NameStr(att->attname);
			Node	   *uuid_expr;
			UuidDefaultKind kind;
			ListCell   *c;
			bool		named = columns == NIL;
			char	   *table;

			/* a ulid column, or one of a domain over ulid */
			if (att->attisdropped || !att->atthasdef ||
				(att->atttypid != ulid_type && getBaseType(att->atttypid) != ulid_type))
				continue;
			if (columns == NIL && !att->attislocal)
				continue;		/* inherited by CREATE TABLE */
			foreach(c, columns)
				named |= strcmp(lfirst(c), name) == 0;
			if (!named)
				continue;
			uuid_expr = under_cast(column_default(rel, att->attnum), UUIDOID);
			if (uuid_expr == NULL)
				continue;
			kind = classify_uuid_default(uuid_expr, ulid_type);
			if (kind == UUID_DEFAULT_KEEP || kind == UUID_DEFAULT_UNCAST)
				continue;
			table = DatumGetCString(DirectFunctionCall1(regclassout,
														ObjectIdGetDatum(RelationGetRelid(rel))));
			ereport(WARNING,
					errcode(ERRCODE_WARNING),
					errmsg("default of ulid column \"%s\" of table \"%s\" generates uuids",
						   name, RelationGetRelationName(rel)),
					errdetail("The default %s returns uuid values, which the cast to ulid keeps byte for byte: their ulid_time() is not the time of the insert.",
							  default_text(rel, uuid_expr)),
					/* ulid_convert_column() takes no column of a domain */
					att->atttypid == ulid_type ?
					errhint("Replace it: SELECT * FROM ulid_convert_column(%s, %s), or ALTER TABLE %s ALTER COLUMN %s SET DEFAULT gen_ulid().",
							quote_literal_cstr(table), quote_literal_cstr(name),
							table, quote_identifier(name)) :
					errhint("Replace it: ALTER TABLE %s ALTER COLUMN %s SET DEFAULT gen_ulid().",
							table, quote_identifier(name)));
		}
		relation_close(rel, AccessShareLock);
	}
	SPI_finish();
}

/*
 * The event trigger on ddl_command_end: warn_uuid_defaults() for the
 * statements that can set a default.  It must never make DDL fail, so the
 * check runs in a subtransaction and an error in it becomes a WARNING (a
 * cancel is still a cancel).  DDL only: nothing here runs on INSERT.
 */
PG_FUNCTION_INFO_V1(ulid_check_defaults);
Datum
ulid_check_defaults(PG_FUNCTION_ARGS)
{
	MemoryContext oldcontext = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	List	   *columns;
	Oid			ulid_type;

	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		ereport(ERROR,
				errcode(ERRCODE_E_R_I_E_EVENT_TRIGGER_PROTOCOL_VIOLATED),
				errmsg("ulid_check_defaults() was not called by an event trigger"));
	if (!statement_sets_defaults(((EventTriggerData *) fcinfo->context)->parsetree, &columns))
		PG_RETURN_VOID();
	ulid_type = extension_ulid_type(fcinfo->flinfo->fn_oid);
	if (!OidIsValid(ulid_type))
		PG_RETURN_VOID();

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcontext);
	PG_TRY();
	{
		warn_uuid_defaults(ulid_type, columns);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(oldcontext);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED)
			ReThrowError(edata);
		ereport(WARNING,
				errcode(ERRCODE_WARNING),
				errmsg("could not check the defaults of ulid columns"),
				errdetail("%s", edata->message));
	}
	PG_END_TRY();
	PG_RETURN_VOID();
}
