-- PostgreSQL 18 on: the library names itself and its version
-- (PG_MODULE_MAGIC_EXT), as pg_get_loaded_modules() shows.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

SELECT gen_ulid() IS NOT NULL AS loaded;
SELECT module_name, file_name,
	version = (SELECT default_version FROM pg_available_extensions WHERE name = 'ulid')
		AS version_is_the_extensions
FROM pg_get_loaded_modules() WHERE module_name = 'ulid';
