/*
 * ulid_uuid.c
 *		Comparison with uuid: the planner support that lets an index on a
 *		uuid column serve a comparison with a ulid value.
 */
#include "postgres.h"

/* Some of these reach headers with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "catalog/pg_type_d.h"
#include "nodes/nodeFuncs.h"
#include "utils/fmgroids.h"
#pragma GCC diagnostic pop

#include "ulid.h"

/*****************************************************************************
 *	Comparison with uuid
 *****************************************************************************/

/*
 * The SQL functions behind the ulid/uuid operators are the same-type C
 * functions above: a uuid is the same 16 bytes in the same order.
 *
 * Planner support for them.  The ulid operator families hold the cross-type
 * operators, so an index on a ulid column serves a uuid value directly.  An
 * index on a uuid column has core's uuid_ops, which knows nothing of ulid:
 * asked about "uuid_col < ulid_value" (or "ulid_value > uuid_col"), this
 * answers with "uuid_col < ulid_value::uuid" in the index's own operator,
 * an exact equivalent (not lossy), so that index is used too.
 */

PG_FUNCTION_INFO_V1(ulid_uuid_support);
Datum
ulid_uuid_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestIndexCondition *req;
	OpExpr	   *clause = ulid_support_clause(rawreq, &req);
	Node	   *key;
	Node	   *value;
	const char *prosrc;
	int			strategy;
	static const Oid uuid_functions[BTMaxStrategyNumber] = {
		F_UUID_LT, F_UUID_LE, F_UUID_EQ, F_UUID_GE, F_UUID_GT
	};
	Oid			uuid_op;
	RelabelType *relabel;
	OpExpr	   *result;

	if (clause == NULL)
		PG_RETURN_POINTER(NULL);
	key = (Node *) list_nth(clause->args, req->indexarg);
	value = (Node *) list_nth(clause->args, 1 - req->indexarg);
	/* A uuid index column; the other argument is then the ulid. */
	if (exprType(key) != UUIDOID ||
		req->index->opcintype[req->indexcol] != UUIDOID)
		PG_RETURN_POINTER(NULL);

	/*
	 * What the clause means, from the C function it calls (not from the
	 * operator's name, which anyone can give to any function), seen from the
	 * index key's side.  By its symbol's name: comparing function addresses
	 * could be fooled by another library exporting the same names.
	 */
	prosrc = ulid_function_symbol(clause->opfuncid);
	if (prosrc == NULL)
		PG_RETURN_POINTER(NULL);
	if (strcmp(prosrc, "ulid_lt") == 0)
		strategy = BTLessStrategyNumber;
	else if (strcmp(prosrc, "ulid_le") == 0)
		strategy = BTLessEqualStrategyNumber;
	else if (strcmp(prosrc, "ulid_eq") == 0)
		strategy = BTEqualStrategyNumber;
	else if (strcmp(prosrc, "ulid_ge") == 0)
		strategy = BTGreaterEqualStrategyNumber;
	else if (strcmp(prosrc, "ulid_gt") == 0)
		strategy = BTGreaterStrategyNumber;
	else
		PG_RETURN_POINTER(NULL);
	if (req->indexarg == 1)
		strategy = BTMaxStrategyNumber + 1 - strategy;	/* < and >, <= and >= swap */

	/* The family's operator with core's uuid function of that meaning. */
	uuid_op = ulid_family_operator(req->opfamily, UUIDOID, uuid_functions[strategy - 1], NULL);
	if (!OidIsValid(uuid_op))
		PG_RETURN_POINTER(NULL);

	/* key uuid_op value::uuid */
	relabel = makeNode(RelabelType);
	relabel->arg = (Expr *) value;
	relabel->resulttype = UUIDOID;
	relabel->resulttypmod = -1;
	relabel->resultcollid = InvalidOid;
	relabel->relabelformat = COERCE_IMPLICIT_CAST;
	relabel->location = -1;
	result = makeNode(OpExpr);
	result->opno = uuid_op;
	result->opfuncid = InvalidOid;
	result->opresulttype = BOOLOID;
	result->opretset = false;
	result->opcollid = InvalidOid;
	result->inputcollid = InvalidOid;
	result->args = list_make2(key, relabel);
	result->location = -1;

	req->lossy = false;
	PG_RETURN_POINTER(list_make1(result));
}
