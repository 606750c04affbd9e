# The ulid type for ActiveRecord 6.1's PostgreSQL adapter: what a Rails
# application puts in config/initializers/ulid.rb (docs/clients/ruby.md).
# Loaded by activerecord_test.rb, which first shows what goes wrong without it.
# docs/clients/ruby.md: ActiveRecord, the registration
require "active_record"
require "active_record/connection_adapters/postgresql_adapter"

# A ulid column's values: Strings, the 26 characters the server sends.
class UlidType < ActiveRecord::Type::String
  def type
    :ulid
  end
end

module UlidAdapter
  # t.ulid and `type: :ulid` are valid, and the schema dumper writes them.
  def native_database_types
    @native_database_types_with_ulid ||= super.merge(ulid: { name: "ulid" })
  end

  private

  # Registered by name before the adapter reads pg_type, which maps the
  # database's oid for "ulid" (and "_ulid", its array) to UlidType.
  def initialize_type_map(m = type_map)
    m.register_type "ulid", UlidType.new
    super
  end
end

ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(UlidAdapter)

# t.ulid "column" in migrations, change_table and schema.rb.
ActiveRecord::ConnectionAdapters::PostgreSQL::ColumnMethods.module_eval do
  def ulid(*names, **options)
    names.each { |name| column(name, :ulid, **options) }
  end
end
# end
