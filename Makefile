EXTENSION = ulid
EXTVERSION = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)
MODULE_big = ulid
OBJS = src/ulid.o src/ulid_uuid.o src/ulid_timeops.o src/ulid_planner.o src/ulid_histogram.o \
	src/ulid_selfuncs.o src/ulid_gin.o src/ulid_gist.o src/ulid_gen.o src/ulid_convert.o \
	src/ulid_convert_touch.o src/ulid_convert_dry_run.o src/ulid_check_defaults.o src/ulid_objectid.o \
	src/ulid_public.o src/ulid_pglite.o
PGFILEDESC = "ulid - a native ULID type"
# The install script of the default version is edited as sql/ulid.sql and
# built as sql/ulid--$(EXTVERSION).sql (untracked); beside it in sql/ the full
# scripts of released versions stay frozen with the update scripts, so that
# the upgrade test compares two independent paths (git diff of sql/ulid.sql
# since the last release lists what the next update script must do).  DATA
# names them one by one: a wildcard would take the built script too.
DATA_built = sql/ulid--$(EXTVERSION).sql
DATA = sql/ulid--1.3--1.4.sql sql/ulid--1.3.sql sql/ulid--1.2--1.3.sql sql/ulid--1.2.sql sql/ulid--1.1--1.2.sql sql/ulid--1.1.sql \
	sql/ulid--1.0--1.1.sql sql/ulid--1.0.sql
PG_CPPFLAGS = -I$(srcdir)/src -DULID_VERSION='"$(EXTVERSION)"'

REGRESS = io upgrade binary byte_order casts uuid_compat ordering indexes opclass_order sort generators generators_v7 timerange timeops tsrange cookbook fuzz install brin gin sort_nulls convert convert_scope gist ulidrange estimates public_ids objectid
REGRESS_OPTS = --inputdir=test --encoding=UTF8
ISOLATION = extension_update monotonic on_conflict concurrent_index convert_locks convert_waits
ISOLATION_OPTS = --inputdir=test --load-extension=ulid
TAP_TESTS = 1

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# ulid_encrypt() and ulid_decrypt() use the AES of OpenSSL's libcrypto where
# the server was built with OpenSSL (Debian's and most others are); a build
# without it, such as PGlite's, has them raise feature_not_supported.
ifeq ($(with_ssl),openssl)
override CPPFLAGS += -DULID_HAVE_OPENSSL
SHLIB_LINK += -lcrypto
endif

# Soft input errors (pg_input_is_valid) exist from PostgreSQL 16 on.
ifeq ($(shell test $(VERSION_NUM) -ge 160000 && echo yes),yes)
REGRESS += soft_errors
endif
# COPY ... ON_ERROR ignore exists from PostgreSQL 17 on.
ifeq ($(shell test $(VERSION_NUM) -ge 170000 && echo yes),yes)
REGRESS += copy_on_error
endif
# Core's uuidv7() and pg_get_loaded_modules() exist from PostgreSQL 18 on.
ifeq ($(shell test $(VERSION_NUM) -ge 180000 && echo yes),yes)
REGRESS += uuidv7 loaded_module
endif
# PostgreSQL 19: core's uuid <-> bytea casts and base32hex, COPY ON_ERROR
# set_null and FORMAT json, eager aggregation, REPACK, pg_restore_extended_stats().
ifeq ($(shell test $(VERSION_NUM) -ge 190000 && echo yes),yes)
REGRESS += bytea_uuid copy_options plans repack stats_restore
endif

# Suites a run leaves out (bin/matrix: fuzz, under emulation).
REGRESS := $(filter-out $(REGRESS_EXCLUDE),$(REGRESS))

$(OBJS): $(wildcard $(srcdir)/src/*.h)

# Pure-C tests of the headers, with no server: make unitcheck, make fuzzcheck.
test/unit: test/unit.c src/ulid_layout.h src/ulid_base32.h src/ulid_uuidtext.h src/ulid_monotonic.h src/ulid_packed.h src/ulid_random.h \
		src/ulid_abbrev.h src/ulid_objectid.h
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -o $@ $<
unitcheck: test/unit
	test/unit

FUZZ_SECONDS ?= 60
test/fuzz: test/fuzz.c src/ulid_layout.h src/ulid_base32.h src/ulid_uuidtext.h
	clang -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $<
# libFuzzer's log is shown only on failure; one TAP line says how the run went.
fuzzcheck: test/fuzz
	@d=$$(mktemp -d); \
	test/fuzz -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=test/fuzz- $$d test/corpus >$$d.log 2>&1; s=$$?; \
	if [ $$s -eq 0 ]; then \
		sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/ok 1 - fuzz: \1 runs in \2 s, no crash/p' $$d.log; \
	else \
		tail -40 $$d.log; echo "not ok 1 - fuzz: exit status $$s, the failing input is above"; \
	fi; \
	echo 1..1; rm -rf $$d $$d.log; exit $$s

# The TAP tests alone (make installcheck runs them after pg_regress and the isolation specs).
prove_installcheck:
	$(prove_installcheck)

# The PGXN archive ulid-X.Y.Z.zip from the tag vX.Y.Z (bin/dist --test tests it).
dist:
	bin/dist

EXTRA_CLEAN = test/unit test/fuzz output_iso
.PHONY: unitcheck fuzzcheck prove_installcheck dist

sql/ulid--$(EXTVERSION).sql: sql/ulid.sql
	cp $< $@
