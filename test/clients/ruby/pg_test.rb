# ruby-pg (Debian's ruby-pg, the "pg" library) against the ulid type; run by
# test/clients/ruby/run with Debian's /usr/bin/ruby.
#
# Connects through the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE)
# to a database where CREATE EXTENSION ulid has run, and works in a schema of
# its own, ruby_pg.  Checks: text values both ways with exec_params, uuid-form
# and uuid-typed parameters, lists (an untyped array, and the text[] that
# BasicTypeMapForQueries sends), BasicTypeMapForResults' warning for the ulid
# oid and the registry entry that ends it (text and binary decoders), ordering,
# a foreign key, a time window, a prepared statement, errors, and public ids
# with the key sent in binary, and the same computed with Ruby's OpenSSL.
# Prints "ok - ruby-pg: WHAT" or "FAILED - ruby-pg: WHAT : WHY" per check.
# The ruby-pg blocks of docs/clients/ruby.md appear below line for line
# (test/check_docs.py checks).
require "pg"
require_relative "check"

Check.client = "ruby-pg"
def check(*args) = Check.check(*args)
def expect_equal(*args) = Check.expect_equal(*args)

# The test's own encoder of 16 bytes as ULID text, to check the binary decoder
# against: a different way from the decoder's (byte by byte, 5 bits at a time).
def ulid_of_bytes(bytes)
  bits = bytes.unpack1("B*").rjust(130, "0")
  bits.scan(/.{5}/).map { |b| "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[b.to_i(2)] }.join
end

# docs/clients/ruby.md: ruby-pg, public ids without the database
require "openssl"

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

# ulid_encrypt(id, key): AES-128 of the ULID's 16 bytes as one block, no
# padding, under a 16-byte key; the public id as a uuid String.
def public_id(id, key)
  n = id.upcase.each_char.reduce(0) { |acc, c| acc * 32 + CROCKFORD.index(c) }
  cipher = OpenSSL::Cipher.new("aes-128-ecb").encrypt
  cipher.key = key
  cipher.padding = 0
  hex = (cipher.update([n.to_s(16).rjust(32, "0")].pack("H*")) + cipher.final).unpack1("H*")
  [hex[0, 8], hex[8, 4], hex[12, 4], hex[16, 4], hex[20, 12]].join("-")
end

# ulid_decrypt(public_id, key): the ULID's 26 characters.
def ulid_of_public_id(public_id, key)
  hex = public_id.delete("-")
  raise ArgumentError, "invalid public id: #{public_id.inspect}" unless hex.match?(/\A\h{32}\z/)
  decipher = OpenSSL::Cipher.new("aes-128-ecb").decrypt
  decipher.key = key
  decipher.padding = 0
  n = (decipher.update([hex].pack("H*")) + decipher.final).unpack1("H*").to_i(16)
  Array.new(26) { |i| CROCKFORD[(n >> (125 - 5 * i)) & 31] }.join
end
# end

Check.run do
  conn = PG.connect
  conn.exec("SET client_min_messages = warning")
  conn.exec("DROP SCHEMA IF EXISTS ruby_pg CASCADE")
  conn.exec("CREATE SCHEMA ruby_pg")
  conn.exec("SET search_path = ruby_pg, public")
  conn.exec("CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text)")
  puts "# ruby-pg #{PG::VERSION}, libpq #{PG.library_version}, Ruby #{RUBY_VERSION}"

  # --- text, no type map ---------------------------------------------------
  # docs/clients/ruby.md: ruby-pg, text
  res = conn.exec_params("INSERT INTO orders (item) VALUES ($1) RETURNING id", ["tea"])
  id = res.getvalue(0, 0)  # "01J...": a String of 26 characters
  item = conn.exec_params("SELECT item FROM orders WHERE id = $1", [id]).getvalue(0, 0)
  # end
  check("insert: gen_ulid() default returned by RETURNING as a 26-character String",
        id.is_a?(String) && ULID_TEXT.match?(id), id.inspect)
  expect_equal("select by the returned id, a String parameter", item, "tea")

  # docs/clients/ruby.md: ruby-pg, uuid parameters
  conn.exec_params("INSERT INTO orders (id, item) VALUES ($1, $2)", ["01ARYZ6S41TSV4RRFFQ69G5FAV", "coffee"])
  by_uuid = conn.exec_params("SELECT id, item FROM orders WHERE id = $1", ["01563df3-6481-d676-4c61-efb99302bd5b"])
  # by_uuid.values: [["01ARYZ6S41TSV4RRFFQ69G5FAV", "coffee"]]
  typed = conn.exec_params("SELECT id::uuid FROM orders WHERE id = $1",
                           [{ value: "01563df3-6481-d676-4c61-efb99302bd5b", type: 2950 }])  # 2950: uuid
  # typed.values: [["01563df3-6481-d676-4c61-efb99302bd5b"]]
  # end
  expect_equal("a uuid-form String parameter (untyped) finds the row", by_uuid.values,
               [["01ARYZ6S41TSV4RRFFQ69G5FAV", "coffee"]])
  expect_equal("a parameter typed uuid finds the row; id::uuid reads the uuid form", typed.values,
               [["01563df3-6481-d676-4c61-efb99302bd5b"]])
  expect_equal("the parameter typed uuid reached the server as uuid (ulid = uuid operator)",
               conn.exec_params("SELECT pg_typeof($1)::text", [{ value: "01563df3-6481-d676-4c61-efb99302bd5b", type: 2950 }]).getvalue(0, 0),
               "uuid")
  expect_equal("lower case comes back canonical",
               conn.exec_params("SELECT $1::ulid", ["01aryz6s41tsv4rrffq69g5fav"]).getvalue(0, 0),
               "01ARYZ6S41TSV4RRFFQ69G5FAV")

  # --- lists ----------------------------------------------------------------
  # docs/clients/ruby.md: ruby-pg, lists
  ids = [id, "01563df3-6481-d676-4c61-efb99302bd5b"]
  list = PG::TextEncoder::Array.new.encode(ids)  # "{01J...,01563df3-...}", sent untyped
  found = conn.exec_params("SELECT id FROM orders WHERE id = ANY($1) ORDER BY id", [list]).column_values(0)
  # found: ["01ARYZ6S41TSV4RRFFQ69G5FAV", "01J..."]
  # end
  expect_equal("= ANY($1) of an untyped array literal (PG::TextEncoder::Array), ulid and uuid forms",
               found, ["01ARYZ6S41TSV4RRFFQ69G5FAV", id])

  # BasicTypeMapForQueries sends a Ruby Array of Strings typed text[]: no ulid = text.
  typed_conn = PG.connect
  typed_conn.exec("SET search_path = ruby_pg, public")
  # docs/clients/ruby.md: ruby-pg, lists with BasicTypeMapForQueries
  typed_conn.type_map_for_queries = PG::BasicTypeMapForQueries.new(typed_conn)
  found = typed_conn.exec_params("SELECT id FROM orders WHERE id = ANY($1::ulid[]) ORDER BY id", [ids])
  # end
  expect_equal("BasicTypeMapForQueries: = ANY($1::ulid[]) of a Ruby Array", found.column_values(0),
               ["01ARYZ6S41TSV4RRFFQ69G5FAV", id])
  state = Check.sqlstate { typed_conn.exec_params("SELECT id FROM orders WHERE id = ANY($1)", [ids]) }
  expect_equal("BasicTypeMapForQueries: = ANY($1) of a Ruby Array without ::ulid[] fails: ulid = text (42883)",
               state, "42883")
  typed_conn.close

  # --- results through BasicTypeMapForResults -------------------------------
  oid = conn.exec("SELECT 'ulid'::regtype::oid").getvalue(0, 0).to_i
  plain = PG.connect
  plain.exec("SET search_path = ruby_pg, public")
  plain.type_map_for_results = PG::BasicTypeMapForResults.new(plain)
  warned, values = Check.warnings { plain.exec("SELECT id, id::uuid AS u, now() AS t FROM orders ORDER BY id").to_a }
  want = "Warning: no type cast defined for type \"ulid\" format 0 with oid #{oid}."
  check("without a decoder: BasicTypeMapForResults warns about the ulid oid",
        warned.include?(want), warned)
  check("without a decoder: ruby-pg 1.4 warns about uuid too", warned.include?('for type "uuid" format 0'), warned)
  check("without a decoder: the values still arrive as Strings, timestamptz as Time",
        values.first["id"] == "01ARYZ6S41TSV4RRFFQ69G5FAV" && values.first["t"].is_a?(Time), values.first.inspect)
  plain.close

  # docs/clients/ruby.md: ruby-pg, decoders
  registry = PG::BasicTypeRegistry.new.register_default_types
  registry.register_type(0, "ulid", nil, PG::TextDecoder::String)  # the type's name: its oid is looked up
  registry.register_type(0, "uuid", nil, PG::TextDecoder::String)
  conn.type_map_for_results = PG::BasicTypeMapForResults.new(conn, registry: registry)
  # end
  warned, values = Check.warnings do
    conn.exec("SELECT id, id::uuid AS u, ARRAY[id, id] AS a, now() AS t FROM orders ORDER BY id").to_a
  end
  expect_equal("with the registry entry: no warning", warned, "")
  expect_equal("with the registry entry: ulid and uuid as Strings, ulid[] as an Array of Strings",
               values.first.values_at("id", "u", "a"),
               ["01ARYZ6S41TSV4RRFFQ69G5FAV", "01563df3-6481-d676-4c61-efb99302bd5b",
                %w[01ARYZ6S41TSV4RRFFQ69G5FAV 01ARYZ6S41TSV4RRFFQ69G5FAV]])
  check("with the registry entry: other types still decoded (timestamptz as Time)", values.first["t"].is_a?(Time))

  # Binary results: the 16 bytes, decoded to the same 26 characters.
  # docs/clients/ruby.md: ruby-pg, binary decoder
  class UlidBinaryDecoder < PG::SimpleDecoder
    CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

    # The 16 bytes of a binary ulid as its 26-character text.
    def decode(bytes, _tuple = nil, _field = nil)
      n = bytes.unpack1("H*").to_i(16)
      Array.new(26) { |i| CROCKFORD[(n >> (125 - 5 * i)) & 31] }.join
    end
  end

  registry.register_type(1, "ulid", nil, UlidBinaryDecoder)
  conn.type_map_for_results = PG::BasicTypeMapForResults.new(conn, registry: registry)
  binary = conn.exec_params("SELECT id FROM orders ORDER BY id", [], 1)  # 1: results in binary
  # binary.column_values(0): the same Strings as in text
  # end
  expect_equal("binary results decoded by UlidBinaryDecoder equal the text results",
               binary.column_values(0), conn.exec("SELECT id FROM orders ORDER BY id").column_values(0))
  conn.type_map_for_results = PG::TypeMapAllStrings.new
  raw = conn.exec_params("SELECT id, id::bytea AS b FROM orders ORDER BY id", [], 1)
  expect_equal("binary results with no decoder: the 16 bytes, equal to id::bytea",
               raw.getvalue(0, 0), raw.getvalue(0, 1))
  made = Array.new(200) { Random.bytes(16) }
  texts = conn.exec_params("SELECT b::ulid::text FROM unnest($1::bytea[]) AS b",
                           [PG::TextEncoder::Array.new(elements_type: PG::TextEncoder::Bytea.new).encode(made)])
              .column_values(0)
  decoder = UlidBinaryDecoder.new
  expect_equal("200 random values: UlidBinaryDecoder and the server's text agree",
               made.map { |b| decoder.decode(b) }, texts)
  expect_equal("200 random values: an independent encoder agrees", made.map { |b| ulid_of_bytes(b) }, texts)
  conn.type_map_for_results = PG::BasicTypeMapForResults.new(conn, registry: registry)

  # --- ordering, a foreign key, a time window ------------------------------
  conn.exec("INSERT INTO orders (item) SELECT 'bulk ' || i FROM generate_series(1, 50) AS i")
  sorted = conn.exec("SELECT id FROM orders ORDER BY id").column_values(0)
  expect_equal("ORDER BY id is the order of Ruby's sort of the Strings", sorted, sorted.sort)
  conn.exec(<<~SQL)
    CREATE TABLE line_items (
        id ulid PRIMARY KEY DEFAULT gen_ulid(),
        order_id ulid NOT NULL REFERENCES orders,
        qty int)
  SQL
  conn.exec_params("INSERT INTO line_items (order_id, qty) VALUES ($1, 2)", [id])
  expect_equal("a foreign key to the ulid key: a join by the parameter",
               conn.exec_params("SELECT o.item, l.qty FROM line_items l JOIN orders o ON o.id = l.order_id WHERE o.id = $1",
                                [id]).values, [["tea", 2]])
  expect_equal("a foreign key violation is 23503",
               Check.sqlstate { conn.exec_params("INSERT INTO line_items (order_id) VALUES ($1)", ["01ARYZ6S41TSV4RRFFQ69G5FAW"]) },
               "23503")

  # docs/clients/ruby.md: ruby-pg, a time window
  recent = conn.exec("SELECT count(*) FROM orders WHERE id > now() - interval '1 hour'").getvalue(0, 0)
  since = conn.exec_params("SELECT count(*) FROM orders WHERE id > $1::timestamptz", [Time.now - 3600]).getvalue(0, 0)
  # end
  expect_equal("id > now() - interval '1 hour': the 51 rows made now, not the 2016 one", recent, 51)
  expect_equal("id > $1::timestamptz with a Ruby Time", since, 51)
  state = Check.sqlstate { conn.exec_params("SELECT count(*) FROM orders WHERE id > $1", [Time.now - 3600]) }
  expect_equal("id > $1 with a Time and no ::timestamptz: the server reads the text as a ulid (22P02)", state, "22P02")

  # --- a prepared statement, errors ----------------------------------------
  conn.prepare("order_by_id", "SELECT item FROM orders WHERE id = $1")
  expect_equal("prepared statement: executed with a ULID and a uuid-form String",
               [id, "01563df3-6481-d676-4c61-efb99302bd5b"].map { |v| conn.exec_prepared("order_by_id", [v]).getvalue(0, 0) },
               %w[tea coffee])
  expect_equal("prepared statement: the parameter is typed ulid",
               conn.exec("SELECT parameter_types::text FROM pg_prepared_statements WHERE name = 'order_by_id'").getvalue(0, 0),
               "{ulid}")
  begin
    conn.exec_params("SELECT $1::ulid", ["01ARYZ6S41TSV4RRFFQ69G5FAU"])
    check("invalid text raises PG::InvalidTextRepresentation (22P02)", false, "accepted")
  rescue PG::InvalidTextRepresentation => e
    check("invalid text raises PG::InvalidTextRepresentation (22P02)",
          e.result.error_field(PG::PG_DIAG_SQLSTATE) == "22P02" && e.message.include?('invalid input syntax for type ulid'),
          e.message)
  end

  # --- public ids ------------------------------------------------------------
  # docs/clients/ruby.md: ruby-pg, public ids
  key = Random.bytes(16)  # the application's secret
  shown = conn.exec_params("SELECT ulid_encrypt(id, $2) FROM orders WHERE id = $1",
                          [id, { value: key, format: 1 }]).getvalue(0, 0)  # a uuid String, for URLs
  back = conn.exec_params("SELECT id, item FROM orders WHERE id = ulid_decrypt($1, $2)",
                          [shown, { value: key, format: 1 }]).values  # [[id, "tea"]]
  # end
  check("ulid_encrypt(id, $2) with the key in binary: a uuid String", UUID_TEXT.match?(shown), shown)
  expect_equal("ulid_decrypt($1, $2) finds the row again", back, [[id, "tea"]])
  expect_equal("ulid_decrypt(ulid_encrypt(id)) round-trips over every row",
               conn.exec_params("SELECT count(*) FROM orders WHERE ulid_decrypt(ulid_encrypt(id, $1), $1) <> id",
                                [{ value: key, format: 1 }]).getvalue(0, 0), 0)
  # A key sent as a plain String goes as text, which bytea input reads: the
  # result depends on the key's bytes.
  begin
    conn.exec_params("SELECT ulid_encrypt(id, $1) FROM orders", ["\x00".b + Random.bytes(15)])
    check("a key sent as text with a NUL byte: ruby-pg refuses it (ArgumentError)", false, "accepted")
  rescue ArgumentError => e
    check("a key sent as text with a NUL byte: ruby-pg refuses it (ArgumentError)",
          e.message.include?("null byte"), e.message)
  end
  expect_equal("a key sent as text with bytes past 0x7F: not UTF-8, the server refuses it (22021)",
               Check.sqlstate { conn.exec_params("SELECT ulid_encrypt(id, $1) FROM orders", ["\xff".b * 16]) },
               "22021")

  # The same public ids without the database, with Ruby's OpenSSL.
  made = conn.exec("SELECT gen_ulid()::text FROM generate_series(1, 200)").column_values(0) +
         %w[01ARYZ6S41TSV4RRFFQ69G5FAV 00000000000000000000000000 7ZZZZZZZZZZZZZZZZZZZZZZZZZ]
  server = conn.exec_params("SELECT ulid_encrypt(i::ulid, $2)::text FROM unnest($1::text[]) AS i",
                            [PG::TextEncoder::Array.new.encode(made), { value: key, format: 1 }]).column_values(0)
  expect_equal("OpenSSL: public_id(id, key) equals the server's ulid_encrypt for 203 ids", made.map { |i| public_id(i, key) }, server)
  expect_equal("OpenSSL: ulid_of_public_id(public id, key) gives the ids back", server.map { |u| ulid_of_public_id(u, key) }, made)
  padded = OpenSSL::Cipher.new("aes-128-ecb").encrypt.tap { |c| c.key = key }
  expect_equal("OpenSSL with its default padding left on: 32 bytes come out, no uuid",
               (padded.update(Random.bytes(16)) + padded.final).bytesize, 32)
  expect_equal("ulid_of_public_id refuses what is not 32 hex digits",
               (ulid_of_public_id("not-a-uuid", key) rescue $!.class), ArgumentError)

  conn.exec("DROP SCHEMA ruby_pg CASCADE")
  conn.close
end
