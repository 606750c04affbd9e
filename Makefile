EXTENSION = ulid
MODULE_big = ulid
OBJS = ulid.o
DATA = ulid--1.0.sql
REGRESS = io binary casts ordering indexes sort generators install

# pg_input_is_valid() and soft errors exist from PostgreSQL 16 on.
PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
ifeq ($(shell test $(VERSION_NUM) -ge 160000 && echo yes),yes)
REGRESS += soft_errors
endif
