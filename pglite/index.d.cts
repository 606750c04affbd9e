import type { Extension } from '@electric-sql/pglite';

/** The ulid extension for PGlite: `PGlite.create({ extensions: { ulid } })`, then `CREATE EXTENSION ulid`. */
export declare const ulid: Extension;
