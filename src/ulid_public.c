/*
 * ulid_public.c
 *		Public ids: ulid_encrypt(ulid, key) and ulid_decrypt(uuid, key).
 *
 * A public id is the ULID's 16 bytes enciphered as one AES-128 block
 * (FIPS-197) under a 16-byte key: no mode, no padding, no IV.  A block
 * cipher is a permutation, so distinct ids have distinct public ids, and
 * without the key a public id tells nothing of the time or the order.  The
 * cipher is OpenSSL's libcrypto, which the server links already; there is
 * no cipher of our own.  A build without OpenSSL (PGlite) has the functions,
 * which raise feature_not_supported.
 *
 * The key schedule is made once per call site: it is kept in fn_extra with
 * the key it was made from and made again only when a call brings another
 * key, so that a query over a million rows with one key schedules it once.
 * Its OpenSSL context is freed with the memory context that holds it.
 *
 * No message says anything of the key but its length, and the key is never
 * copied anywhere else than into that context.
 */
#include "postgres.h"

#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif
#include "fmgr.h"
#include "utils/memutils.h"
#include "utils/uuid.h"

#include "ulid.h"

#ifdef ULID_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

#define ULID_KEY_LEN	16

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

/* A call site's cipher: its key and the context scheduled from it. */
typedef struct UlidCipher
{
	EVP_CIPHER_CTX *ctx;
	bool		ready;			/* ctx holds the schedule of key */
	uint8		key[ULID_KEY_LEN];
	MemoryContextCallback free_ctx;
} UlidCipher;

/* Free the OpenSSL context with the memory context of the call site. */
static void
free_cipher(void *arg)
{
	UlidCipher *c = (UlidCipher *) arg;

	EVP_CIPHER_CTX_free(c->ctx);
	explicit_bzero(c->key, ULID_KEY_LEN);
}

static void
openssl_failed(const char *what)
{
	ereport(ERROR,
			errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
			errmsg("could not %s an AES-128 key with OpenSSL", what));
}

/*
 * Encipher (encrypt) or decipher the block in into out under key, with the
 * schedule kept for this call site.
 */
static void
aes128_block(FunctionCallInfo fcinfo, bool encrypt, const uint8 *key,
			 const uint8 *in, uint8 *out)
{
	UlidCipher *c = (UlidCipher *) fcinfo->flinfo->fn_extra;
	int			outlen = 0;

	if (c == NULL)
	{
		c = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(UlidCipher));
		c->ctx = EVP_CIPHER_CTX_new();
		if (c->ctx == NULL)
			openssl_failed("allocate a context for");
		c->free_ctx.func = free_cipher;
		c->free_ctx.arg = c;
		MemoryContextRegisterResetCallback(fcinfo->flinfo->fn_mcxt, &c->free_ctx);
		fcinfo->flinfo->fn_extra = c;
	}
	if (!c->ready || memcmp(c->key, key, ULID_KEY_LEN) != 0)
	{
		c->ready = false;
		if (EVP_CipherInit_ex(c->ctx, EVP_aes_128_ecb(), NULL, key, NULL, encrypt ? 1 : 0) != 1 ||
			EVP_CIPHER_CTX_set_padding(c->ctx, 0) != 1)
			openssl_failed("schedule");
		memcpy(c->key, key, ULID_KEY_LEN);
		c->ready = true;
	}

	/*
	 * One whole block with no padding: the update writes the 16 bytes and
	 * leaves nothing for a final call, and the context is ready for the next
	 * block as it was.
	 */
	if (EVP_CipherUpdate(c->ctx, out, &outlen, in, ULID_LEN) != 1 || outlen != ULID_LEN)
		openssl_failed("use");
}

#else

static void
aes128_block(FunctionCallInfo fcinfo, bool encrypt, const uint8 *key,
			 const uint8 *in, uint8 *out)
{
	(void) fcinfo;
	(void) key;
	(void) in;
	(void) out;
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("%s is not available in this build of ulid",
				   encrypt ? "ulid_encrypt" : "ulid_decrypt"),
			errdetail("It was built without OpenSSL, whose AES it uses."));
}

#endif

/* The public id of a ulid: its 16 bytes as one AES-128 block. */
PG_FUNCTION_INFO_V1(ulid_encrypt);
Datum
ulid_encrypt(PG_FUNCTION_ARGS)
{
	Ulid	   *id = PG_GETARG_ULID_P(0);
	const uint8 *key = checked_key(PG_GETARG_BYTEA_PP(1));
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	aes128_block(fcinfo, true, key, id->data, result->data);
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

	aes128_block(fcinfo, false, key, public_id->data, result->data);
	PG_RETURN_ULID_P(result);
}
