-- pg_temp.outcome(query): the one value a query returns, as text, or the
-- SQLSTATE, message and detail of its error, so that one row shows an
-- error case.  Included by the suites that test functions' errors.
CREATE FUNCTION pg_temp.outcome(query text,
	OUT result text, OUT code text, OUT message text, OUT detail text)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query INTO result;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE,
		message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
END $$;
