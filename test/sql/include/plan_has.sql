-- pg_temp.plan_has(query, node): whether the plan of a query contains a node
-- (a substring of one EXPLAIN line), without depending on how a version
-- prints the rest.  Included by the suites that assert plans.
CREATE FUNCTION pg_temp.plan_has(query text, node text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		IF position(node IN line) > 0 THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END $$;
