# ActiveRecord 6.1 (Debian's ruby-activerecord) on its PostgreSQL adapter
# against the ulid type; run by test/clients/ruby/run with /usr/bin/ruby.
#
# Connects through the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE)
# to a database where CREATE EXTENSION ulid has run, and makes two scratch
# databases beside it for the schema loaded back (dropped at the end).  First
# without the registration of ulid_activerecord.rb: the migration runs, the
# adapter warns "unknown OID", the schema dumper skips the tables, and
# ActiveRecord::Type.register alone changes neither; lookups, the
# association and structure.sql work as they are.  Then with it: no
# warning, models keyed by ulid with belongs_to and a foreign key, find and
# where by ulid and by uuid, singly and in a list, order(:id), a time window,
# public ids with the key bound in binary, schema.rb dumped and loaded into a
# fresh database (and refused there without the registration).  Prints
# "ok - activerecord: WHAT" or "FAILED - activerecord: WHAT : WHY" per check.
# The ActiveRecord blocks of docs/clients/ruby.md appear below line for line
# (test/check_docs.py checks).
require "fileutils"
require "open3"
require "rbconfig"
require "stringio"
require "tmpdir"
require "active_record"
require "pg"
require_relative "check"

Check.client = "activerecord"

def check(*args) = Check.check(*args)
def expect_equal(*args) = Check.expect_equal(*args)

DATABASE = ENV.fetch("PGDATABASE")
SCHEMA_RB_DATABASE = "#{DATABASE}_schema_rb"
STRUCTURE_SQL_DATABASE = "#{DATABASE}_structure_sql"

# A new connection pool, so a new adapter with a new type map.
def connect(database = DATABASE)
  ActiveRecord::Base.establish_connection(adapter: "postgresql", database: database)
  [Order, LineItem].each(&:reset_column_information)
  ActiveRecord::Base.connection
end

def fresh_database(name)
  connect.execute("DROP DATABASE IF EXISTS #{name}")
  connect.execute("CREATE DATABASE #{name}")
end

def dump_schema
  io = StringIO.new
  ActiveRecord::SchemaDumper.dump(ActiveRecord::Base.connection, io)
  io.string
end

# What the two tables are made of in a database: columns with types, defaults
# and NOT NULL, constraints and indexes, as the server describes them.
def catalog(database)
  connect(database).select_rows(<<~SQL)
    SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
           pg_get_expr(d.adbin, d.adrelid), a.attnotnull::text
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      LEFT JOIN pg_attrdef d ON (d.adrelid, d.adnum) = (a.attrelid, a.attnum)
     WHERE c.relname IN ('orders', 'line_items') AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL
    SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid), NULL, NULL
      FROM pg_constraint WHERE conrelid IN ('orders'::regclass, 'line_items'::regclass)
    UNION ALL
    SELECT tablename, indexname, indexdef, NULL, NULL
      FROM pg_indexes WHERE tablename IN ('orders', 'line_items')
    ORDER BY 1, 2, 3
  SQL
end

# docs/clients/ruby.md: ActiveRecord, the migration
class EnableUlid < ActiveRecord::Migration[6.1]
  def change
    enable_extension "ulid"
  end
end

class CreateOrders < ActiveRecord::Migration[6.1]
  def change
    create_table :orders, id: :ulid, default: -> { "gen_ulid()" } do |t|
      t.text :item
    end
    create_table :line_items, id: :ulid, default: -> { "gen_ulid()" } do |t|
      t.references :order, type: :ulid, null: false, foreign_key: true
      t.integer :quantity
    end
  end
end
# end

# docs/clients/ruby.md: ActiveRecord, the models
class Order < ActiveRecord::Base
  has_many :line_items
end

class LineItem < ActiveRecord::Base
  belongs_to :order
end
# end

Check.run do
  ActiveRecord::Migration.verbose = false
  puts "# ActiveRecord #{ActiveRecord::VERSION::STRING}, ruby-pg #{PG::VERSION}, Ruby #{RUBY_VERSION}"
  connect.execute("SET client_min_messages = warning")
  [SCHEMA_RB_DATABASE, STRUCTURE_SQL_DATABASE].each { |db| connect.execute("DROP DATABASE IF EXISTS #{db}") }
  oid = connect.select_value("SELECT 'ulid'::regtype::oid")
  # t/007_clients.pl's scratch directory, or one of our own
  dir = ENV["ULID_CLIENT_BUILD"] || Dir.mktmpdir.tap { |d| at_exit { FileUtils.rm_rf(d) } }

  # --- without the registration ---------------------------------------------
  EnableUlid.migrate(:up)
  CreateOrders.migrate(:up)
  expect_equal("the migration runs without the registration: id ulid DEFAULT gen_ulid(), order_id ulid",
               connect.select_rows(<<~SQL),
                 SELECT table_name, column_name, udt_name, column_default FROM information_schema.columns
                  WHERE table_name IN ('orders', 'line_items') AND udt_name = 'ulid' ORDER BY 1, 2
               SQL
               [%w[line_items id ulid gen_ulid()], ["line_items", "order_id", "ulid", nil], %w[orders id ulid gen_ulid()]])
  warned, order = Check.warnings { Order.create!(item: "tea") }
  check("without the registration: the adapter warns about the ulid oid",
        warned.include?("unknown OID #{oid}: failed to recognize type of 'id'. It will be treated as String."), warned)
  check("without the registration: the id is still a String", ULID_TEXT.match?(order.id.to_s), order.id.inspect)
  expect_equal("without the registration: the column's type is unknown (nil)", Order.columns_hash["id"].type, nil)
  schema = dump_schema
  check("without the registration: schema.rb skips the tables (\"Unknown type 'ulid' for column 'id'\")",
        schema.include?(%(# Could not dump table "orders" because of following StandardError\n#   Unknown type 'ulid' for column 'id')) &&
          !schema.include?('create_table "orders"'), schema)

  # ActiveRecord::Type.register reaches `attribute :name, :ulid` in models, not
  # the adapter's map from a column's oid to a type.
  attribute_only = Class.new(ActiveRecord::Type::String) { def type = :ulid }
  ActiveRecord::Type.register(:ulid, attribute_only, adapter: :postgresql)
  connect
  warned, = Check.warnings { Order.first }
  check("ActiveRecord::Type.register(:ulid, ...) alone: the adapter still warns", warned.include?("unknown OID #{oid}"), warned)
  check("ActiveRecord::Type.register(:ulid, ...) alone: schema.rb still skips the tables",
        dump_schema.include?('# Could not dump table "orders"'))

  # What works without it: lookups by either form, the association, the key.
  Order.create!(id: "01ARYZ6S41TSV4RRFFQ69G5FAV", item: "coffee")
  expect_equal("without the registration: find by the uuid form, where(id: [...]) by both forms",
               [Order.find("01563df3-6481-d676-4c61-efb99302bd5b").item,
                Order.where(id: [order.id, "01563df3-6481-d676-4c61-efb99302bd5b"]).order(:id).pluck(:item)],
               ["coffee", %w[coffee tea]])
  expect_equal("without the registration: belongs_to and the foreign key's column",
               order.line_items.create!(quantity: 1).order.id, order.id)

  # structure.sql (pg_dump) needs no registration.
  sql_path = File.join(dir, "structure.sql")
  ActiveRecord::Tasks::DatabaseTasks.structure_dump(ActiveRecord::Base.connection_db_config, sql_path)
  check("structure.sql has the default, as pg_dump writes it: DEFAULT public.gen_ulid()",
        File.read(sql_path).include?("id public.ulid DEFAULT public.gen_ulid() NOT NULL"), File.read(sql_path))
  fresh_database(STRUCTURE_SQL_DATABASE)
  connect(STRUCTURE_SQL_DATABASE)
  ActiveRecord::Tasks::DatabaseTasks.structure_load_flags = ["--output=/dev/null"]  # psql's result lines
  ActiveRecord::Tasks::DatabaseTasks.structure_load(ActiveRecord::Base.connection_db_config, sql_path)
  expect_equal("structure.sql loads into a fresh database: the same tables",
               catalog(STRUCTURE_SQL_DATABASE), catalog(DATABASE))

  # --- with the registration ------------------------------------------------
  require_relative "ulid_activerecord"
  connect
  warned, = Check.warnings { Order.first && LineItem.first }
  expect_equal("with the registration: no warning", warned, "")
  expect_equal("with the registration: id and order_id are of type :ulid",
               [Order.columns_hash["id"].type, LineItem.columns_hash["order_id"].type], %i[ulid ulid])
  LineItem.delete_all
  Order.delete_all

  # docs/clients/ruby.md: ActiveRecord, rows
  order = Order.create!(item: "tea")
  order.id  # "01J...": a String of 26 characters, made by gen_ulid() and read back by RETURNING
  Order.find(order.id).item  # "tea"
  Order.create!(id: "01ARYZ6S41TSV4RRFFQ69G5FAV", item: "coffee")
  coffee = Order.find("01563df3-6481-d676-4c61-efb99302bd5b")  # the uuid form of the same id
  coffee.id  # "01ARYZ6S41TSV4RRFFQ69G5FAV"
  both = Order.where(id: [order.id, "01563df3-6481-d676-4c61-efb99302bd5b"]).order(:id).pluck(:item)
  # both: ["coffee", "tea"]: 01ARYZ... was made in 2016
  line = order.line_items.create!(quantity: 2)
  line.order_id == order.id  # true
  LineItem.joins(:order).where(orders: { id: order.id }).sum(:quantity)  # 2
  # end
  check("create!: gen_ulid() default read back as a 26-character String", ULID_TEXT.match?(order.id), order.id.inspect)
  expect_equal("find by the ulid", Order.find(order.id).item, "tea")
  expect_equal("find by lower case: the record's id is the canonical text",
               Order.find(order.id.downcase).id, order.id)
  expect_equal("find by the uuid form", coffee.item, "coffee")
  expect_equal("find by the uuid form: the record's id is the ULID text", coffee.id, "01ARYZ6S41TSV4RRFFQ69G5FAV")
  expect_equal("where(id: [ulid, uuid]).order(:id)", both, %w[coffee tea])
  expect_equal("find([ulid, ulid])", Order.find([order.id, coffee.id]).map(&:item).sort, %w[coffee tea])
  expect_equal("find_by(id: uuid form)", Order.find_by(id: "01563df3-6481-d676-4c61-efb99302bd5b")&.item, "coffee")
  expect_equal("where(\"id = ?::uuid\") with a uuid: ulid = uuid", Order.where("id = ?::uuid", "01563df3-6481-d676-4c61-efb99302bd5b").pluck(:item), ["coffee"])
  check("belongs_to: the line item's order_id is the order's id", line.order_id == order.id, line.inspect)
  expect_equal("belongs_to: line.order, reloaded", LineItem.find(line.id).order.item, "tea")
  expect_equal("has_many: order.line_items", Order.find(order.id).line_items.map(&:quantity), [2])
  expect_equal("joins(:order).where(orders: { id: })", LineItem.joins(:order).where(orders: { id: order.id }).sum(:quantity), 2)
  expect_equal("includes(:line_items): preloaded by the ulid key",
               Order.includes(:line_items).order(:id).map { |o| o.line_items.size }, [0, 1])
  begin
    LineItem.create!(order_id: "01ARYZ6S41TSV4RRFFQ69G5FAW", quantity: 1)
    check("the foreign key: an order_id with no order raises ActiveRecord::InvalidForeignKey", false, "accepted")
  rescue ActiveRecord::InvalidForeignKey => e
    check("the foreign key: an order_id with no order raises ActiveRecord::InvalidForeignKey", true)
  end
  begin
    Order.find("01ARYZ6S41TSV4RRFFQ69G5FAU")
    check("find by invalid text: ActiveRecord::StatementInvalid caused by 22P02", false, "found")
  rescue ActiveRecord::StatementInvalid => e
    expect_equal("find by invalid text: ActiveRecord::StatementInvalid caused by 22P02",
                 e.cause.result.error_field(PG::PG_DIAG_SQLSTATE), "22P02")
  end
  expect_equal("find by a ulid with no row: ActiveRecord::RecordNotFound",
               (Order.find("01ARYZ6S41TSV4RRFFQ69G5FAW") rescue $!.class), ActiveRecord::RecordNotFound)

  Order.insert_all(Array.new(50) { |i| { item: "bulk #{i}" } })
  ids = Order.order(:id).pluck(:id)
  expect_equal("order(:id) is the order of Ruby's sort of the Strings", ids, ids.sort)
  expect_equal("insert_all: the default fills each id", ids.size, 52)

  # docs/clients/ruby.md: ActiveRecord, a time window
  recent = Order.where("id > now() - interval '1 hour'").count
  since = Order.where("id > ?::timestamptz", 1.hour.ago).count
  # end
  expect_equal("where(\"id > now() - interval '1 hour'\"): the 51 rows made now, not the 2016 one", recent, 51)
  expect_equal("where(\"id > ?::timestamptz\", 1.hour.ago)", since, 51)
  expect_equal("the adapter sets the session's TimeZone to UTC, the zone it writes a Time in",
               ActiveRecord::Base.connection.select_value("SHOW TimeZone"), "UTC")
  begin
    Order.where("id > ?", 1.hour.ago).count
    check("where(\"id > ?\", a Time) without ::timestamptz: the quoted time is read as a ulid (22P02)", false, "accepted")
  rescue ActiveRecord::StatementInvalid => e
    expect_equal("where(\"id > ?\", a Time) without ::timestamptz: the quoted time is read as a ulid (22P02)",
                 e.cause.result.error_field(PG::PG_DIAG_SQLSTATE), "22P02")
  end

  # --- public ids -------------------------------------------------------------
  # docs/clients/ruby.md: ActiveRecord, public ids
  secret = Random.bytes(16)  # the application's key
  key = ActiveRecord::Relation::QueryAttribute.new("key", secret, ActiveRecord::Type::Binary.new)
  encrypt = Arel::Nodes::NamedFunction.new("ulid_encrypt", [Order.arel_table[:id], Arel::Nodes::BindParam.new(key)])
  listed = Order.select(Order.arel_table[Arel.star], encrypt.as("public_id")).where(item: "tea")
  public_id = listed.first.public_id  # a uuid String, for URLs
  found = Order.find_by_sql("SELECT * FROM orders WHERE id = ulid_decrypt($1, $2)", [public_id, key]).first
  # end
  check("select(ulid_encrypt(id, $1)) with the key bound: a uuid String", UUID_TEXT.match?(public_id.to_s), public_id.inspect)
  expect_equal("find_by_sql(ulid_decrypt($1, $2)) finds the order again", found&.id, order.id)
  expect_equal("the public id is the server's ulid_encrypt of the id",
               public_id, connect.select_value("SELECT ulid_encrypt($1::ulid, decode($2, 'hex'))::text", "SQL",
                                               [order.id, secret.unpack1("H*")]))
  expect_equal("every row: ulid_decrypt(public_id) is its id",
               Order.select(Order.arel_table[:id], encrypt.as("public_id")).order(:id)
                    .map { |o| Order.find_by_sql("SELECT * FROM orders WHERE id = ulid_decrypt($1, $2)", [o.public_id, key]).first.id },
               ids)
  logged = StringIO.new
  ActiveRecord::Base.logger = Logger.new(logged)
  listed.reload.first
  ActiveRecord::Base.logger = nil
  check("the bound key stays out of the SQL text: the log shows <16 bytes of binary data>",
        logged.string.include?("<16 bytes of binary data>") && !logged.string.include?(secret.unpack1("H*")), logged.string)

  # --- schema.rb ----------------------------------------------------------------
  path = File.join(dir, "schema.rb")
  # docs/clients/ruby.md: ActiveRecord, schema.rb
  File.open(path, "w") { |file| ActiveRecord::SchemaDumper.dump(ActiveRecord::Base.connection, file) }
  # end
  schema = File.read(path)
  [
    'enable_extension "ulid"',
    'create_table "orders", id: :ulid, default: -> { "gen_ulid()" }, force: :cascade do |t|',
    'create_table "line_items", id: :ulid, default: -> { "gen_ulid()" }, force: :cascade do |t|',
    't.ulid "order_id", null: false',
    'add_foreign_key "line_items", "orders"',
  ].each { |line| check("schema.rb has: #{line}", schema.include?(line), schema) }
  check("schema.rb skips no table", !schema.include?("Could not dump"), schema)

  # A process without the registration cannot load it.
  fresh_database(SCHEMA_RB_DATABASE)
  out, status = Open3.capture2e({ "PGDATABASE" => SCHEMA_RB_DATABASE }, RbConfig.ruby, "-e", <<~RUBY)
    require "active_record"
    ActiveRecord::Migration.verbose = false
    ActiveRecord::Base.establish_connection(adapter: "postgresql")
    load #{path.inspect}
  RUBY
  check("schema.rb loaded without the registration: NoMethodError, undefined method `ulid'",
        !status.success? && out.include?("undefined method `ulid'"), out)

  fresh_database(SCHEMA_RB_DATABASE)
  connect(SCHEMA_RB_DATABASE)
  warned, = Check.warnings do
    # docs/clients/ruby.md: ActiveRecord, loading schema.rb
    load path  # in a process that loaded the registration: what db:schema:load does
    # end
  end
  expect_equal("schema.rb loads into a fresh database, with no warning", warned, "")
  expect_equal("the loaded database's tables equal the migrated ones (types, defaults, keys, indexes)",
               catalog(SCHEMA_RB_DATABASE), catalog(DATABASE))
  connect(SCHEMA_RB_DATABASE)
  warned, made = Check.warnings { Order.create!(item: "loaded").line_items.create!(quantity: 1).order }
  check("in the loaded database: gen_ulid() fills the id, belongs_to works, no warning",
        ULID_TEXT.match?(made.id) && made.item == "loaded" && warned.empty?, "#{made.inspect} #{warned}")

  ActiveRecord::Base.remove_connection
  conn = PG.connect
  [SCHEMA_RB_DATABASE, STRUCTURE_SQL_DATABASE].each { |db| conn.exec("DROP DATABASE IF EXISTS #{db}") }
  conn.close
end
