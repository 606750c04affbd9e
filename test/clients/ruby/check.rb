# What the Ruby client programs share: the check lines of t/007_clients.pl
# ("ok - CLIENT: WHAT" or "FAILED - CLIENT: WHAT : WHY"), the capture of
# Ruby's warnings, an SQLSTATE read from a driver's error, and the shapes of
# ULID and uuid text.
require "stringio"

ULID_TEXT = /\A[0-7][0-9A-HJKMNP-TV-Z]{25}\z/
UUID_TEXT = /\A\h{8}-\h{4}-\h{4}-\h{4}-\h{12}\z/

module Check
  @client = "ruby"
  @failures = 0

  class << self
    attr_accessor :client
    attr_reader :failures

    def check(what, ok, why = "")
      if ok
        puts "ok - #{client}: #{what}"
      else
        @failures += 1
        why = why.to_s.split.join(" ")  # one line per check
        puts "FAILED - #{client}: #{what} : #{why.empty? ? "false" : why}"
      end
      $stdout.flush
    end

    def expect_equal(what, got, want)
      check(what, got == want, "got #{got.inspect}, want #{want.inspect}")
    end

    # What the block writes through Kernel#warn (to $stderr), and the block's value.
    def warnings
      saved = $stderr
      $stderr = StringIO.new
      value = yield
      [$stderr.string, value]
    ensure
      $stderr = saved
    end

    # The SQLSTATE of the PG::Error the block raises (ActiveRecord wraps it:
    # its #cause), or nil if it raises none.
    def sqlstate
      yield
      nil
    rescue StandardError => e
      pg = e.is_a?(PG::Error) ? e : e.cause
      raise unless pg.is_a?(PG::Error)
      pg.result&.error_field(PG::PG_DIAG_SQLSTATE)
    end

    # Run the program's body; a program that breaks is one FAILED line, then exit 1.
    def run
      yield
    rescue StandardError, ScriptError => e
      puts e.full_message(highlight: false).lines.first(12).join
      check("the program ran to the end", false, "#{e.class}: #{e.message}")
    ensure
      if @failures.positive?
        puts "#{client}: #{@failures} failed"
        exit 1
      end
    end
  end
end
