/* ulid--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.1'" to load this file. \quit

-- 1.1's install script creates the BRIN minmax-multi and bloom operator
-- classes with plain DDL rather than in a DO block, so that CREATE EXTENSION
-- works in a database without PL/pgSQL.  An installation of 1.0 on any
-- supported major (15 and later) has them already: nothing to change here.
