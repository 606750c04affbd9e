/*
 * ulid_public.c
 *		Public ids: ulid_encrypt() and ulid_decrypt(), under a key the caller
 *		passes or under the server's key (ulid.public_id_key_file).
 *
 * A public id is the ULID's 16 bytes enciphered as one AES-128 block
 * (FIPS-197) under a 16-byte key: no mode, no padding, no IV.  A block
 * cipher is a permutation, so distinct ids have distinct public ids, and
 * without the key a public id tells nothing of the time or the order.  The
 * cipher is OpenSSL's libcrypto, which the server links already; there is
 * no cipher of our own.  A build without OpenSSL (PGlite's) uses pgcrypto's
 * library instead, where it is installed, and raises feature_not_supported
 * where it is not.
 *
 * The server's keys are read from a file that only the server's operating
 * system user may read, named by ulid.public_id_key_file: one key a line as
 * 32 hexadecimal digits, the first the current key, the others previous keys
 * that ulid_decrypt_all() still tries.  The key is so never a setting's value
 * (a setting read from the configuration file before this library loads is a
 * placeholder that SHOW gives to every role), never a function argument, and
 * never in a statement, a plan or a log.  The file is checked once a
 * transaction, at the first call that needs it, and read again when it is
 * another file or it changed, so a key is rotated by replacing the file.
 *
 * The key schedule is made once per call site and key: it is kept in
 * fn_extra with the key it was made from and made again only when a call
 * brings another key, so that a query over a million rows with one key
 * schedules it once.  Its OpenSSL contexts are freed with the memory context
 * that holds them.
 *
 * No message says anything of a key but its length, and a key is never
 * copied anywhere else than into those contexts and the server's key cache.
 */
#include "postgres.h"

#include <sys/stat.h>
#include <unistd.h>

#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/array.h"
#include "utils/builtins.h"
/* guc.h reaches a header with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "utils/guc.h"
#pragma GCC diagnostic pop
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/uuid.h"

#include "ulid.h"
#include "ulid_uuidtext.h"

#ifdef ULID_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

#define ULID_KEY_LEN	16

/* The most keys a key file may hold: the current one and previous ones. */
#define ULID_MAX_KEYS	16

/* Raise invalid_parameter_value unless the key is 16 bytes; shows no byte of it. */
static const uint8 *
checked_key(bytea *key)
{
	if (VARSIZE_ANY_EXHDR(key) != ULID_KEY_LEN)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("key must be %d bytes, not %d",
					   ULID_KEY_LEN, (int) VARSIZE_ANY_EXHDR(key)),
				errdetail("ulid_encrypt and ulid_decrypt use AES-128, whose key is %d bytes.",
						  ULID_KEY_LEN));
	return (const uint8 *) VARDATA_ANY(key);
}

#ifdef ULID_HAVE_OPENSSL

/*****************************************************************************
 *	The cipher
 *****************************************************************************/

/* One key's schedule at a call site. */
typedef struct UlidCipherSlot
{
	EVP_CIPHER_CTX *ctx;
	bool		ready;			/* ctx holds the schedule of key */
	uint8		key[ULID_KEY_LEN];
} UlidCipherSlot;

/* A call site's ciphers: a slot for each key it has used, in key order. */
typedef struct UlidCipher
{
	MemoryContextCallback free_ctx;
	Oid			element_type;	/* ulid, for ulid_decrypt_all's array */
	UlidCipherSlot slot[ULID_MAX_KEYS];
} UlidCipher;

/* Free the OpenSSL contexts with the memory context of the call site. */
static void
free_cipher(void *arg)
{
	UlidCipher *c = (UlidCipher *) arg;

	for (int i = 0; i < ULID_MAX_KEYS; i++)
		EVP_CIPHER_CTX_free(c->slot[i].ctx);
	explicit_bzero(c->slot, sizeof(c->slot));
}

static void
openssl_failed(const char *what)
{
	ereport(ERROR,
			errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
			errmsg("could not %s an AES-128 key with OpenSSL", what));
}

/* The call site's ciphers, made at its first call. */
static UlidCipher *
call_site_cipher(FunctionCallInfo fcinfo)
{
	UlidCipher *c = (UlidCipher *) fcinfo->flinfo->fn_extra;

	if (c == NULL)
	{
		c = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(UlidCipher));
		c->free_ctx.func = free_cipher;
		c->free_ctx.arg = c;
		MemoryContextRegisterResetCallback(fcinfo->flinfo->fn_mcxt, &c->free_ctx);
		fcinfo->flinfo->fn_extra = c;
	}
	return c;
}

/*
 * Forget the keys of the slots from first on: a key removed from the key file
 * is kept by no call site that outlives the file's change.
 */
static void
forget_slots_from(UlidCipher *c, int first)
{
	for (int i = first; i < ULID_MAX_KEYS && c->slot[i].ready; i++)
	{
		c->slot[i].ready = false;
		explicit_bzero(c->slot[i].key, ULID_KEY_LEN);
		EVP_CIPHER_CTX_reset(c->slot[i].ctx);
	}
}

/*
 * Encipher (encrypt) or decipher the block in into out under key, with the
 * schedule kept in the call site's slot.
 */
static void
aes128_block(FunctionCallInfo fcinfo, int slot, bool encrypt, const uint8 *key,
			 const uint8 *in, uint8 *out)
{
	UlidCipherSlot *s = &call_site_cipher(fcinfo)->slot[slot];
	int			outlen = 0;

	if (s->ctx == NULL)
	{
		s->ctx = EVP_CIPHER_CTX_new();
		if (s->ctx == NULL)
			openssl_failed("allocate a context for");
	}
	if (!s->ready || memcmp(s->key, key, ULID_KEY_LEN) != 0)
	{
		s->ready = false;
		if (EVP_CipherInit_ex(s->ctx, EVP_aes_128_ecb(), NULL, key, NULL, encrypt ? 1 : 0) != 1 ||
			EVP_CIPHER_CTX_set_padding(s->ctx, 0) != 1)
			openssl_failed("schedule");
		memcpy(s->key, key, ULID_KEY_LEN);
		s->ready = true;
	}

	/*
	 * One whole block with no padding: the update writes the 16 bytes and
	 * leaves nothing for a final call, and the context is ready for the next
	 * block as it was.
	 */
	if (EVP_CipherUpdate(s->ctx, out, &outlen, in, ULID_LEN) != 1 || outlen != ULID_LEN)
		openssl_failed("use");
}

#else

/*****************************************************************************
 *	The cipher, where OpenSSL is not linked: pgcrypto's
 *****************************************************************************/

/*
 * A build without OpenSSL (PGlite's) enciphers through pgcrypto's library,
 * which carries an AES of its own: its encrypt(data, key, 'aes-ecb/pad:none')
 * and decrypt(), called as C functions of the library loaded from $libdir.
 * The library needs only to be there (in PGlite: extensions: { pgcrypto }),
 * not CREATE EXTENSION pgcrypto, so no function is looked up by name and no
 * schema or search_path is involved.  A 16-byte key is AES-128 there too,
 * one block without padding: the same public ids as OpenSSL's.
 */
static PGFunction pgcrypto_cipher[2];	/* decrypt, encrypt */

static void
aes128_block(FunctionCallInfo fcinfo, int slot, bool encrypt, const uint8 *key,
			 const uint8 *in, uint8 *out)
{
	bytea	   *data = palloc(VARHDRSZ + ULID_LEN);
	bytea	   *k = palloc(VARHDRSZ + ULID_KEY_LEN);
	bytea	   *result;

	(void) slot;
	if (pgcrypto_cipher[encrypt] == NULL)
	{
		MemoryContext cxt = CurrentMemoryContext;

		PG_TRY();
		{
			pgcrypto_cipher[encrypt] = load_external_function("$libdir/pgcrypto",
															  encrypt ? "pg_encrypt" : "pg_decrypt",
															  true, NULL);
		}
		PG_CATCH();
		{
			ErrorData  *e;

			MemoryContextSwitchTo(cxt);
			e = CopyErrorData();
			FlushErrorState();
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("%s needs pgcrypto's library in this build of ulid",
						   get_func_name(fcinfo->flinfo->fn_oid)),
					errdetail("It was built without OpenSSL and enciphers with pgcrypto's AES, "
							  "whose library did not load: %s", e->message),
					errhint("In PGlite, load pgcrypto beside ulid: extensions: { ulid, pgcrypto }."));
		}
		PG_END_TRY();
	}
	SET_VARSIZE(data, VARHDRSZ + ULID_LEN);
	memcpy(VARDATA(data), in, ULID_LEN);
	SET_VARSIZE(k, VARHDRSZ + ULID_KEY_LEN);
	memcpy(VARDATA(k), key, ULID_KEY_LEN);
	result = DatumGetByteaPP(DirectFunctionCall3(pgcrypto_cipher[encrypt], PointerGetDatum(data),
												 PointerGetDatum(k),
												 CStringGetTextDatum("aes-ecb/pad:none")));
	explicit_bzero(VARDATA(k), ULID_KEY_LEN);
	pfree(k);
	if (VARSIZE_ANY_EXHDR(result) != ULID_LEN)
		elog(ERROR, "pgcrypto gave %d bytes for a block of %d", (int) VARSIZE_ANY_EXHDR(result), ULID_LEN);
	memcpy(out, VARDATA_ANY(result), ULID_LEN);
}

#endif

/*****************************************************************************
 *	The server's keys
 *****************************************************************************/

/* ulid.public_id_key_file: the file of the server's keys ("" for none). */
static char *public_id_key_file = NULL;

/* The keys last read, and what identified the file they were read from. */
typedef struct ServerKeys
{
	int			count;			/* 0 until a file was read */
	uint8		key[ULID_MAX_KEYS][ULID_KEY_LEN];
	char		path[MAXPGPATH];
	dev_t		dev;
	ino_t		ino;
	off_t		size;
	struct timespec mtime;
	struct timespec ctime;
} ServerKeys;

static ServerKeys server_keys;

/* Whether this transaction has checked the file already. */
static bool server_keys_checked = false;

/* A key file is a few lines; anything much larger is not one. */
#define KEY_FILE_MAX_BYTES	4096

/* At the end of each transaction, the next call checks the file again. */
static void
server_keys_xact_callback(XactEvent event, void *arg)
{
	(void) event;
	(void) arg;
	server_keys_checked = false;
}

/* Raise config_file_error about the key file, with a detail. */
static void
key_file_error(const char *path, const char *detail)
{
	ereport(ERROR,
			errcode(ERRCODE_CONFIG_FILE_ERROR),
			errmsg("public id key file \"%s\" cannot be used", path),
			errdetail("%s", detail));
}

/*
 * Parse the keys out of text (len bytes): a key a line as 32 hexadecimal
 * digits, blank lines and lines starting with # ignored, spaces around a key
 * allowed.  Returns how many; raises on anything else, naming the line but
 * none of its characters.
 */
static int
parse_key_file(const char *path, const char *text, int len,
			   uint8 keys[ULID_MAX_KEYS][ULID_KEY_LEN])
{
	int			count = 0;
	int			line = 0;
	int			pos = 0;

	while (pos < len)
	{
		int			start,
					end,
					next;

		line++;
		end = pos;
		while (end < len && text[end] != '\n')
			end++;
		next = end + 1;
		start = pos;
		while (start < end && (text[start] == ' ' || text[start] == '\t'))
			start++;
		while (end > start && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r'))
			end--;
		pos = next;
		if (start == end || text[start] == '#')
			continue;

		if (end - start != 2 * ULID_KEY_LEN)
			key_file_error(path, psprintf("Line %d is not a key: a key is 32 hexadecimal digits.", line));
		if (count == ULID_MAX_KEYS)
			key_file_error(path, psprintf("It holds more than %d keys.", ULID_MAX_KEYS));
		for (int i = 0; i < ULID_KEY_LEN; i++)
		{
			int			hi = ulid_hex_value((unsigned char) text[start + 2 * i]);
			int			lo = ulid_hex_value((unsigned char) text[start + 2 * i + 1]);

			if (hi < 0 || lo < 0)
				key_file_error(path, psprintf("Line %d is not a key: a key is 32 hexadecimal digits.", line));
			keys[count][i] = (uint8) (hi << 4 | lo);
		}
		count++;
	}
	if (count == 0)
		key_file_error(path, "It holds no key.");
	return count;
}

/* Whether st describes the file the cached keys were read from, unchanged. */
static bool
same_key_file(const char *path, const struct stat *st)
{
	return server_keys.count > 0 &&
		strcmp(server_keys.path, path) == 0 &&
		server_keys.dev == st->st_dev &&
		server_keys.ino == st->st_ino &&
		server_keys.size == st->st_size &&
		server_keys.mtime.tv_sec == st->st_mtim.tv_sec &&
		server_keys.mtime.tv_nsec == st->st_mtim.tv_nsec &&
		server_keys.ctime.tv_sec == st->st_ctim.tv_sec &&
		server_keys.ctime.tv_nsec == st->st_ctim.tv_nsec;
}

/*
 * The server's keys, the current one first: the cache, after checking once
 * a transaction that the file is the one they were read from; else read
 * again.  Raises when no file is set or it cannot be used; the cache then
 * stays as it was and is not used until a check succeeds.
 */
static const ServerKeys *
current_server_keys(void)
{
	const char *path = public_id_key_file;
	struct stat st;
	int			fd;
	char		text[KEY_FILE_MAX_BYTES + 1];
	int			len;
	uint8		keys[ULID_MAX_KEYS][ULID_KEY_LEN];
	int			count;

	if (server_keys_checked)
		return &server_keys;

	if (path == NULL || path[0] == '\0')
		ereport(ERROR,
				errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				errmsg("no key for public ids is configured"),
				errhint("Set ulid.public_id_key_file to a file that holds the key as 32 hexadecimal digits, then reload the configuration."));
	if (strlen(path) >= MAXPGPATH)
		key_file_error(path, "Its name is too long.");

	/*
	 * Non-blocking, so that a FIFO or a device named by mistake is refused
	 * below instead of holding the backend in open(); a regular file reads
	 * as usual.
	 */
	fd = OpenTransientFile(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				errcode_for_file_access(),
				errmsg("could not open public id key file \"%s\": %m", path));
	if (fstat(fd, &st) != 0)
		ereport(ERROR,
				errcode_for_file_access(),
				errmsg("could not stat public id key file \"%s\": %m", path));

	if (same_key_file(path, &st))
	{
		CloseTransientFile(fd);
		server_keys_checked = true;
		return &server_keys;
	}

	/*
	 * The rule of the server's own private key files (ssl_key_file): owned
	 * by the server's user and closed to everyone else, or owned by root and
	 * readable by at most its group.
	 */
	if (!S_ISREG(st.st_mode))
		key_file_error(path, "It is not a regular file.");
	if (st.st_uid != geteuid() && st.st_uid != 0)
		key_file_error(path, "It must be owned by the database server's operating system user or by root.");
	if ((st.st_uid == geteuid() && (st.st_mode & (S_IRWXG | S_IRWXO)) != 0) ||
		(st.st_uid == 0 && (st.st_mode & (S_IWGRP | S_IXGRP | S_IRWXO)) != 0))
		key_file_error(path, "Others can access it: it must have permissions u=rw (0600) or less if owned by the database server's user, or u=rw,g=r (0640) or less if owned by root.");
	if (st.st_size > KEY_FILE_MAX_BYTES)
		key_file_error(path, psprintf("It is larger than %d bytes.", KEY_FILE_MAX_BYTES));

	len = read(fd, text, KEY_FILE_MAX_BYTES + 1);
	if (len < 0)
		ereport(ERROR,
				errcode_for_file_access(),
				errmsg("could not read public id key file \"%s\": %m", path));
	CloseTransientFile(fd);
	if (len > KEY_FILE_MAX_BYTES)
	{
		explicit_bzero(text, sizeof(text));
		key_file_error(path, psprintf("It is larger than %d bytes.", KEY_FILE_MAX_BYTES));
	}

	/* Whatever happens, no copy of a key is left on the stack. */
	PG_TRY();
	{
		count = parse_key_file(path, text, len, keys);
	}
	PG_CATCH();
	{
		explicit_bzero(text, sizeof(text));
		explicit_bzero(keys, sizeof(keys));
		PG_RE_THROW();
	}
	PG_END_TRY();
	explicit_bzero(text, sizeof(text));

	explicit_bzero(server_keys.key, sizeof(server_keys.key));
	memcpy(server_keys.key, keys, sizeof(keys));
	explicit_bzero(keys, sizeof(keys));
	server_keys.count = count;
	strlcpy(server_keys.path, path, MAXPGPATH);
	server_keys.dev = st.st_dev;
	server_keys.ino = st.st_ino;
	server_keys.size = st.st_size;
	server_keys.mtime = st.st_mtim;
	server_keys.ctime = st.st_ctim;
	server_keys_checked = true;
	return &server_keys;
}


/*
 * Define ulid.public_id_key_file, at every load of the library.  Only the
 * server's configuration sets it (PGC_SIGHUP): no session can point the
 * functions at a file of its choosing.
 */
void
ulid_public_id_init(void)
{
	DefineCustomStringVariable("ulid.public_id_key_file",
							   "File of the keys of ulid_encrypt(id) and ulid_decrypt(public_id).",
							   "One key a line as 32 hexadecimal digits, the current key first. "
							   "Only the server's operating system user may read the file.",
							   &public_id_key_file,
							   "",
							   PGC_SIGHUP,
							   0,
							   NULL, NULL, NULL);
	RegisterXactCallback(server_keys_xact_callback, NULL);
}

/*****************************************************************************
 *	The functions
 *****************************************************************************/

/* The public id of a ulid under a key the caller gives. */
PG_FUNCTION_INFO_V1(ulid_encrypt);
Datum
ulid_encrypt(PG_FUNCTION_ARGS)
{
	Ulid	   *id = PG_GETARG_ULID_P(0);
	const uint8 *key = checked_key(PG_GETARG_BYTEA_PP(1));
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	aes128_block(fcinfo, 0, true, key, id->data, result->data);
	PG_RETURN_UUID_P(result);
}

/* The ulid of a public id, given the key it was made with. */
PG_FUNCTION_INFO_V1(ulid_decrypt);
Datum
ulid_decrypt(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *public_id = PG_GETARG_UUID_P(0);
	const uint8 *key = checked_key(PG_GETARG_BYTEA_PP(1));
	Ulid	   *result = palloc(sizeof(Ulid));

	aes128_block(fcinfo, 0, false, key, public_id->data, result->data);
	PG_RETURN_ULID_P(result);
}

#define SERVER_KEY(n) (current_server_keys()->key[n])
#define SERVER_KEY_COUNT() (current_server_keys()->count)

/* The public id of a ulid under the server's current key. */
PG_FUNCTION_INFO_V1(ulid_encrypt_server_key);
Datum
ulid_encrypt_server_key(PG_FUNCTION_ARGS)
{
	Ulid	   *id = PG_GETARG_ULID_P(0);
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	aes128_block(fcinfo, 0, true, SERVER_KEY(0), id->data, result->data);
	PG_RETURN_UUID_P(result);
}

/* The ulid of a public id made under the server's current key. */
PG_FUNCTION_INFO_V1(ulid_decrypt_server_key);
Datum
ulid_decrypt_server_key(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *public_id = PG_GETARG_UUID_P(0);
	Ulid	   *result = palloc(sizeof(Ulid));

	aes128_block(fcinfo, 0, false, SERVER_KEY(0), public_id->data, result->data);
	PG_RETURN_ULID_P(result);
}

/*
 * The ulids of a public id under each of the server's keys, the current key
 * first: during a rotation, "id = ANY (ulid_decrypt_all($1))" finds a row
 * whatever key its public id was made under.
 */
PG_FUNCTION_INFO_V1(ulid_decrypt_all);
Datum
ulid_decrypt_all(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *public_id = PG_GETARG_UUID_P(0);
	int			count = SERVER_KEY_COUNT();
	Datum		ids[ULID_MAX_KEYS];
	Oid			element_type;

	for (int i = 0; i < count; i++)
	{
		Ulid	   *id = palloc(sizeof(Ulid));

		aes128_block(fcinfo, i, false, SERVER_KEY(i), public_id->data, id->data);
		ids[i] = PointerGetDatum(id);
	}
#ifdef ULID_HAVE_OPENSSL
	forget_slots_from(call_site_cipher(fcinfo), count);
	element_type = call_site_cipher(fcinfo)->element_type;
	if (!OidIsValid(element_type))
	{
		element_type = get_element_type(get_func_rettype(fcinfo->flinfo->fn_oid));
		if (!OidIsValid(element_type))
			elog(ERROR, "could not determine the element type of ulid_decrypt_all's result");
		call_site_cipher(fcinfo)->element_type = element_type;
	}
#else
	element_type = get_element_type(get_func_rettype(fcinfo->flinfo->fn_oid));
#endif
	PG_RETURN_ARRAYTYPE_P(construct_array(ids, count, element_type, ULID_LEN, false, TYPALIGN_CHAR));
}
