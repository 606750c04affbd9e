-- PostgreSQL 16+: ulid_in reports soft errors, so these never raise.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

SELECT pg_input_is_valid('01ARYZ6S41TSV4RRFFQ69G5FAV', 'ulid');
SELECT pg_input_is_valid('01ARYZ6S41TSV4RRFFQ69G5FA', 'ulid');
SELECT * FROM pg_input_error_info('01ARYZ6S41TSV4RRFFQ69G5FA', 'ulid');
SELECT * FROM pg_input_error_info('01ARYZ6S41TSV4RRFFQ69G5FAU', 'ulid');
SELECT * FROM pg_input_error_info('81ARYZ6S41TSV4RRFFQ69G5FAV', 'ulid');
SELECT * FROM pg_input_error_info('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'ulid');
