-- pg_temp.parse(input): input read as a ulid and written back as text, or
-- the SQLSTATE, message and detail of the error, so that one row shows an
-- error case.  Included by the suites that test text input.
CREATE FUNCTION pg_temp.parse(input text,
	OUT result text, OUT code text, OUT message text, OUT detail text)
LANGUAGE plpgsql AS $$
BEGIN
	result := input::ulid::text;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE,
		message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
END $$;
