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

-- A UUID in its canonical form, any case, is valid; other spellings are soft
-- errors with the same detail as the hard ones.
SELECT pg_input_is_valid('550e8400-e29b-41d4-a716-446655440000', 'ulid');
SELECT pg_input_is_valid('550E8400-E29B-41D4-A716-446655440000', 'ulid');
SELECT pg_input_is_valid('550e8400-E29B-41d4-a716-446655440000', 'ulid');
SELECT pg_input_is_valid('{550e8400-e29b-41d4-a716-446655440000}', 'ulid');
SELECT * FROM pg_input_error_info('550e8400-e29b-41d4-a716-446655440000', 'ulid');
SELECT * FROM pg_input_error_info('{550e8400-e29b-41d4-a716-446655440000}', 'ulid');
SELECT * FROM pg_input_error_info('550e8400e29b41d4a716446655440000', 'ulid');
SELECT * FROM pg_input_error_info('urn:uuid:550e8400-e29b-41d4-a716-446655440000', 'ulid');
SELECT * FROM pg_input_error_info('550e8400-e29b-41d4-a716-44665544000g', 'ulid');
SELECT * FROM pg_input_error_info('550e8400-e29b-41d4-a716_446655440000', 'ulid');
SELECT * FROM pg_input_error_info('550e8400-e29b-41d4-a716-44665544000', 'ulid');
SELECT * FROM pg_input_error_info('01ARYZ6S41TSV4RRFFQ69G5FAé', 'ulid');
