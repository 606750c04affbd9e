-- PostgreSQL 17+: COPY ... ON_ERROR ignore skips the rows whose ulid is a
-- soft error, UUID spellings included, and loads the canonical UUIDs.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

CREATE TABLE copy_ignore (n int, id ulid);
-- The rows kept, shown below, say which were skipped; the NOTICE that
-- counts them is core's wording, not ulid's, so it is not shown.
SET client_min_messages = warning;
COPY copy_ignore FROM STDIN (ON_ERROR ignore);
1	550e8400-e29b-41d4-a716-446655440000
2	{550e8400-e29b-41d4-a716-446655440001}
3	550E8400-E29B-41D4-A716-446655440002
4	550e8400e29b41d4a716446655440003
5	01ARYZ6S41TSV4RRFFQ69G5FAV
6	550e8400-e29b-41d4-a716-44665544000g
7	550e8400-E29b-41D4-a716-446655440004
\.
COPY copy_ignore FROM STDIN (FORMAT csv, ON_ERROR ignore);
8,550e8400-e29b-41d4-a716-446655440005
9,urn:uuid:550e8400-e29b-41d4-a716-446655440006
10," 550e8400-e29b-41d4-a716-446655440007"
\.
RESET client_min_messages;
-- The rows kept: their uuid text is the text loaded, in lower case.
SELECT n, id, id::uuid FROM copy_ignore ORDER BY n;
DROP TABLE copy_ignore;
