-- Run by bench/run once in each cluster, before any workload.
CREATE EXTENSION ulid;

-- The plan of a query as one text, for the @check blocks that make sure a
-- case measures the plan it names (a Sort, a Hash Join, ...).
CREATE FUNCTION plan_of(query text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
	line text;
	plan text := '';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN ' || query LOOP
		plan := plan || line || E'\n';
	END LOOP;
	RETURN plan;
END
$f$;
