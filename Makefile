EXTENSION = ulid
MODULE_big = ulid
OBJS = ulid.o
DATA = ulid--1.0.sql
REGRESS_OPTS = --encoding=UTF8
REGRESS = io binary casts ordering indexes sort generators timerange cookbook fuzz install

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

ulid.o: ulid_base32.h ulid_random.h ulid_step.h

# BRIN minmax-multi and bloom exist from PostgreSQL 14 on, soft input errors
# (pg_input_is_valid) from 16 on.
ifeq ($(shell test $(VERSION_NUM) -ge 140000 && echo yes),yes)
REGRESS += brin
endif
ifeq ($(shell test $(VERSION_NUM) -ge 160000 && echo yes),yes)
REGRESS += soft_errors
endif
